-- 0040: events copied into this store from another one (internal/store/ship:
-- a machine's local store shipping to the shared PostgreSQL store, or to a
-- SQLite file in tests). Each copied row remembers the store it came from
-- and its id there, so a batch sent twice (a crash between the send and the
-- sender's mark) is inserted once. origin_hash is the row's hash in its
-- origin's chain, to compare the copy with the original.
CREATE TABLE event_origins (
    origin      TEXT    NOT NULL,
    origin_id   INTEGER NOT NULL,
    event_id    INTEGER NOT NULL,
    origin_hash TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (origin, origin_id)
);
