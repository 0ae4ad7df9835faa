-- 0006: how long a hook slept on purpose (twin of the SQLite migration).
ALTER TABLE events ADD COLUMN slept_ms BIGINT NOT NULL DEFAULT 0;
