package config

// keys is the registry: one row per configuration key. To add a key, add a
// field to Config and a row here (name, kind, default, range or allowed
// values, unit, project policy, doc, field). Validation, defaults, project
// tightening, `warden config show` and `warden config check` all follow
// from the row; TestRegistry checks that the row is consistent.
//
// Keep it a plain literal: it is built by the compiler, so no hook process
// pays for it at start-up.
var keys = []Key{
	{
		Name: "retention_days", Kind: Int, Default: 60, Min: 1, Max: 3650, Unit: "days",
		Policy: UserOnly,
		Doc:    "Days of events kept in the store; a daily cleanup deletes older ones.",
		Field:  func(c *Config) any { return &c.RetentionDays },
	},
	{
		Name: "capture", Kind: Bool, Default: false,
		Policy: UserOnly,
		Doc:    "Store the raw input of every hook (secrets redacted) so events can be replayed.",
		Field:  func(c *Config) any { return &c.Capture },
	},
	{
		Name: "disabled_handlers", Kind: Strings, Default: []string{},
		Policy: UserOnly,
		Doc:    "Names of hook handlers switched off (a project may not switch a handler off).",
		Field:  func(c *Config) any { return &c.DisabledHandlers },
	},
	{
		Name: "context.threshold", Kind: Int, Default: 70, Min: 1, Max: 100, Unit: "percent",
		Policy: Free,
		Doc:    "Context-window use, in percent, at which warden starts carrying context over.",
		Field:  func(c *Config) any { return &c.Context.Threshold },
	},
	{
		Name: "hook.read_timeout_ms", Kind: Int, Default: 2000, Min: 100, Max: 10000, Unit: "milliseconds",
		Policy: UserOnly,
		Doc:    "Deadline for reading a hook's JSON from stdin; past it the hook fails open.",
		Field:  func(c *Config) any { return &c.Hook.ReadTimeoutMS },
	},
	{
		Name: "briefing.last_session", Kind: Bool, Default: true,
		Policy: Free,
		Doc:    "SessionStart briefing: say when the last session ended, on which branch, with how many uncommitted changes.",
		Field:  func(c *Config) any { return &c.Briefing.LastSession },
	},
	{
		Name: "briefing.learn", Kind: Bool, Default: true,
		Policy: Free,
		Doc:    "SessionStart briefing: remind to run /learn after a session ended (learn-pending).",
		Field:  func(c *Config) any { return &c.Briefing.Learn },
	},
	{
		Name: "briefing.handoff", Kind: Bool, Default: true,
		Policy: Free,
		Doc:    "SessionStart briefing: inject the pending handoff written at the context threshold (once).",
		Field:  func(c *Config) any { return &c.Briefing.Handoff },
	},
	{
		Name: "briefing.pre_compact", Kind: Bool, Default: true,
		Policy: Free,
		Doc:    "After a compaction, tell Claude the branch, uncommitted count and recent files captured before it.",
		Field:  func(c *Config) any { return &c.Briefing.PreCompact },
	},
	{
		Name: "reminders.subagent_every", Kind: Int, Default: 5, Min: 0, Max: 1000, Unit: "tool calls",
		Policy: Free,
		Doc:    "Remind Claude to delegate to subagents every this many tool calls in the main context (0: never).",
		Field:  func(c *Config) any { return &c.Reminders.SubagentEvery },
	},
	{
		Name: "reminders.subagent_text", Kind: String,
		Default: "warden reminder: you have made several tool calls in the main context. Delegate exploration, searches and self-contained tasks to subagents (the Agent tool) to keep this context small.",
		Policy:  Free,
		Doc:     "Text of the subagent reminder.",
		Field:   func(c *Config) any { return &c.Reminders.SubagentText },
	},
	{
		Name: "gates.breaker", Kind: Bool, Default: true,
		Policy: EnableOnly,
		Doc:    "Circuit breaker: after repeated tool failures, deny edits until the user resets it (rb-).",
		Field:  func(c *Config) any { return &c.Gates.Breaker },
	},
	{
		Name: "gates.breaker_threshold", Kind: Int, Default: 3, Min: 2, Max: 20, Unit: "failures",
		Policy: LowerOnly,
		Doc:    "Consecutive failures, or repeats of one failure in a turn, that trip the breaker.",
		Field:  func(c *Config) any { return &c.Gates.BreakerThreshold },
	},
	{
		Name: "gates.research", Kind: Bool, Default: false,
		Policy: EnableOnly,
		Doc:    "Research gate: after a task prompt, deny edits until each required kind of research was done.",
		Field:  func(c *Config) any { return &c.Gates.Research },
	},
	{
		Name: "gates.research_categories", Kind: Strings, Default: []string{"docs", "web", "github", "local"},
		Policy: UnionOnly,
		Doc:    "Research the gate requires (docs, web, github, local); categories whose tools are not set up are skipped.",
		Field:  func(c *Config) any { return &c.Gates.ResearchCategories },
	},
	{
		Name: "gates.docs_servers", Kind: Strings, Default: []string{"context7"},
		Policy: UnionOnly,
		Doc:    "MCP servers that count as documentation research (any server with docs in its name counts too).",
		Field:  func(c *Config) any { return &c.Gates.DocsServers },
	},
	{
		Name: "gates.startup_steps", Kind: Strings, Default: []string{},
		Policy: UnionOnly,
		Doc:    "Steps required before the first edit of a session: \"read:PATH\" (a Read of that file) or \"run:REGEX\" (a successful Bash command matching it).",
		Field:  func(c *Config) any { return &c.Gates.StartupSteps },
	},
	{
		Name: "gates.verify_before_stop", Kind: Bool, Default: false,
		Policy: EnableOnly,
		Doc:    "Block a Stop once when files were edited after the last successful test run.",
		Field:  func(c *Config) any { return &c.Gates.VerifyBeforeStop },
	},
	{
		Name: "gates.test_commands", Kind: Strings,
		Default: []string{`\bgo test\b`, `\b(npm|pnpm|yarn|bun) (run )?test\b`, `\bpytest\b`, `\bmake (test|check)\b`, `\bcargo (test|nextest)\b`, `\b(mvn|gradle|\./gradlew) test\b`, `\b(jest|vitest|rspec|phpunit|ctest|tox)\b`, `python3? -m (pytest|unittest)`},
		Policy:  UnionOnly,
		Doc:     "Regular expressions for Bash commands that run the tests (verify-before-stop).",
		Field:   func(c *Config) any { return &c.Gates.TestCommands },
	},
}

// Keys returns the registry (a copy), for documentation and tooling.
func Keys() []Key { return append([]Key(nil), keys...) }
