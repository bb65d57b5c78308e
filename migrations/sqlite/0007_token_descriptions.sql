-- What each API token is for, as its owner described it when creating it, so a
-- list of one's tokens says which to revoke.
ALTER TABLE tokens ADD COLUMN description TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS tokens_user ON tokens(user_id);
-- Tokens made before scopes were enforced could already make and answer
-- challenges; they keep reading them too.
UPDATE tokens SET scopes = scopes || ' challenge:read'
WHERE ' ' || scopes || ' ' LIKE '% challenge:write %'
  AND ' ' || scopes || ' ' NOT LIKE '% challenge:read %';
