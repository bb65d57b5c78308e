-- What each API token is for, as its owner described it when creating it, so a
-- list of one's tokens says which to revoke.
ALTER TABLE tokens ADD COLUMN description TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS tokens_user ON tokens(user_id);
