-- 0070: an agent's note, pending call and last pane lines (twin of the
-- SQLite migration).
ALTER TABLE tasks ADD COLUMN agent_note TEXT NOT NULL DEFAULT '';
ALTER TABLE agents ADD COLUMN pending TEXT NOT NULL DEFAULT '';
ALTER TABLE agents ADD COLUMN tail TEXT NOT NULL DEFAULT '';
ALTER TABLE agents ADD COLUMN permission_mode TEXT NOT NULL DEFAULT '';
