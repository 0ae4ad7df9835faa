package hook

import (
	"os"

	"github.com/warden-dev/warden/internal/event"
)

// taskID is the task of the agent this hook runs for: warden's agents
// carry WARDEN_TASK_ID in their environment (the keeper swaps the
// caller's environment in before running the hook).
func (r *run) taskID() string { return os.Getenv(event.TaskIDEnv) }
