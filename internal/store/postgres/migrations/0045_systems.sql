-- 0045: the workers of a pool, one row per `warden serve` process (twin of
-- the SQLite migration). The columns are those internal/pool created at
-- run time before this migration (TIMESTAMPTZ times), so a table it made
-- already is kept as it is.
CREATE TABLE IF NOT EXISTS systems (
    owner      TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    host       TEXT NOT NULL,
    pid        INTEGER NOT NULL,
    version    TEXT NOT NULL DEFAULT '',
    agents     INTEGER NOT NULL DEFAULT 0,
    max_agents INTEGER NOT NULL DEFAULT 0,
    load1      DOUBLE PRECISION NOT NULL DEFAULT 0,
    started    TIMESTAMPTZ NOT NULL,
    heartbeat  TIMESTAMPTZ NOT NULL
);
