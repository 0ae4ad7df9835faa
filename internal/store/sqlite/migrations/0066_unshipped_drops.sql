-- 0066: every pruning of rows the shared store never took (retention past
-- store.unshipped_keep_days, internal/store/ship): how many, which ids and
-- times, and why, so the loss is on record (warden doctor, warden ship
-- --status).
CREATE TABLE unshipped_drops (
    id          INTEGER PRIMARY KEY,
    ts_us       INTEGER NOT NULL,
    events      INTEGER NOT NULL,
    first_id    INTEGER NOT NULL DEFAULT 0,
    last_id     INTEGER NOT NULL DEFAULT 0,
    first_ts_us INTEGER NOT NULL DEFAULT 0,
    last_ts_us  INTEGER NOT NULL DEFAULT 0,
    sessions    INTEGER NOT NULL,
    reason      TEXT    NOT NULL DEFAULT ''
);
