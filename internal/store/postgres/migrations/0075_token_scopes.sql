-- 0075: API token scopes and expiry (twin of the SQLite migration):
-- tokens made before it get admin, the access they had.
ALTER TABLE api_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'admin';
ALTER TABLE api_tokens ADD COLUMN expires_us BIGINT NOT NULL DEFAULT 0;
