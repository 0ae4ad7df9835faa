-- 0010: the daemon's task queue (internal/orchestrator). tasks holds one
-- row per task; task_transitions every status change with its reason;
-- sched_decisions every scheduling decision (task_id '' for queue-wide
-- ones: hold for quota, resume, watchdog). An idempotency key is unique
-- where given, so a retried POST finds the task it made.
CREATE TABLE IF NOT EXISTS tasks (
    id          TEXT    PRIMARY KEY,
    project     TEXT    NOT NULL,
    prompt      TEXT    NOT NULL,
    priority    INTEGER NOT NULL DEFAULT 0,
    status      TEXT    NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    result      TEXT    NOT NULL DEFAULT '',
    error       TEXT    NOT NULL DEFAULT '',
    source      TEXT    NOT NULL DEFAULT '',
    idem_key    TEXT,
    system      TEXT    NOT NULL DEFAULT '',
    agent       TEXT    NOT NULL DEFAULT '',
    agent_state TEXT    NOT NULL DEFAULT '',
    agent_ref   TEXT    NOT NULL DEFAULT '',
    owner       TEXT    NOT NULL DEFAULT '',
    created_us  INTEGER NOT NULL,
    updated_us  INTEGER NOT NULL,
    claimed_us  INTEGER,
    started_us  INTEGER,
    finished_us INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS tasks_idem ON tasks (idem_key) WHERE idem_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS tasks_queue ON tasks (status, priority DESC, created_us, id);
CREATE INDEX IF NOT EXISTS tasks_created ON tasks (created_us);

CREATE TABLE IF NOT EXISTS task_transitions (
    id          INTEGER PRIMARY KEY,
    task_id     TEXT    NOT NULL,
    time_us     INTEGER NOT NULL,
    from_status TEXT    NOT NULL,
    to_status   TEXT    NOT NULL,
    reason      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS task_transitions_task ON task_transitions (task_id, id);

CREATE TABLE IF NOT EXISTS sched_decisions (
    id          INTEGER PRIMARY KEY,
    time_us     INTEGER NOT NULL,
    task_id     TEXT    NOT NULL DEFAULT '',
    action      TEXT    NOT NULL,
    reason      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS sched_decisions_task ON sched_decisions (task_id, id);
