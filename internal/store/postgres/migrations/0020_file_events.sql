-- 0020: file events' content hashes and line counts (twin of the SQLite
-- migration).
ALTER TABLE events ADD COLUMN hash_before TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN hash_after TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN lines_added BIGINT;
ALTER TABLE events ADD COLUMN lines_removed BIGINT;
