-- Tournaments run by the server: each is one record (its terms, entrants,
-- rounds with their pairings and results, as JSON), written whole in one
-- statement after every change, so a pairing once stored is the pairing.
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    created_by INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    starts_at INTEGER NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_status ON tournaments(status, starts_at);
