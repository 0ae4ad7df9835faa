-- 0001: the event log, per-session state and settings (twin of the SQLite
-- migration; times are unix microseconds in BIGINT, as there).
CREATE TABLE events (
    id          BIGINT PRIMARY KEY,          -- assigned in chain order (see RecordHook)
    ts_us       BIGINT  NOT NULL,
    session_id  TEXT    NOT NULL DEFAULT '',
    event       TEXT    NOT NULL,
    harness     TEXT    NOT NULL DEFAULT 'claude',
    tool        TEXT    NOT NULL DEFAULT '',
    tool_use_id TEXT    NOT NULL DEFAULT '',
    agent_id    TEXT    NOT NULL DEFAULT '',
    cwd         TEXT    NOT NULL DEFAULT '',
    path        TEXT    NOT NULL DEFAULT '',
    decision    TEXT    NOT NULL DEFAULT 'allow',
    rule        TEXT    NOT NULL DEFAULT '',
    mode        TEXT    NOT NULL DEFAULT '',
    reason      TEXT    NOT NULL DEFAULT '',
    error       TEXT    NOT NULL DEFAULT '',
    latency_us  BIGINT  NOT NULL DEFAULT 0,
    duration_ms BIGINT,
    raw         TEXT
);
CREATE INDEX events_ts ON events (ts_us);
CREATE INDEX events_session ON events (session_id, id);

CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    cwd         TEXT    NOT NULL DEFAULT '',
    started_us  BIGINT  NOT NULL,
    updated_us  BIGINT  NOT NULL,
    state       TEXT    NOT NULL DEFAULT '{}'
);
CREATE INDEX sessions_updated ON sessions (updated_us);

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
