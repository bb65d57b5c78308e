-- The arbiter's seat (Laws 12): rights an operator grants to accounts
-- (`caissa user grant NAME arbiter`), and the arbiters named for one game by
-- whoever created it.
CREATE TABLE IF NOT EXISTS user_rights (
    user_id INTEGER NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    granted_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, name)
);
CREATE TABLE IF NOT EXISTS game_arbiters (
    game_id TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX IF NOT EXISTS game_arbiters_user ON game_arbiters(user_id);
