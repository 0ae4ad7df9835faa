-- 0045: the workers of a pool (internal/pool): one row per `warden serve`
-- process, written by its heartbeat, deleted when it stops cleanly. A
-- daemon alone on SQLite may keep its own row here too.
CREATE TABLE IF NOT EXISTS systems (
    owner      TEXT    PRIMARY KEY,          -- claim owner, name:pid
    name       TEXT    NOT NULL,             -- serve.system
    host       TEXT    NOT NULL,
    pid        INTEGER NOT NULL,
    version    TEXT    NOT NULL DEFAULT '',
    agents     INTEGER NOT NULL DEFAULT 0,
    max_agents INTEGER NOT NULL DEFAULT 0,
    load1      REAL    NOT NULL DEFAULT 0,
    started    INTEGER NOT NULL,             -- unix µs
    heartbeat  INTEGER NOT NULL              -- unix µs
);
