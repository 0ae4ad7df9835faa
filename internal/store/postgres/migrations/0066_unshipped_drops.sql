-- 0066: twin of the SQLite migration that records prunings of rows never
-- shipped. Only local stores ship, so this table stays empty here; it
-- keeps one schema for both.
CREATE TABLE unshipped_drops (
    id          BIGSERIAL PRIMARY KEY,
    ts_us       BIGINT NOT NULL,
    events      BIGINT NOT NULL,
    first_id    BIGINT NOT NULL DEFAULT 0,
    last_id     BIGINT NOT NULL DEFAULT 0,
    first_ts_us BIGINT NOT NULL DEFAULT 0,
    last_ts_us  BIGINT NOT NULL DEFAULT 0,
    sessions    BIGINT NOT NULL,
    reason      TEXT   NOT NULL DEFAULT ''
);
