-- Browser sessions (cookie) with a CSRF token for state-changing requests.
CREATE TABLE IF NOT EXISTS sessions (
    session_hash TEXT PRIMARY KEY,             -- SHA-256 of the cookie value
    user_id      INTEGER NOT NULL REFERENCES users(id),
    csrf         TEXT NOT NULL,
    created_at   INTEGER NOT NULL
);
