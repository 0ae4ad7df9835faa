-- 0001: the event log, per-session state and settings.
CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    ts_us       INTEGER NOT NULL,            -- unix microseconds, UTC
    session_id  TEXT    NOT NULL DEFAULT '',
    event       TEXT    NOT NULL,
    harness     TEXT    NOT NULL DEFAULT 'claude',
    tool        TEXT    NOT NULL DEFAULT '',
    tool_use_id TEXT    NOT NULL DEFAULT '',
    agent_id    TEXT    NOT NULL DEFAULT '',
    cwd         TEXT    NOT NULL DEFAULT '',
    path        TEXT    NOT NULL DEFAULT '', -- file tools: the file
    decision    TEXT    NOT NULL DEFAULT 'allow',
    rule        TEXT    NOT NULL DEFAULT '',
    mode        TEXT    NOT NULL DEFAULT '',
    reason      TEXT    NOT NULL DEFAULT '',
    error       TEXT    NOT NULL DEFAULT '', -- why warden failed open, if it did
    latency_us  INTEGER NOT NULL DEFAULT 0,
    duration_ms INTEGER,                     -- tool duration Claude Code reports
    raw         TEXT                         -- hook input, only with capture = true, secrets redacted
);
CREATE INDEX events_ts ON events (ts_us);
CREATE INDEX events_session ON events (session_id, id);

CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    cwd         TEXT    NOT NULL DEFAULT '',
    started_us  INTEGER NOT NULL,
    updated_us  INTEGER NOT NULL,
    state       TEXT    NOT NULL DEFAULT '{}'  -- session.State as JSON
);
CREATE INDEX sessions_updated ON sessions (updated_us);

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
