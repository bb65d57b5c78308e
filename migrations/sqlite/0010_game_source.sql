-- Where a game comes from (lichess's `source`): `friend`, `lobby`, `ai`, or a
-- tournament's game as `arena:ID` / `swiss:ID` (round robins use the Swiss
-- shape), so events and exports can name the tournament. Games stored before
-- this column existed were challenges.
ALTER TABLE games ADD COLUMN source TEXT NOT NULL DEFAULT 'friend';
