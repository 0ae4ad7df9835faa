-- 0060: a task's own completion criteria and allowed/denied operations
-- (twin of the SQLite migration: JSON arrays of strings as text).
ALTER TABLE tasks ADD COLUMN criteria  TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tasks ADD COLUMN allow_ops TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tasks ADD COLUMN deny_ops  TEXT NOT NULL DEFAULT '[]';
