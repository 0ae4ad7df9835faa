// Package config loads warden's configuration: the user file
// ($WARDEN_HOME/config.toml) and the project file
// (<project>/.warden/config.toml), both TOML.
//
// Every key is a row of the registry in keys.go with a type, a default, a
// range or allowed values, a doc line and a project policy (see Policy: a
// project file may only tighten guards, never loosen them).
//
// Load never fails: it runs in every hook process, and a broken config must
// not break Claude Code. Whatever it cannot use (a file that does not parse,
// a value of the wrong type or out of range, an unknown key, a project value
// that would loosen a guard) is left out, the default or the user's value
// stands, and the reason comes back as a Problem with file and line.
package config

import "slices"

// Config is the effective configuration. Its fields are filled from the
// registry; add a field together with its row in keys.go.
type Config struct {
	// RetentionDays is how many days of events the store keeps.
	RetentionDays int
	// Capture stores raw hook inputs (secrets redacted) for replay.
	Capture bool
	// DisabledHandlers names hook handlers switched off.
	DisabledHandlers []string
	// Record is what an event row keeps of a tool call beyond its
	// decision, so `warden replay` can evaluate it again.
	Record struct {
		// ToolInputs keeps the tool name, input and cwd of PreToolUse and
		// PermissionRequest events (secrets redacted), up to ToolInputMaxKB.
		ToolInputs     bool
		ToolInputMaxKB int
	}
	Context struct {
		// Threshold is the context-window use, in percent, that triggers
		// carrying context over.
		Threshold int
	}
	Hook struct {
		// ReadTimeoutMS is the stdin read deadline of `warden hook`.
		ReadTimeoutMS int
		// Keeper lets hooks start the process that keeps the store open
		// (internal/store/keeper).
		Keeper bool
	}
	// Agent is how `warden serve` runs tasks' agents (internal/agent).
	Agent struct {
		Runner, Mode, Claude, PermissionMode, MemoryMax, TmuxSocket string
		Command, Criteria                                           []string
		IdleTimeout                                                 int // seconds
		// Codex, Gemini, Copilot: the executables of those agent kinds
		// ("" = from PATH); *Args: their extra arguments.
		Codex, Gemini, Copilot             string
		CodexArgs, GeminiArgs, CopilotArgs []string
	}
	// Briefing switches each piece of the SessionStart briefing.
	Briefing struct {
		LastSession, Learn, Handoff, PreCompact bool
	}
	// Reminders are periodic nudges added as additionalContext.
	Reminders struct {
		// SubagentEvery: every this many main-context tool calls (0: off).
		SubagentEvery int
		SubagentText  string
	}
	// Policy configures the guard engine (internal/policy).
	Policy struct {
		Disabled          []string
		Modes             []string
		Raise             []string
		Zones             []string
		ZonesRaise        []string
		ProtectedBranches []string
		MaxLinesWarn      int
		MaxLinesDeny      int
	}
	Gates struct {
		Breaker            bool
		BreakerThreshold   int
		Research           bool
		ResearchCategories []string
		DocsServers        []string
		StartupSteps       []string
		VerifyBeforeStop   bool
		TestCommands       []string
	}
	// Cleanup of orphaned processes (internal/cleanup).
	Cleanup struct {
		OnStart bool
	}
	// Pacing throttles tool calls against the subscription's 5-hour and
	// 7-day limits (internal/pace; reference/pacing.md).
	Pacing struct {
		Enabled          bool
		PreloadHours     float64
		SafetyBufferPct  float64
		BaseDelay        int
		MaxDelay         int
		ThresholdPercent float64
		WeeklyLimit      bool
		FiveHourLimit    bool
		// PollInterval (seconds) between polls of the OAuth usage endpoint.
		PollInterval int
		// ActiveWindow (minutes): sessions with an event this recent share
		// the account's budget.
		ActiveWindow int
		FairShare    bool
		Notify       bool
	}
	// LLM is the judges' provider layer (internal/judge, warden-helper judge).
	LLM struct {
		// Provider: auto, anthropic, claude-cli or none.
		Provider                           string
		ModelHaiku, ModelSonnet, ModelOpus string
		// TimeoutMS bounds one judge call; ReviewTimeoutMS the stage-2 review.
		TimeoutMS, ReviewTimeoutMS int
		FormatRetries              int
	}
	// Tempo is the Stop completion judge.
	Tempo struct {
		Enabled   bool
		MaxBlocks int
		Subagent  bool
		Tier      string
	}
	// Store chooses the store: URL is a PostgreSQL URL shared by several
	// workers; empty keeps the local SQLite file (see StoreURL).
	Store struct {
		URL string
		// UnshippedKeepDays bounds how long past retention_days rows the
		// shared store never took are kept (internal/store/ship).
		UnshippedKeepDays int
	}
	// OTel is the OpenTelemetry export of decisions (internal/otelexport).
	OTel struct {
		Endpoint string
		// Traces: hooks keep their handlers' timings and the export sends
		// a trace per hook (see TracesOn).
		Traces bool
	}
	// Serve configures the daemon, `warden serve` (internal/daemon).
	Serve struct {
		Addr, System             string
		MaxAgents, QueueSize     int
		MaxAttempts, TaskTimeout int
		// TaskFilesDays and TaskRowsDays: task retention (0 = keep).
		TaskFilesDays, TaskRowsDays int
		ClaudeCommand               string
		ClaudeArgs                  []string
		TLSCert, TLSKey             string
		Hosts                       []string
	}
	// Webhook configures the daemon's webhooks (internal/server).
	Webhook struct {
		GitHubSecret, GitHubLabel                 string
		GitHubRepos, GitHubTrusted                []string
		AlertmanagerProject, AlertmanagerTemplate string
		TelegramSecret, TelegramProject           string
		TelegramChats                             []string
	}
	// Notify is what `warden serve` sends out when a task's agent starts
	// waiting for a person (internal/notify).
	Notify struct {
		WebhookURLs                []string
		WebhookTimeoutMS, Retries  int
		TelegramToken, TelegramAPI string
		DashboardURL               string
	}
	// Validation switches the pre-tool judges.
	Validation struct {
		Intent           bool
		IntentReview     bool
		SourceExtensions []string
		CorePaths        []string
		ToolApprove      bool
		LowRiskTools     []string
		Lazy             bool
		ErrorAck         bool
		PlanDrift        bool
		StyleDrift       bool
		ClaudeMD         bool
	}
	// MCP configures the tools of `warden mcp` (internal/mcp).
	MCP struct {
		CheckCommands    []string
		CheckTimeoutMS   int
		ConfirmTurns     int
		ConfirmTimeoutMS int
	}
}

