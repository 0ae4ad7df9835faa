-- 0079: the handlers' timings of a hook (twin of the SQLite migration; the
-- trace export reads the local store only).
ALTER TABLE events ADD COLUMN spans TEXT NOT NULL DEFAULT '';
