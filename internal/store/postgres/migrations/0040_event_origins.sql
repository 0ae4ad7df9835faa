-- 0040: events copied into this store from a machine's local store
-- (internal/store/ship), with the store they came from and their id
-- there, so a batch sent twice is inserted once (twin of the SQLite
-- migration).
CREATE TABLE event_origins (
    origin      TEXT    NOT NULL,
    origin_id   BIGINT  NOT NULL,
    event_id    BIGINT  NOT NULL,
    origin_hash TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (origin, origin_id)
);
