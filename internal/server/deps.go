package server

import (
	"context"
	"time"

	"github.com/warden-dev/warden/internal/orchestrator"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/task"
)

// The server is built from explicit dependencies, each an interface of
// what it uses, so tests and other features (agents, dashboard) plug in
// without globals.

// Scheduler is what the API asks of the scheduler.
type Scheduler interface {
	Notify()
	Cancel(ctx context.Context, id, reason string) (*task.Task, error)
	Status() orchestrator.SchedStatus
}

// TokenStore keeps the API's bearer tokens (hashed).
type TokenStore interface {
	TokenByHash(ctx context.Context, hash string) (*store.APIToken, error)
	TouchToken(ctx context.Context, id string, now time.Time) error
}

// DeliveryStore remembers webhook deliveries so replays make nothing twice.
type DeliveryStore interface {
	ClaimDelivery(ctx context.Context, source, id string, now time.Time) (first bool, err error)
	SetDeliveryTask(ctx context.Context, source, id, taskID string) error
	// DeliveryTask: was id recorded, and which task did it make.
	DeliveryTask(ctx context.Context, source, id string) (taskID string, seen bool, err error)
	// PruneDeliveries forgets what was recorded before before.
	PruneDeliveries(ctx context.Context, before time.Time) (int64, error)
}

// EventStore is the read side of the event record: this machine's store,
// or in a pool the shared one (the daemon chooses; Options.EventSource
// names it).
type EventStore interface {
	EventsPage(ctx context.Context, after int64, session string, since time.Time, limit int) ([]store.Event, error)
	SessionsPage(ctx context.Context, limit int) ([]store.Session, error)
	Check(ctx context.Context) error
}

// PaceReader returns the pacing decision in force (pace.Current on the
// store); nil record and no error when pacing has nothing to say.
type PaceReader func(ctx context.Context, now time.Time) (*pace.Record, error)

// UsageReader builds a usage report ("daily", "session", "blocks") as the
// JSON `warden usage REPORT --json` prints.
type UsageReader func(ctx context.Context, report string) (any, error)

// AgentInfo is one agent as /api/agents and /internal/agent-status show it.
type AgentInfo struct {
	TaskID  string    `json:"task_id"`
	Kind    string    `json:"kind"`
	State   string    `json:"state"`
	Ref     string    `json:"ref,omitempty"`
	Project string    `json:"project,omitempty"`
	Since   time.Time `json:"since"`
}

// SpawnRequest is the body of POST /internal/spawn-agent.
type SpawnRequest struct {
	TaskID string `json:"task_id"`
	Agent  string `json:"agent,omitempty"`
}

// AgentControl starts, stops and reports agents; the agents feature (tmux
// and worktrees) implements it. Without one, /api/agents lists the active
// tasks' agents from the queue and /internal/* answer 501.
type AgentControl interface {
	Spawn(ctx context.Context, req SpawnRequest) (AgentInfo, error)
	Kill(ctx context.Context, taskID string) error
	Status(ctx context.Context, taskID string) (AgentInfo, error)
	List(ctx context.Context) ([]AgentInfo, error)
	// Health says whether agents can run (tmux reachable); nil when fine.
	Health(ctx context.Context) error
}

// Webhooks configure the /webhook routes; an empty secret switches the
// route off (404), so nothing is accepted unauthenticated.
type Webhooks struct {
	// GitHubSecret verifies X-Hub-Signature-256; GitHubProjects maps a
	// repository full name (owner/repo) to the project directory its
	// tasks run in; GitHubLabel is the label that makes an issue a task
	// (default "warden").
	GitHubSecret   string
	GitHubProjects map[string]string
	GitHubLabel    string
	// GitHubTrusted are the author_association values whose "/warden
	// run" comments queue work (webhook.github_trusted; nil: OWNER,
	// MEMBER, COLLABORATOR).
	GitHubTrusted []string
	// Alertmanager: firing alerts become tasks in AlertProject with the
	// prompt AlertTemplate (text/template over the alert). The route takes
	// an API bearer token (Alertmanager's http_config authorization).
	AlertProject  string
	AlertTemplate string
	// Telegram: TelegramSecret is checked against
	// X-Telegram-Bot-Api-Secret-Token; TelegramProject is where `/task add`
	// tasks run; TelegramChats lists the chat ids allowed (empty: none).
	TelegramSecret  string
	TelegramProject string
	TelegramChats   []int64
}
