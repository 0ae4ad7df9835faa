package store

import "time"

// Agent is one task's agent as recorded (internal/agent owns the logic).
type Agent struct {
	TaskID      string    `json:"task_id"`
	Project     string    `json:"project"`
	Worktree    string    `json:"worktree"`
	Branch      string    `json:"branch"`
	Base        string    `json:"base,omitempty"`
	BaseCommit  string    `json:"base_commit,omitempty"`
	Mode        string    `json:"mode,omitempty"`
	Window      string    `json:"window,omitempty"`
	Criteria    []string  `json:"criteria,omitempty"`
	State       string    `json:"state"`
	Reason      string    `json:"reason,omitempty"`
	Archive     string    `json:"archive,omitempty"`
	LastEventID int64     `json:"last_event_id,omitempty"`
	LastEvent   time.Time `json:"last_event,omitzero"`
	Started     time.Time `json:"started"`
	Updated     time.Time `json:"updated"`
	Ended       time.Time `json:"ended,omitzero"`
	Cleaned     time.Time `json:"cleaned,omitzero"`
	// MemoryCgroup is the cgroup directory of the agent's memory limit
	// when warden made one itself (internal/agent/cgroup.go).
	MemoryCgroup string `json:"memory_cgroup,omitempty"`
	// Pending is the tool call the agent waits on a person for (JSON of
	// agent.PendingCall), "" when none.
	Pending string `json:"pending,omitempty"`
	// Tail is the pane's last lines when the agent ended in error: what
	// it said before it stopped.
	Tail string `json:"tail,omitempty"`
	// PermissionMode is Claude Code's --permission-mode the agent ran
	// with ("" = its default).
	PermissionMode string `json:"permission_mode,omitempty"`
}

// AgentState is one state an agent entered, with when and why.
type AgentState struct {
	State  string    `json:"state"`
	At     time.Time `json:"at"`
	Reason string    `json:"reason,omitempty"`
}
