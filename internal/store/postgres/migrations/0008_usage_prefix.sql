-- 0008: the fingerprint of each cached transcript's parsed prefix (twin of
-- the SQLite migration).
ALTER TABLE usage_files ADD COLUMN prefix BYTEA NOT NULL DEFAULT '\x'::bytea;
