-- 0006: how long a hook slept on purpose (pacing), apart from its latency.
ALTER TABLE events ADD COLUMN slept_ms INTEGER NOT NULL DEFAULT 0;
