-- 0030: events carry the task of the agent that caused them (from
-- WARDEN_TASK_ID in the hook's environment) and one detail of the event an
-- agent's state depends on (Notification's notification_type, SessionStart's
-- source, SessionEnd's reason, StopFailure's error).
ALTER TABLE events ADD COLUMN task_id TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN detail  TEXT NOT NULL DEFAULT '';
CREATE INDEX events_task ON events (task_id, id) WHERE task_id != '';
