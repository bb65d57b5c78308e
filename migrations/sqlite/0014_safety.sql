-- Accounts and safety: an account can be closed (by its owner or an operator),
-- a user can block another (no challenges, no chat from them), and anyone can
-- report a user or a chat line to the operators.
ALTER TABLE users ADD COLUMN closed_at INTEGER;

CREATE TABLE IF NOT EXISTS blocks (
    user_id    INTEGER NOT NULL REFERENCES users(id),
    blocked_id INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);

CREATE TABLE IF NOT EXISTS reports (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    reporter_id INTEGER NOT NULL REFERENCES users(id),
    suspect_id  INTEGER NOT NULL REFERENCES users(id),
    reason      TEXT NOT NULL,
    text        TEXT NOT NULL,
    game_id     TEXT,
    created_at  INTEGER NOT NULL,
    closed_at   INTEGER
);
CREATE INDEX IF NOT EXISTS reports_open ON reports(closed_at, id);
