-- Several nodes on one database. Each start of a node takes a lease with a
-- generation of its own and renews it while it lives; a live game is owned by
-- one generation at a time (`games.owner`), and only its owner may append to
-- its log. A node whose lease expired loses its games to the others, and its
-- late writes are refused because the game names another owner.
CREATE TABLE node_leases (
    generation BIGSERIAL PRIMARY KEY,
    address    TEXT NOT NULL,              -- where other nodes reach it
    started_at BIGINT NOT NULL,            -- ms, the database's clock
    renewed_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

ALTER TABLE games ADD COLUMN owner BIGINT;
CREATE INDEX games_owner ON games(owner) WHERE finished = FALSE;

-- The secret nodes show each other when one forwards a request to another.
CREATE TABLE cluster (
    id     BIGINT PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
);
