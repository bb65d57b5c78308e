-- Puzzles and who played them. A puzzle's rating moves as people solve it
-- (Glicko-2, like a player's); a player's puzzle rating is their `puzzle`
-- row in `ratings`. Themes are kept space separated with a space at each end,
-- so that one theme is found with LIKE '% fork %'.
CREATE TABLE IF NOT EXISTS puzzles (
    id           TEXT PRIMARY KEY,
    fen          TEXT NOT NULL,
    moves        TEXT NOT NULL,
    rating       REAL NOT NULL,
    deviation    REAL NOT NULL,
    volatility   REAL NOT NULL,
    popularity   INTEGER NOT NULL,
    plays        INTEGER NOT NULL,
    themes       TEXT NOT NULL,
    game_url     TEXT NOT NULL,
    opening_tags TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzles_rating ON puzzles(rating);

CREATE TABLE IF NOT EXISTS puzzle_rounds (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       INTEGER NOT NULL REFERENCES users(id),
    puzzle_id     TEXT NOT NULL REFERENCES puzzles(id),
    played_at     INTEGER NOT NULL,
    win           BOOLEAN NOT NULL,
    rated         BOOLEAN NOT NULL,
    puzzle_rating REAL NOT NULL,
    rating_after  REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzle_rounds_user ON puzzle_rounds(user_id, played_at);
CREATE INDEX IF NOT EXISTS puzzle_rounds_puzzle ON puzzle_rounds(user_id, puzzle_id);
