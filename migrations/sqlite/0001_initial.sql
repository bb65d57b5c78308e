-- Accounts, API tokens, games and their event logs.
CREATE TABLE IF NOT EXISTS users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT NOT NULL,
    name_key      TEXT NOT NULL UNIQUE,        -- lower-case name, for uniqueness
    password_hash TEXT,                        -- argon2id PHC string; NULL for guests
    created_at    INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS tokens (
    token_hash TEXT PRIMARY KEY,               -- SHA-256 of the bearer token
    user_id    INTEGER NOT NULL REFERENCES users(id),
    scopes     TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    white_id    INTEGER NOT NULL REFERENCES users(id),
    black_id    INTEGER NOT NULL REFERENCES users(id),
    setup       TEXT NOT NULL,                 -- JSON of the arbiter's GameSetup
    created_at  INTEGER NOT NULL,
    finished    INTEGER NOT NULL DEFAULT 0,
    result      TEXT
);
CREATE INDEX IF NOT EXISTS games_white ON games(white_id);
CREATE INDEX IF NOT EXISTS games_black ON games(black_id);
CREATE INDEX IF NOT EXISTS games_live ON games(finished);

CREATE TABLE IF NOT EXISTS game_events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    event   TEXT NOT NULL,                     -- JSON of one arbiter Event
    PRIMARY KEY (game_id, seq)
);
