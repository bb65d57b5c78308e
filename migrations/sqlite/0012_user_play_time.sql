-- The time a user has spent in finished games, ms (lichess's playTime.total),
-- added when each game ends.
ALTER TABLE users ADD COLUMN play_time_ms INTEGER NOT NULL DEFAULT 0;
