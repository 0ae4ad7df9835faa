package agent

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
)

// Store is what the manager needs from warden's store (store/sqlite).
type Store interface {
	InsertAgent(ctx context.Context, a *store.Agent) error
	UpdateAgent(ctx context.Context, a *store.Agent, next *store.AgentState) error
	Agent(ctx context.Context, task string) (*store.Agent, error)
	Agents(ctx context.Context, all bool) ([]*store.Agent, error)
	AgentStates(ctx context.Context, task string) ([]store.AgentState, error)
	Events(ctx context.Context, f store.Filter) ([]store.Event, error)
	// Setting and SetSetting carry a task's "always" approvals to its
	// agent's hooks (always.go).
	Setting(ctx context.Context, key string) (string, bool, error)
	SetSetting(ctx context.Context, key, value string) error
}

// Config is how agents are run; zero fields take the defaults.
type Config struct {
	Worktrees string // default paths.Worktrees()
	Archives  string // default paths.Archives()
	Logs      string // default paths.AgentLogs()
	Scripts   string // launch scripts; default <home>/run/agents
	Tmux      *Tmux  // default: the user's tmux server, session "warden"

	Mode           string   // ModeInteractive (default), ModeHeadless, ModeCommand
	Claude         string   // Claude Code executable; "" = claude from PATH
	PermissionMode string   // --permission-mode for Claude Code; "" = its default
	Command        []string // the ModeCommand template
	// Env is the agents' environment; nil = this process's.
	Env []string
	// MemoryMax limits each agent's memory where MemoryLimit() allows.
	MemoryMax string
	// IdleTimeout ends an agent with no hook event for that long
	// (agent_idle_timeout); default 30 minutes.
	IdleTimeout time.Duration
	// ExitGrace is how long a dead agent process may still have hook
	// events on their way into the store (its last Stop is recorded after
	// Claude Code got the answer); default 3 s.
	ExitGrace time.Duration
	// TrustFile is Claude Code's global config; "" = ClaudeGlobalConfig.
	TrustFile string
	// CLIs are how the other CLIs run, by mode (ModeCodex…).
	CLIs map[string]CLIConfig
	// EnsureHooks makes sure the CLI of mode calls warden's hooks in the
	// agents' home (installing them when missing) before an agent of it
	// starts; note says what it changed. nil: nothing is checked.
	EnsureHooks func(mode string) (note string, err error)
}

func (c *Config) defaults() {
	if c.Worktrees == "" {
		c.Worktrees = paths.Worktrees()
	}
	if c.Archives == "" {
		c.Archives = paths.Archives()
	}
	if c.Logs == "" {
		c.Logs = paths.AgentLogs()
	}
	if c.Scripts == "" {
		c.Scripts = filepath.Join(paths.Home(), "run", "agents")
	}
	if c.Tmux == nil {
		c.Tmux = &Tmux{}
	}
	if c.Mode == "" {
		c.Mode = ModeInteractive
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 30 * time.Minute
	}
	if c.ExitGrace <= 0 {
		c.ExitGrace = 3 * time.Second
	}
	if c.TrustFile == "" {
		c.TrustFile = ClaudeGlobalConfig(os.Getenv)
	}
}

// Manager starts agents, follows their state from their hook events and
// cleans up after them. It keeps nothing that matters in memory: a new
// Manager over the same store (a restarted daemon) carries on with the
// agents whose windows still run and ends the others in error.
type Manager struct {
	cfg Config
	st  Store

	mu       sync.Mutex           // one Poll, Spawn or Kill at a time
	cfgMu    sync.RWMutex         // Reconfigure against Config (reconfigure.go)
	deadSeen map[string]time.Time // when a dead pane was first seen, per task

	allowMu sync.Mutex // one change of a task's allowances at a time
}

// NewManager returns a manager over st.
func NewManager(cfg Config, st Store) *Manager {
	cfg.defaults()
	return &Manager{cfg: cfg, st: st, deadSeen: map[string]time.Time{}}
}

// Config returns the manager's configuration with defaults filled in.
func (m *Manager) Config() Config {
	m.cfgMu.RLock()
	defer m.cfgMu.RUnlock()
	return m.cfg
}

// Change is one state change Poll or Kill made; From == To is a note
// recorded with the state kept (an unknown notification).
type Change struct {
	Task   string `json:"task"`
	From   State  `json:"from"`
	To     State  `json:"to"`
	Reason string `json:"reason,omitempty"`
}

// Status is an agent with its state history.
type Status struct {
	*store.Agent
	History []store.AgentState `json:"history"`
}

// Status returns the agent of task and its history; nil when it has none.
func (m *Manager) Status(ctx context.Context, task string) (*Status, error) {
	a, err := m.st.Agent(ctx, task)
	if err != nil || a == nil {
		return nil, err
	}
	h, err := m.st.AgentStates(ctx, task)
	if err != nil {
		return nil, err
	}
	return &Status{Agent: a, History: h}, nil
}

// Active counts the agents holding a slot: not in a final state yet.
func (m *Manager) Active(ctx context.Context) (int, error) {
	as, err := m.st.Agents(ctx, false)
	n := 0
	for _, a := range as {
		if !State(a.State).Final() {
			n++
		}
	}
	return n, err
}
