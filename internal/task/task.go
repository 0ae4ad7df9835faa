// Package task is the daemon's task model and the contract of the store
// that keeps the queue: what a task is, the states it moves through, the
// record of every move and every scheduling decision. It has no
// dependencies beyond the standard library, so the store implementation
// (internal/store/sqlite) and the hook runtime can link it for nothing;
// the scheduler that drives tasks is internal/orchestrator.
package task

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Status is where a task is in its life.
type Status string

// The statuses. A task is created queued; the scheduler claims it (a slot
// and pacing allowed it), starts its agent (running), may pause it while
// quota is critical, and it ends done, failed or cancelled.
const (
	Queued    Status = "queued"
	Claimed   Status = "claimed"
	Running   Status = "running"
	Paused    Status = "paused"
	Done      Status = "done"
	Failed    Status = "failed"
	Cancelled Status = "cancelled"
)

// Statuses lists every status in life order (for validation and docs).
var Statuses = []Status{Queued, Claimed, Running, Paused, Done, Failed, Cancelled}

// Valid reports whether s is one of Statuses.
func (s Status) Valid() bool {
	for _, v := range Statuses {
		if s == v {
			return true
		}
	}
	return false
}

// Final reports whether nothing more happens to a task in s.
func (s Status) Final() bool { return s == Done || s == Failed || s == Cancelled }

// Active reports whether a task in s holds a slot (an agent may be alive).
func (s Status) Active() bool { return s == Claimed || s == Running || s == Paused }

// Task is one unit of work the daemon runs on the user's behalf.
type Task struct {
	ID       string `json:"id"`
	Project  string `json:"project"`
	Prompt   string `json:"prompt"`
	Priority int    `json:"priority"`
	Status   Status `json:"status"`
	// Attempts counts claims: a task requeued after a daemon crash is
	// claimed again, up to the scheduler's limit.
	Attempts int    `json:"attempts"`
	Result   string `json:"result,omitempty"`
	Error    string `json:"error,omitempty"`
	// Source says who created it: api, cli, github, alertmanager, telegram.
	Source         string `json:"source,omitempty"`
	IdempotencyKey string `json:"idempotency_key,omitempty"`
	// System pins the task to one daemon (machine/account) when set.
	System string `json:"system,omitempty"`
	// Agent is the kind of agent that runs it ("" = the daemon's default
	// runner); AgentState is that agent's own state (spawning, working,
	// waiting, …, set by the runner) and AgentRef where it runs (a pid, a
	// tmux window).
	Agent      string `json:"agent,omitempty"`
	AgentState string `json:"agent_state,omitempty"`
	AgentRef   string `json:"agent_ref,omitempty"`
	// AgentNote is why the agent is in its state, as its runner says:
	// what it waits for, a notification warden does not know, why it
	// failed and what to do next.
	AgentNote string `json:"agent_note,omitempty"`
	// Criteria are what the task's agent must show when it stops, on top
	// of agent.criteria (committed, clean, run:CMD, or prose for the
	// completion judge); Allow and Deny are the operations its agent may
	// run beyond, or not run within, what agents may (see rules.go).
	Criteria []string `json:"criteria,omitempty"`
	Allow    []string `json:"allow,omitempty"`
	Deny     []string `json:"deny,omitempty"`
	// Owner is the daemon instance that claimed it.
	Owner      string     `json:"owner,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
	UpdatedAt  time.Time  `json:"updated_at"`
	ClaimedAt  *time.Time `json:"claimed_at,omitempty"`
	StartedAt  *time.Time `json:"started_at,omitempty"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`
}

// Transition is one recorded status change.
type Transition struct {
	Time   time.Time `json:"time"`
	From   Status    `json:"from"`
	To     Status    `json:"to"`
	Reason string    `json:"reason"`
}

// Decision is one recorded scheduling decision: what the scheduler did or
// held back from doing, and why. TaskID is empty for decisions about the
// whole queue (hold for quota, resume at reset, watchdog restart).
type Decision struct {
	ID     int64     `json:"id"`
	Time   time.Time `json:"time"`
	TaskID string    `json:"task_id,omitempty"`
	Action string    `json:"action"`
	Reason string    `json:"reason"`
}

// Decision actions.
const (
	ActStart     = "start"
	ActWait      = "wait"
	ActHold      = "hold"
	ActPause     = "pause"
	ActResume    = "resume"
	ActFinish    = "finish"
	ActFail      = "fail"
	ActCancel    = "cancel"
	ActRequeue   = "requeue"
	ActReconcile = "reconcile"
	ActWatchdog  = "watchdog"
	ActReply     = "reply" // a person's follow-up to the task's agent
	ActMerge     = "merge" // the task's branch merged, or its pull request opened
)

// Limits on what a task may carry; the API refuses more.
const (
	MaxPromptBytes  = 64 << 10
	MaxProjectBytes = 4096
	MaxKeyBytes     = 200
	MaxPriority     = 1000
)

// NewID makes a task id: "t" + 10 base32 characters of the creation time in
// milliseconds + 6 random ones, so ids sort by creation and never collide.
func NewID(now time.Time) string {
	var b [10]byte
	binary.BigEndian.PutUint64(b[:8], uint64(now.UnixMilli())<<16)
	_, _ = rand.Read(b[6:])
	s := strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
	return "t" + s
}

// ValidID reports whether id looks like one NewID makes (or a test's):
// letters, digits, - and _, at most 64 bytes.
func ValidID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// Check validates the fields a creator sets; it names the field and the fix.
func (t *Task) Check() error {
	switch {
	case strings.TrimSpace(t.Prompt) == "":
		return fmt.Errorf("prompt is empty; say what the agent should do")
	case len(t.Prompt) > MaxPromptBytes:
		return fmt.Errorf("prompt is %d bytes; the limit is %d", len(t.Prompt), MaxPromptBytes)
	case !utf8.ValidString(t.Prompt):
		return fmt.Errorf("prompt is not valid UTF-8")
	case t.Project == "":
		return fmt.Errorf("project is empty; give the absolute path of the project directory")
	case len(t.Project) > MaxProjectBytes || !strings.HasPrefix(t.Project, "/"):
		return fmt.Errorf("project %q is not an absolute path; give the project directory like /home/me/src/app", t.Project)
	case t.Priority < -MaxPriority || t.Priority > MaxPriority:
		return fmt.Errorf("priority %d is out of range; use -%d..%d (higher runs first)", t.Priority, MaxPriority, MaxPriority)
	case len(t.IdempotencyKey) > MaxKeyBytes:
		return fmt.Errorf("idempotency key is %d bytes; the limit is %d", len(t.IdempotencyKey), MaxKeyBytes)
	}
	if err := CheckAgent(t.Agent); err != nil {
		return err
	}
	return t.checkRules()
}
