package dashboard

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/usage"
)

// The dashboard reads everything through these interfaces; a nil one
// leaves its page showing what is missing instead of failing.

// EventFilter selects events for the live view; zero fields match all.
type EventFilter struct {
	Session  string // prefix of the session id
	Event    string
	Tool     string
	Decision string
	AfterID  int64
	// Limit keeps the newest Limit matches (0: no limit).
	Limit int
}

// Events lists recorded hook events, oldest first.
type Events interface {
	Events(ctx context.Context, f EventFilter) ([]store.Event, error)
}

// SessionInfo is one session with recent activity.
type SessionInfo struct {
	ID      string
	Cwd     string
	Started time.Time
	Updated time.Time
	// LastEvent is the newest event's name and State what it says
	// (working, waiting, idle, ended).
	LastEvent string
	State     string
	Events    int
	Agents    []AgentInfo
}

// AgentInfo is one subagent of a session.
type AgentInfo struct {
	ID      string
	State   string // running or done
	Updated time.Time
}

// Sessions lists sessions with an event since a time, newest first.
type Sessions interface {
	Sessions(ctx context.Context, since time.Time) ([]SessionInfo, error)
}

// Point is one sample of a chart series.
type Point struct {
	T time.Time `json:"t"`
	V float64   `json:"v"`
}

// Band is a shaded span of a chart (a weekend).
type Band struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// WindowChart is one quota window across its whole span: the allowance and
// safe allowance pacing grants at each moment, the utilisation observed,
// and the figures in force now.
type WindowChart struct {
	Name  string    `json:"name"` // "5-hour" or "7-day"
	Start time.Time `json:"start"`
	Reset time.Time `json:"reset"`
	// Util, Target and Safe are now's utilisation, allowance and safe
	// allowance in percent (pace.Decide's figures).
	Util          float64 `json:"util"`
	Target        float64 `json:"target"`
	Safe          float64 `json:"safe"`
	Constrained   bool    `json:"constrained"`
	Allowance     []Point `json:"allowance"`
	SafeAllowance []Point `json:"safe_allowance"`
	Usage         []Point `json:"usage"`
	Weekends      []Band  `json:"weekends,omitempty"`
}

// PacingView is the pacing state for the overview and /ui/pacing.json.
type PacingView struct {
	Now time.Time `json:"now"`
	// Note says why there is no decision (no figures known).
	Note      string `json:"note,omitempty"`
	Source    string `json:"source"`
	Estimated bool   `json:"estimated,omitempty"`
	// DelaySeconds is the delay each tool call gets now (after fair
	// sharing); Throttling is DelaySeconds > 0.
	DelaySeconds   int           `json:"delay_seconds"`
	AlgorithmDelay int           `json:"algorithm_delay"`
	Sessions       int           `json:"sessions"`
	Strategy       string        `json:"strategy,omitempty"`
	Window         string        `json:"constrained_window,omitempty"`
	Throttling     bool          `json:"throttling"`
	NextReset      *time.Time    `json:"next_reset,omitempty"`
	Windows        []WindowChart `json:"windows"`
}

// Pacing computes the pacing view at now.
type Pacing interface {
	Pacing(ctx context.Context, now time.Time) (*PacingView, error)
}

// RuleStat counts one rule's decisions.
type RuleStat struct {
	Rule       string
	Mode       string // the mode in force (config), or the recorded one
	Deny       int
	Ask        int
	Warn       int
	Audit      int
	Total      int
	Overridden int
	Last       time.Time
}

// Override is a block the user overrode soon after: the blocked call ran
// anyway (an ask approved, or the same tool on the same file in the same
// session within the window). Likely a wrong block.
type Override struct {
	Block    store.Event
	Followed store.Event
}

// ExplainHit is one rule that fired in an explanation.
type ExplainHit struct {
	ID     string `json:"id"`
	Mode   string `json:"mode"`
	Reason string `json:"reason"`
}

// Explanation is `warden policy explain` for a recorded event.
type Explanation struct {
	Event    store.Event
	Decision string
	Hits     []ExplainHit
	// Facts is the parsed facts as indented JSON; empty without a
	// captured input.
	Facts string
	// Command is the CLI that prints the same explanation.
	Command string
	Note    string
}

// Decisions answers the decisions page.
type Decisions interface {
	RuleStats(ctx context.Context, since time.Time) ([]RuleStat, error)
	Overrides(ctx context.Context, since time.Time, within time.Duration) ([]Override, error)
	Explain(ctx context.Context, eventID int64) (*Explanation, error)
}

// Judgement is one LLM judge call.
type Judgement struct {
	ID        int64
	Time      time.Time
	SessionID string
	Judge     string
	Provider  string
	Model     string
	Verdict   string
	Decision  string
	Reason    string
	Error     string
	TokensIn  int64
	TokensOut int64
	CostUSD   float64
	LatencyMS int64
}

// Judgements lists judge calls since a time, newest first.
type Judgements interface {
	Judgements(ctx context.Context, since time.Time, limit int) ([]Judgement, error)
}

