-- Accounts and safety: an account can be closed (by its owner or an operator),
-- a user can block another (no challenges, no chat from them), and anyone can
-- report a user or a chat line to the operators.
ALTER TABLE users ADD COLUMN closed_at BIGINT;

CREATE TABLE blocks (
    user_id    BIGINT NOT NULL REFERENCES users(id),
    blocked_id BIGINT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);

CREATE TABLE reports (
    id          BIGSERIAL PRIMARY KEY,
    reporter_id BIGINT NOT NULL REFERENCES users(id),
    suspect_id  BIGINT NOT NULL REFERENCES users(id),
    reason      TEXT NOT NULL,
    text        TEXT NOT NULL,
    game_id     TEXT,
    created_at  BIGINT NOT NULL,
    closed_at   BIGINT
);
CREATE INDEX reports_open ON reports(closed_at, id);
