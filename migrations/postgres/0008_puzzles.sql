-- Puzzles and who played them. A puzzle's rating moves as people solve it
-- (Glicko-2, like a player's); a player's puzzle rating is their `puzzle`
-- row in `ratings`. Themes are kept space separated with a space at each end,
-- so that one theme is found with LIKE '% fork %'.
CREATE TABLE puzzles (
    id           TEXT PRIMARY KEY,
    fen          TEXT NOT NULL,
    moves        TEXT NOT NULL,
    rating       DOUBLE PRECISION NOT NULL,
    deviation    DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    popularity   BIGINT NOT NULL,
    plays        BIGINT NOT NULL,
    themes       TEXT NOT NULL,
    game_url     TEXT NOT NULL,
    opening_tags TEXT NOT NULL
);
CREATE INDEX puzzles_rating ON puzzles(rating);

CREATE TABLE puzzle_rounds (
    id            BIGSERIAL PRIMARY KEY,
    user_id       BIGINT NOT NULL REFERENCES users(id),
    puzzle_id     TEXT NOT NULL REFERENCES puzzles(id),
    played_at     BIGINT NOT NULL,
    win           BOOLEAN NOT NULL,
    rated         BOOLEAN NOT NULL,
    puzzle_rating DOUBLE PRECISION NOT NULL,
    rating_after  DOUBLE PRECISION NOT NULL
);
CREATE INDEX puzzle_rounds_user ON puzzle_rounds(user_id, played_at);
CREATE INDEX puzzle_rounds_puzzle ON puzzle_rounds(user_id, puzzle_id);
