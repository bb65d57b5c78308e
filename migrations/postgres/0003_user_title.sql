-- A user's title as lichess writes it; only `BOT` is given here (an account
-- upgraded for the Bot API, for ever). NULL for everyone else.
ALTER TABLE users ADD COLUMN title TEXT;
