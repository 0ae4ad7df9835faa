-- 0005: tamper evidence. Every event row carries the hash of the row before
-- it (a hash chain `warden audit verify` walks), and every session state row
-- an HMAC-SHA256 signature made with a per-install key outside the store.
ALTER TABLE events ADD COLUMN prev_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN hash TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN sig TEXT NOT NULL DEFAULT '';
