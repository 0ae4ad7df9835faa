-- 0011: bearer tokens of the daemon's API, hashed (twin of the SQLite
-- migration).
CREATE TABLE api_tokens (
    id           TEXT    PRIMARY KEY,
    name         TEXT    NOT NULL,
    hash         TEXT    NOT NULL UNIQUE,
    created_us   BIGINT  NOT NULL,
    last_used_us BIGINT  NOT NULL DEFAULT 0,
    revoked_us   BIGINT  NOT NULL DEFAULT 0
);
