-- Challenges waiting for an answer, kept across restarts. The terms (clock,
-- colour, rated, ruleset, rematch) are JSON written by the server.
CREATE TABLE IF NOT EXISTS challenges (
    id            TEXT PRIMARY KEY,
    challenger_id INTEGER NOT NULL REFERENCES users(id),
    dest_id       INTEGER REFERENCES users(id),
    terms         TEXT NOT NULL,
    created_at    INTEGER NOT NULL
);
