-- 0075: API token scopes and expiry. scope is read, tasks, admin or
-- webhook:NAME; every token made before this migration gets admin, the
-- access it had (revoke it and make a narrower one to take that away).
-- expires_us is when the token stops working, 0 for never.
ALTER TABLE api_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'admin';
ALTER TABLE api_tokens ADD COLUMN expires_us INTEGER NOT NULL DEFAULT 0;
