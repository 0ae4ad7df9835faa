-- 0005: tamper evidence: the hash chain of events and the session state
-- signatures (twin of the SQLite migration).
ALTER TABLE events ADD COLUMN prev_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN hash TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN sig TEXT NOT NULL DEFAULT '';
