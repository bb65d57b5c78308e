-- Rated games, Glicko-2 ratings per speed, and ladder points.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

CREATE TABLE IF NOT EXISTS ratings (
    user_id     INTEGER NOT NULL REFERENCES users(id),
    perf        TEXT NOT NULL,                 -- speed: bullet, blitz, rapid, classical, correspondence
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    games       INTEGER NOT NULL,
    last_played INTEGER NOT NULL,              -- ms since the Unix epoch
    PRIMARY KEY (user_id, perf)
);

CREATE TABLE IF NOT EXISTS ladder (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    points  INTEGER NOT NULL,
    games   INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS rating_history (
    user_id  INTEGER NOT NULL REFERENCES users(id),
    perf     TEXT NOT NULL,
    game_id  TEXT NOT NULL,
    rating   REAL NOT NULL,
    at       INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS rating_history_user ON rating_history(user_id, perf, at);
