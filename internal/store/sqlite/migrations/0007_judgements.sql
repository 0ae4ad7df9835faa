-- 0007: LLM judges (internal/judge). judgements records every judge call:
-- model, tokens, cost estimate, latency and verdict. judge_pending holds
-- the lazy verdicts: a request stored by the hook, run in the background by
-- warden-judge, and delivered (once) by the next PreToolUse when it failed.
CREATE TABLE IF NOT EXISTS judgements (
    id          INTEGER PRIMARY KEY,
    ts_us       INTEGER NOT NULL,
    session_id  TEXT    NOT NULL DEFAULT '',
    tool_use_id TEXT    NOT NULL DEFAULT '',
    judge       TEXT    NOT NULL,
    provider    TEXT    NOT NULL DEFAULT '',
    model       TEXT    NOT NULL DEFAULT '',
    tokens_in   INTEGER NOT NULL DEFAULT 0,
    tokens_out  INTEGER NOT NULL DEFAULT 0,
    cost_usd    REAL    NOT NULL DEFAULT 0,   -- estimate from list prices unless the provider reported it
    latency_ms  INTEGER NOT NULL DEFAULT 0,
    attempts    INTEGER NOT NULL DEFAULT 0,
    verdict     TEXT    NOT NULL DEFAULT '',  -- pass | fail | open (failed open)
    decision    TEXT    NOT NULL DEFAULT '',  -- the verdict word: APPROVED, BLOCKED, DENY…
    reason      TEXT    NOT NULL DEFAULT '',
    error       TEXT    NOT NULL DEFAULT '',
    lazy        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS judgements_ts ON judgements (ts_us);
CREATE INDEX IF NOT EXISTS judgements_session ON judgements (session_id, ts_us);

CREATE TABLE IF NOT EXISTS judge_pending (
    id          INTEGER PRIMARY KEY,
    session_id  TEXT    NOT NULL,
    created_us  INTEGER NOT NULL,
    done_us     INTEGER NOT NULL DEFAULT 0,
    state       TEXT    NOT NULL DEFAULT 'pending', -- pending | passed | failed | delivered | error
    judge       TEXT    NOT NULL,
    tool        TEXT    NOT NULL DEFAULT '',
    target      TEXT    NOT NULL DEFAULT '',
    request     TEXT    NOT NULL,                   -- judge.Request as JSON
    reason      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS judge_pending_session ON judge_pending (session_id, state);
