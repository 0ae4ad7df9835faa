-- 0011: bearer tokens for the daemon's API (warden token create|list|revoke).
-- Only the SHA-256 of a token is kept; the token itself is shown once.
CREATE TABLE IF NOT EXISTS api_tokens (
    id           TEXT    PRIMARY KEY,
    name         TEXT    NOT NULL,
    hash         TEXT    NOT NULL UNIQUE,
    created_us   INTEGER NOT NULL,
    last_used_us INTEGER NOT NULL DEFAULT 0,
    revoked_us   INTEGER NOT NULL DEFAULT 0
);
