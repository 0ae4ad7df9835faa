package task

import "time"

// EnvTaskID is set in an agent's environment to the id of its task, so
// the events its warden hooks record, and the pause the scheduler asks
// for, are tied to the task.
const EnvTaskID = "WARDEN_TASK_ID"

// HoldSetting is the store setting through which the scheduler tells
// running agents to pause: the JSON of a Hold while quota is critical, ""
// otherwise. The PostToolUse handler of an agent's hooks (EnvTaskID set)
// reads it and waits.
const HoldSetting = "orchestrator_hold"

// Hold is what HoldSetting carries.
type Hold struct {
	Since  time.Time `json:"since"`
	Until  time.Time `json:"until"`
	Reason string    `json:"reason"`
}
