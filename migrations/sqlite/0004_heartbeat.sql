-- When the server was last seen running: one row, rewritten every second. After a
-- crash, a game's clock is charged up to then, and not for the time it was down.
CREATE TABLE IF NOT EXISTS heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at INTEGER NOT NULL
);
