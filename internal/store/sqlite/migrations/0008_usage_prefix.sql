-- 0008: a fingerprint of the already-parsed prefix of each cached
-- transcript (internal/usage: a hash of its first and last 4 KiB and its
-- length). A file that grew is read from its cached offset only when the
-- prefix still hashes the same; a file rewritten in place (truncated and
-- written again, then larger than before) is read again in full. Empty for
-- rows written before this column: such a file is read again in full once.
ALTER TABLE usage_files ADD COLUMN prefix BLOB NOT NULL DEFAULT x'';
