-- 0060: a task's own completion criteria and allowed/denied operations
-- (JSON arrays of strings; internal/task/rules.go), given when it is
-- created and handed to its agent by the tmux runner.
ALTER TABLE tasks ADD COLUMN criteria  TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tasks ADD COLUMN allow_ops TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tasks ADD COLUMN deny_ops  TEXT NOT NULL DEFAULT '[]';
