-- 0070: what a person needs to see about a task's agent without opening
-- its pane. tasks.agent_note is the reason of the agent's latest state
-- (why it waits, a notification warden does not know, why it failed);
-- agents.pending is the tool call waiting for a person's answer (JSON,
-- '' when none); agents.tail is the pane's last lines when the agent
-- ended in error; agents.permission_mode is the Claude Code permission
-- mode it ran with (agent.permission_mode, '' = Claude Code's default).
ALTER TABLE tasks ADD COLUMN agent_note TEXT NOT NULL DEFAULT '';
ALTER TABLE agents ADD COLUMN pending TEXT NOT NULL DEFAULT '';
ALTER TABLE agents ADD COLUMN tail TEXT NOT NULL DEFAULT '';
ALTER TABLE agents ADD COLUMN permission_mode TEXT NOT NULL DEFAULT '';
