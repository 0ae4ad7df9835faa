-- 0031: warden's agents (internal/agent): one row per task that got a
-- worktree and a tmux window, and every state it went through.
CREATE TABLE agents (
    task_id       TEXT PRIMARY KEY,
    project       TEXT    NOT NULL,
    worktree      TEXT    NOT NULL,
    branch        TEXT    NOT NULL,
    base          TEXT    NOT NULL DEFAULT '',
    base_commit   TEXT    NOT NULL DEFAULT '',
    mode          TEXT    NOT NULL DEFAULT '',
    window        TEXT    NOT NULL DEFAULT '',
    criteria      TEXT    NOT NULL DEFAULT '[]', -- JSON list
    state         TEXT    NOT NULL,
    reason        TEXT    NOT NULL DEFAULT '',
    archive       TEXT    NOT NULL DEFAULT '',   -- uncommitted work saved at cleanup
    last_event_id INTEGER NOT NULL DEFAULT 0,    -- the newest of its hook events applied
    last_event_us INTEGER NOT NULL DEFAULT 0,
    started_us    INTEGER NOT NULL,
    updated_us    INTEGER NOT NULL,
    ended_us      INTEGER NOT NULL DEFAULT 0,    -- reached a final state
    cleaned_us    INTEGER NOT NULL DEFAULT 0     -- window closed, worktree removed
);
CREATE INDEX agents_active ON agents (cleaned_us, started_us);

CREATE TABLE agent_states (
    id      INTEGER PRIMARY KEY,
    task_id TEXT    NOT NULL,
    state   TEXT    NOT NULL,
    at_us   INTEGER NOT NULL,
    reason  TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX agent_states_task ON agent_states (task_id, id);
