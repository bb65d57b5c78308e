-- The schema of SQLite's migrations 0001-0010, in PostgreSQL's types: integers
-- are BIGINT (ids and milliseconds), truths BOOLEAN, ratings DOUBLE PRECISION,
-- and the row order SQLite keeps as rowid is a sequence column (`seq`).

CREATE TABLE users (
    id            BIGSERIAL PRIMARY KEY,
    name          TEXT NOT NULL,
    name_key      TEXT NOT NULL UNIQUE,        -- lower-case name, for uniqueness
    password_hash TEXT,                        -- argon2id PHC string; NULL for guests
    created_at    BIGINT NOT NULL
);

CREATE TABLE tokens (
    token_hash  TEXT PRIMARY KEY,              -- SHA-256 of the bearer token
    seq         BIGSERIAL NOT NULL UNIQUE,     -- creation order
    user_id     BIGINT NOT NULL REFERENCES users(id),
    scopes      TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    created_at  BIGINT NOT NULL
);
CREATE INDEX tokens_user ON tokens(user_id);

CREATE TABLE sessions (
    session_hash TEXT PRIMARY KEY,             -- SHA-256 of the cookie value
    user_id      BIGINT NOT NULL REFERENCES users(id),
    csrf         TEXT NOT NULL,
    created_at   BIGINT NOT NULL
);

CREATE TABLE user_rights (
    user_id    BIGINT NOT NULL REFERENCES users(id),
    name       TEXT NOT NULL,
    granted_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, name)
);

CREATE TABLE games (
    id         TEXT PRIMARY KEY,
    white_id   BIGINT NOT NULL REFERENCES users(id),
    black_id   BIGINT NOT NULL REFERENCES users(id),
    setup      TEXT NOT NULL,                  -- JSON of the arbiter's GameSetup
    created_at BIGINT NOT NULL,
    finished   BOOLEAN NOT NULL DEFAULT FALSE,
    result     TEXT,
    rated      BOOLEAN NOT NULL DEFAULT FALSE,
    source     TEXT NOT NULL DEFAULT 'friend'  -- friend, lobby, ai, arena:ID, swiss:ID
);
CREATE INDEX games_white ON games(white_id);
CREATE INDEX games_black ON games(black_id);
CREATE INDEX games_live ON games(finished);

CREATE TABLE game_events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq     BIGINT NOT NULL,
    event   TEXT NOT NULL,                     -- JSON of one arbiter Event
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE game_arbiters (
    game_id TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id),
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX game_arbiters_user ON game_arbiters(user_id);

CREATE TABLE challenges (
    id            TEXT PRIMARY KEY,
    challenger_id BIGINT NOT NULL REFERENCES users(id),
    dest_id       BIGINT REFERENCES users(id),
    terms         TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);

CREATE TABLE chat_lines (
    seq      BIGSERIAL PRIMARY KEY,
    game_id  TEXT NOT NULL REFERENCES games(id),
    room     TEXT NOT NULL CHECK (room IN ('player', 'spectator')),
    username TEXT NOT NULL,
    text     TEXT NOT NULL,
    at       BIGINT NOT NULL
);
CREATE INDEX chat_lines_game ON chat_lines(game_id, room, seq);

CREATE TABLE ratings (
    user_id     BIGINT NOT NULL REFERENCES users(id),
    perf        TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL,
    last_played BIGINT NOT NULL,
    PRIMARY KEY (user_id, perf)
);

CREATE TABLE ladder (
    user_id BIGINT PRIMARY KEY REFERENCES users(id),
    points  BIGINT NOT NULL,
    games   BIGINT NOT NULL
);

CREATE TABLE rating_history (
    seq     BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    perf    TEXT NOT NULL,
    game_id TEXT NOT NULL,
    rating  DOUBLE PRECISION NOT NULL,
    at      BIGINT NOT NULL
);
CREATE INDEX rating_history_user ON rating_history(user_id, perf, at);

CREATE TABLE tournaments (
    id         TEXT PRIMARY KEY,
    status     TEXT NOT NULL,
    created_by BIGINT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL,
    starts_at  BIGINT NOT NULL,
    data       TEXT NOT NULL
);
CREATE INDEX tournaments_status ON tournaments(status, starts_at);

CREATE TABLE heartbeat (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    at BIGINT NOT NULL
);
