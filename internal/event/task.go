package event

// TaskIDEnv is the environment variable warden sets for the agents it
// runs (internal/agent); a hook that sees it tags its event with the task,
// and the agent's state is read from those events.
const TaskIDEnv = "WARDEN_TASK_ID"

// Detail is the one field of an input that an agent's state depends on,
// kept in the event's record: what a Notification is about (idle_prompt,
// permission_prompt), how a session started or ended, why a stop failed.
func (in *Input) Detail(ev Name) string {
	switch ev {
	case Notification:
		return in.NotificationType
	case SessionStart:
		return in.Source
	case SessionEnd:
		return in.Reason
	case StopFailure:
		return in.Error
	}
	return ""
}