// UsageView is the usage reports (the same as `warden usage`).
type UsageView struct {
	Daily       []usage.PeriodRow
	DailyTotals usage.Totals
	Sessions    usage.SessionReport
	Blocks      usage.BlocksReport
	// TodayCost is today's (local date) cost in USD.
	TodayCost float64
	Computed  time.Time
}

// Usage computes the usage reports.
type Usage interface {
	Usage(ctx context.Context) (*UsageView, error)
}

// Settings is the effective configuration with where each value came from.
type Settings interface {
	Settings(ctx context.Context) ([]config.Setting, []config.Problem, error)
}

// Task is one task of the orchestrator's queue.
type Task struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Prompt   string    `json:"prompt,omitempty"`
	Project  string    `json:"project,omitempty"`
	State    string    `json:"state"` // queued, running, paused, done, failed (others shown as they are)
	Priority int       `json:"priority"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
	// Attach is the command that attaches a terminal to the task's agent.
	Attach  string  `json:"attach,omitempty"`
	CostUSD float64 `json:"cost_usd"`
	// The task's own criteria and operations, when it has any.
	Criteria []string `json:"criteria,omitempty"`
	Allow    []string `json:"allow,omitempty"`
	Deny     []string `json:"deny,omitempty"`
	// AgentState is the agent's own state (working, waiting…) and
	// AgentNote why it is there: what it waits for, a notification warden
	// does not know, or for an agent that failed the pane's last lines.
	AgentState string `json:"agent_state,omitempty"`
	AgentNote  string `json:"agent_note,omitempty"`
	// Error is why a failed task failed, with the next step.
	Error string `json:"error,omitempty"`
}

// Asking reports whether the task's agent waits on a tool call warden's
// policy asked a person about (the note the agent's runner gives it then),
// which the board and the task page offer to approve or deny.
func (t Task) Asking() bool {
	return t.AgentState == "waiting" && strings.HasPrefix(t.AgentNote, "asks a person: ")
}

// TaskAnswers is the optional part of Tasks that answers a waiting
// agent's pending call (apitasks: POST /api/tasks/{id}/approve|deny); it
// returns the call answered.
type TaskAnswers interface {
	Answer(ctx context.Context, id string, approve, always bool, reason string) (string, error)
}

// TaskReview is the optional part of Tasks that replies to a task's
// agent and merges its branch (apitasks: POST /api/tasks/{id}/reply and
// /merge); each returns one line saying what happened.
type TaskReview interface {
	Reply(ctx context.Context, id, text string) (string, error)
	Merge(ctx context.Context, id string, pr bool) (string, error)
}

// Replyable reports whether the task's agent can take a reply: typed
// while it runs, a follow-up run once it is done or failed.
func (t Task) Replyable() bool {
	switch t.State {
	case "running", "paused", "done", "failed":
		return !t.Asking()
	}
	return false
}

// Mergeable reports whether the task's branch can be merged from the
// page: it is done and not merged yet.
func (t Task) Mergeable() bool { return t.State == "done" && t.AgentState != "merged" }

// TaskStep is one state change in a task's story.
type TaskStep struct {
	At    time.Time `json:"at"`
	State string    `json:"state"`
	Note  string    `json:"note,omitempty"`
}

// TaskStory is a task's history: state changes, diff stat and cost.
type TaskStory struct {
	Task     Task       `json:"task"`
	Steps    []TaskStep `json:"steps"`
	DiffStat string     `json:"diff_stat,omitempty"`
}

// NewTask is what the add form sends.
type NewTask struct {
	Prompt   string `json:"prompt"`
	Project  string `json:"project,omitempty"`
	Priority int    `json:"priority,omitempty"`
	// Agent is the agent kind ("" = the daemon's agent.runner).
	Agent string `json:"agent,omitempty"`
	// Criteria, Allow and Deny are the task's own completion criteria and
	// operations (internal/task/rules.go).
	Criteria []string `json:"criteria,omitempty"`
	Allow    []string `json:"allow,omitempty"`
	Deny     []string `json:"deny,omitempty"`
}

// Tasks is the orchestrator's task store (from `warden serve`).
type Tasks interface {
	List(ctx context.Context) ([]Task, error)
	Add(ctx context.Context, t NewTask) (Task, error)
	Cancel(ctx context.Context, id string) error
	Story(ctx context.Context, id string) (*TaskStory, error)
}

// TokenCheck reports whether an API token is valid.
type TokenCheck func(ctx context.Context, token string) (bool, error)

// Sources are the dashboard's data; nil fields leave their page empty with
// a note.
type Sources struct {
	Events     Events
	Sessions   Sessions
	Pacing     Pacing
	Decisions  Decisions
	Judgements Judgements
	Usage      Usage
	Settings   Settings
	Tasks      Tasks
}

// rawJSON pretty-prints captured input for the facts panel.
func rawJSON(b json.RawMessage) string {
	if len(b) == 0 {
		return ""
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	out, _ := json.MarshalIndent(v, "", "  ")
	return string(out)
}
