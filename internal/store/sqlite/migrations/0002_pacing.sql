-- 0002: pacing. Usage snapshots (both windows' figures and their source),
-- computed pacing decisions (the newest is the cache every PostToolUse
-- applies), the poll lease that lets one process per machine poll the OAuth
-- usage endpoint per interval, and the once-per-reset 80/95 % notices.
CREATE TABLE usage_snapshots (
    id          INTEGER PRIMARY KEY,
    ts_us       INTEGER NOT NULL,            -- when the figures were observed, unix µs UTC
    source      TEXT    NOT NULL,            -- statusline | oauth | estimate
    session_id  TEXT    NOT NULL DEFAULT '',
    five_util   REAL,                        -- percent; NULL: no figure
    five_reset  INTEGER,                     -- unix seconds; NULL: no active window
    seven_util  REAL,
    seven_reset INTEGER
);
CREATE INDEX usage_snapshots_ts ON usage_snapshots (ts_us);
CREATE INDEX usage_snapshots_source ON usage_snapshots (source, ts_us);

CREATE TABLE pace_decisions (
    id           INTEGER PRIMARY KEY,
    ts_us        INTEGER NOT NULL,           -- when it was computed
    snapshot_id  INTEGER NOT NULL DEFAULT 0,
    sessions     INTEGER NOT NULL DEFAULT 1, -- active sessions (fair sharing)
    delay_s      INTEGER NOT NULL DEFAULT 0, -- per tool call, after fair sharing
    algo_delay_s INTEGER NOT NULL DEFAULT 0, -- the reference algorithm's delay
    window       TEXT    NOT NULL DEFAULT '',
    strategy     TEXT    NOT NULL DEFAULT '',
    detail       TEXT    NOT NULL DEFAULT '{}' -- JSON working for --explain
);
CREATE INDEX pace_decisions_ts ON pace_decisions (ts_us);

CREATE TABLE pace_leases (
    name        TEXT PRIMARY KEY,            -- 'oauth'
    holder      TEXT    NOT NULL DEFAULT '',
    next_us     INTEGER NOT NULL DEFAULT 0,  -- nobody polls before this
    failures    INTEGER NOT NULL DEFAULT 0,  -- consecutive failures (backoff)
    last_us     INTEGER NOT NULL DEFAULT 0,
    last_status TEXT    NOT NULL DEFAULT '',
    polls       INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE pace_notices (
    window      TEXT    NOT NULL,            -- five_hour | seven_day
    reset_s     INTEGER NOT NULL,            -- the window's reset, unix seconds rounded to 10 min
    level       INTEGER NOT NULL,            -- 80 | 95
    ts_us       INTEGER NOT NULL,
    PRIMARY KEY (window, reset_s, level)
);
