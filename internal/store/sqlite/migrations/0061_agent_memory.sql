-- 0061: the cgroup warden made for an agent's memory limit (agent.memory_max
-- applied directly through the kernel's cgroup files; '' when the agent
-- has none or runs in a systemd scope): read for OOM kills when the agent
-- ends, removed at cleanup.
ALTER TABLE agents ADD COLUMN memory_cgroup TEXT NOT NULL DEFAULT '';
