-- 0003: the incremental cache of `warden usage` (twin of the SQLite
-- migration). "offset" is reserved in PostgreSQL: quoted.
CREATE TABLE usage_files (
    path     TEXT PRIMARY KEY,
    size     BIGINT NOT NULL,
    mtime_ns BIGINT NOT NULL,
    "offset" BIGINT NOT NULL,
    data     BYTEA  NOT NULL
);

CREATE TABLE usage_report_cache (
    name        TEXT PRIMARY KEY,
    fingerprint BYTEA NOT NULL,
    data        BYTEA NOT NULL
);
