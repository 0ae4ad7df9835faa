-- 0003: incremental cache for `warden usage`. One row per transcript file:
-- its size and mtime when it was read, the byte offset parsed so far (end of
-- the last complete line) and the entries found before that offset, packed
-- by internal/usage (codec.go). A file that only grew is read from offset.
CREATE TABLE IF NOT EXISTS usage_files (
	path     TEXT PRIMARY KEY,
	size     INTEGER NOT NULL,
	mtime_ns INTEGER NOT NULL,
	offset   INTEGER NOT NULL,
	data     BLOB NOT NULL
);

-- Finished aggregates of a report (today: the unfiltered blocks list) for a
-- fingerprint of every transcript file's path, size and mtime, so an
-- unchanged tree is answered without reading the entries again.
CREATE TABLE IF NOT EXISTS usage_report_cache (
	name        TEXT PRIMARY KEY,
	fingerprint BLOB NOT NULL,
	data        BLOB NOT NULL
);
