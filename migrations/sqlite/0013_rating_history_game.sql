-- Rating changes are looked up by game (an export's ratingDiff).
CREATE INDEX IF NOT EXISTS rating_history_game ON rating_history(game_id);
