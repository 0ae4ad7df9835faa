-- warden:no-transaction
-- 0065: indexes for the dashboard's and the API's case-insensitive event
-- filters (SearchEvents: event, tool, decision compared ASCII-folded, the
-- newest first). Without them every filter read the whole events table,
-- which in a pool holds every machine's record. Each index is on the very
-- expression SearchEvents compares (asciiLower in activity.go) followed by
-- id, so "WHERE fold(tool) = fold($1) ORDER BY id DESC LIMIT n" reads n
-- index entries. translate() is immutable, so it may be indexed.
-- The session filter (starts_with(session_id, prefix), the dashboard's
-- 8-character ids) uses events_session only when the database's collation
-- is C; under any other (en_US.UTF-8, C.UTF-8) it read the whole table.
-- A "C"-collated index turns the prefix into a range in every database.
-- Built CONCURRENTLY, outside a transaction (the marker above): a plain
-- CREATE INDEX holds off every write to events while it reads the whole
-- table, minutes on a big pool. IF NOT EXISTS and the runner's drop of an
-- INVALID index of the same name make a run interrupted halfway safe to
-- repeat. Databases that ran the first version of this file (plain CREATE
-- INDEX, in a transaction) have the same four indexes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_event_fold ON events (translate(event::text, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_tool_fold ON events (translate(tool::text, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_decision_fold ON events (translate(decision::text, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_session_prefix ON events (session_id COLLATE "C", id);
