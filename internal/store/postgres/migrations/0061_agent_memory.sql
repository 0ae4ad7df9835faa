-- 0061: the cgroup of an agent's memory limit (twin of the SQLite migration).
ALTER TABLE agents ADD COLUMN memory_cgroup TEXT NOT NULL DEFAULT '';
