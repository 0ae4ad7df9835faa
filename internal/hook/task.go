package hook

import "github.com/warden-dev/warden/internal/event"

// taskID is the task of the agent this hook runs for: warden's agents
// carry WARDEN_TASK_ID in their environment, which is the caller's, not
// this process's (the hook server answers many callers).
func (r *run) taskID() string { return r.env.Getenv(event.TaskIDEnv) }
