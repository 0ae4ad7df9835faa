package hook

import "github.com/warden-dev/warden/internal/event"

// taskID is the task of the agent this hook runs for: warden's agents
// carry WARDEN_TASK_ID in their environment, which reaches the hook as the
// caller's (in the keeper too: the request carries it, not the process).
func (r *run) taskID() string { return r.env.Getenv(event.TaskIDEnv) }
