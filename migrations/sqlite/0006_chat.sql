-- What the players and spectators of a game wrote, kept with the game: a line
-- acknowledged to its writer is there after a restart and after the game.
CREATE TABLE IF NOT EXISTS chat_lines (
    game_id  TEXT NOT NULL REFERENCES games(id),
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    room     TEXT NOT NULL CHECK (room IN ('player', 'spectator')),
    username TEXT NOT NULL,
    text     TEXT NOT NULL,
    at       INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_lines_game ON chat_lines(game_id, room, seq);