// Defaults returns a new Config holding every key's default.
func Defaults() *Config { return defaultsFrom(keys) }

// HandlerEnabled reports whether the hook handler name is not switched off
// by disabled_handlers.
func (c *Config) HandlerEnabled(name string) bool {
	return !slices.Contains(c.DisabledHandlers, name)
}

// Load reads the user file and the project file of projectDir ("" for no
// project). It always returns a usable config: a file that does not parse
// contributes nothing (defaults stand), an invalid value is replaced by the
// default (in the project file: by the user's value), and a project value
// that would loosen a guard is ignored. Each of these is returned as a
// Problem, user file first, in line order. Missing files are not problems.
func Load(userFile, projectDir string) (*Config, []Problem) {
	return loads.load(userFile, projectDir)
}

// Check returns every problem in both files: the same list Load returns.
// It is what `warden config check` prints.
func Check(userFile, projectDir string) []Problem {
	_, problems := Load(userFile, projectDir)
	return problems
}

// Setting is one key's effective value and where it came from, for
// `warden config show`.
type Setting struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
	// Source is "default", "user", "project", or for union-only lists
	// "user+project" / "default+project".
	Source string `json:"source"`
	// File and Line say where the value was set (empty for a default).
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// Effective returns every key's effective value, in registry order, and the
// problems Load would return.
func Effective(userFile, projectDir string) ([]Setting, []Problem) {
	r := resolve(keys, userFile, projectDir)
	return r.settings(keys), r.problems
}
