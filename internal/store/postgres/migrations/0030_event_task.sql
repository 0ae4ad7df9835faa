-- 0030: events carry their agent's task and one detail of the event (twin
-- of the SQLite migration).
ALTER TABLE events ADD COLUMN task_id TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN detail  TEXT NOT NULL DEFAULT '';
CREATE INDEX events_task ON events (task_id, id) WHERE task_id != '';
