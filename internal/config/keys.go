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
		Name: "hook.keeper", Kind: Bool, Default: true,
		Policy: UserOnly,
		Doc:    "Let hooks start one background process (the keeper) that keeps the store open and runs the hooks and status line renders warden hands it, so each costs about what a bare process does instead of warden-core's start-up and SQLite's open and close; it exits after 30 idle minutes. false: no keeper is started (one already running is still asked until it leaves); WARDEN_KEEPER=off: none is started or asked.",
		Field:  func(c *Config) any { return &c.Hook.Keeper },
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
	{
		Name: "pacing.enabled", Kind: Bool, Default: true,
		Policy: UserOnly,
		Doc:    "Pacing: wait after each tool call when the 5-hour or 7-day subscription window is used faster than its allowance.",
		Field:  func(c *Config) any { return &c.Pacing.Enabled },
	},
	{
		Name: "pacing.preload_hours", Kind: Float, Default: 12.0, Min: 0, Max: 120, Unit: "weekday hours",
		Policy: UserOnly,
		Doc:    "Weekday hours at the start of the 7-day window whose allowance is granted up front (12 = 10 %).",
		Field:  func(c *Config) any { return &c.Pacing.PreloadHours },
	},
	{
		Name: "pacing.safety_buffer_pct", Kind: Float, Default: 95.0, Min: 1, Max: 100, Unit: "percent",
		Policy: UserOnly,
		Doc:    "Share of the allowance that counts as safe; pacing throttles above it.",
		Field:  func(c *Config) any { return &c.Pacing.SafetyBufferPct },
	},
	{
		Name: "pacing.base_delay", Kind: Int, Default: 5, Min: 0, Max: 300, Unit: "seconds",
		Policy: UserOnly,
		Doc:    "Smallest pacing delay; smaller computed delays are dropped.",
		Field:  func(c *Config) any { return &c.Pacing.BaseDelay },
	},
	{
		Name: "pacing.max_delay", Kind: Int, Default: 350, Min: 1, Max: 350, Unit: "seconds",
		Policy: UserOnly,
		Doc:    "Largest pacing delay after a tool call (at most the PostToolUse timeout minus 10 s).",
		Field:  func(c *Config) any { return &c.Pacing.MaxDelay },
	},
	{
		Name: "pacing.threshold_percent", Kind: Float, Default: 0.0, Min: 0, Max: 100, Unit: "points",
		Policy: UserOnly,
		Doc:    "Points utilisation may exceed the safe allowance before pacing throttles (0 = zero tolerance).",
		Field:  func(c *Config) any { return &c.Pacing.ThresholdPercent },
	},
	{
		Name: "pacing.weekly_limit", Kind: Bool, Default: true,
		Policy: UserOnly,
		Doc:    "Let the 7-day window throttle.",
		Field:  func(c *Config) any { return &c.Pacing.WeeklyLimit },
	},
	{
		Name: "pacing.five_hour_limit", Kind: Bool, Default: true,
		Policy: UserOnly,
		Doc:    "Let the 5-hour window throttle.",
		Field:  func(c *Config) any { return &c.Pacing.FiveHourLimit },
	},
	{
		Name: "pacing.poll_interval", Kind: Int, Default: 300, Min: 60, Max: 3600, Unit: "seconds",
		Policy: UserOnly,
		Doc:    "Poll the OAuth usage endpoint at most this often across all sessions, and only when the status line's figures are older.",
		Field:  func(c *Config) any { return &c.Pacing.PollInterval },
	},
	{
		Name: "pacing.active_window", Kind: Int, Default: 10, Min: 1, Max: 240, Unit: "minutes",
		Policy: UserOnly,
		Doc:    "Sessions with an event this recent count as active and share the account's pacing budget.",
		Field:  func(c *Config) any { return &c.Pacing.ActiveWindow },
	},
	{
		Name: "pacing.fair_share", Kind: Bool, Default: true,
		Policy: UserOnly,
		Doc:    "Scale the delay with the number of active sessions so the account, not each session, stays on pace.",
		Field:  func(c *Config) any { return &c.Pacing.FairShare },
	},
	{
		Name: "pacing.notify", Kind: Bool, Default: true,
		Policy: UserOnly,
		Doc:    "Tell the user (systemMessage) when a window passes 80 % and 95 %, once per window.",
		Field:  func(c *Config) any { return &c.Pacing.Notify },
	},
	{
		Name: "policy.disabled", Kind: Strings, Default: []string{},
		Policy: UserOnly,
		Doc:    "Guard packs or rules switched off, by id (\"risky.routine\", \"core.shell:sudo\"); a project may not switch guards off.",
		Field:  func(c *Config) any { return &c.Policy.Disabled },
	},
	{
		Name: "policy.modes", Kind: Strings, Default: []string{},
		Policy: UserOnly,
		Doc:    "Guard modes set per rule, pack or category as \"id=mode\" (deny, ask, warn, audit, off); the most specific entry wins.",
		Field:  func(c *Config) any { return &c.Policy.Modes },
	},
	{
		Name: "policy.raise", Kind: Strings, Default: []string{},
		Policy: UnionOnly,
		Doc:    "Guard modes as \"id=mode\" that only ever make a rule stricter (a project may use this to raise, never lower).",
		Field:  func(c *Config) any { return &c.Policy.Raise },
	},
	{
		Name: "policy.protected_branches", Kind: Strings, Default: []string{},
		Policy: UnionOnly,
		Doc:    "Branches, besides main and master (always protected), that may not be force-pushed or deleted (core.git:push-force).",
		Field:  func(c *Config) any { return &c.Policy.ProtectedBranches },
	},
	{
		Name: "policy.max_lines_warn", Kind: Int, Default: 500, Min: 10, Max: 100000, Unit: "lines",
		Policy: LowerOnly,
		Doc:    "Warn when a file written by Claude would exceed this many lines (core.size:warn-lines).",
		Field:  func(c *Config) any { return &c.Policy.MaxLinesWarn },
	},
	{
		Name: "policy.max_lines_deny", Kind: Int, Default: 800, Min: 10, Max: 100000, Unit: "lines",
		Policy: LowerOnly,
		Doc:    "Deny a write that would make a file longer than this many lines (core.size:max-lines).",
		Field:  func(c *Config) any { return &c.Policy.MaxLinesDeny },
	},
	{
		Name: "llm.provider", Kind: String, Default: "auto", Allowed: []string{"auto", "anthropic", "claude-cli", "none"},
		Policy: UserOnly,
		Doc:    "Who answers the LLM judges: auto (claude-cli when claude is on PATH, else anthropic when a key is set, else none), anthropic, claude-cli or none.",
		Field:  func(c *Config) any { return &c.LLM.Provider },
	},
	{
		Name: "llm.model_haiku", Kind: String, Default: "claude-haiku-5-5",
		Policy: UserOnly,
		Doc:    "Model id of the haiku tier (fast judges: tool approval, appeals).",
		Field:  func(c *Config) any { return &c.LLM.ModelHaiku },
	},
	{
		Name: "llm.model_sonnet", Kind: String, Default: "claude-sonnet-5-5",
		Policy: UserOnly,
		Doc:    "Model id of the sonnet tier (tempo; fallback of opus).",
		Field:  func(c *Config) any { return &c.LLM.ModelSonnet },
	},
	{
		Name: "llm.model_opus", Kind: String, Default: "claude-opus-5-5",
		Policy: UserOnly,
		Doc:    "Model id of the opus tier (stage-2 code review).",
		Field:  func(c *Config) any { return &c.LLM.ModelOpus },
	},
	{
		Name: "llm.timeout_ms", Kind: Int, Default: 10000, Min: 1000, Max: 50000, Unit: "milliseconds",
		Policy: UserOnly,
		Doc:    "Deadline of one judge call (fallbacks and format retries included); past it the judge fails open.",
		Field:  func(c *Config) any { return &c.LLM.TimeoutMS },
	},
	{
		Name: "llm.review_timeout_ms", Kind: Int, Default: 30000, Min: 1000, Max: 50000, Unit: "milliseconds",
		Policy: UserOnly,
		Doc:    "Deadline of the stage-2 code review of intent validation; past it the review fails open.",
		Field:  func(c *Config) any { return &c.LLM.ReviewTimeoutMS },
	},
	{
		Name: "llm.format_retries", Kind: Int, Default: 2, Min: 0, Max: 5, Unit: "retries",
		Policy: UserOnly,
		Doc:    "How often a reply that is not a verdict is retried with a corrective instruction.",
		Field:  func(c *Config) any { return &c.LLM.FormatRetries },
	},
	{
		Name: "tempo.enabled", Kind: Bool, Default: true,
		Policy: EnableOnly,
		Doc:    "Tempo: at Stop, a judge acting for the user decides whether the work is done and blocks the stop with what is missing (needs an LLM provider; `warden tempo session on|off` overrides per session).",
		Field:  func(c *Config) any { return &c.Tempo.Enabled },
	},
	{
		Name: "tempo.max_blocks", Kind: Int, Default: 3, Min: 1, Max: 8, Unit: "blocks",
		Policy: UserOnly,
		Doc:    "Consecutive stops tempo may block in one turn before it gives up and allows.",
		Field:  func(c *Config) any { return &c.Tempo.MaxBlocks },
	},
	{
		Name: "tempo.subagent", Kind: Bool, Default: false,
		Policy: EnableOnly,
		Doc:    "Run the tempo judge on SubagentStop too.",
		Field:  func(c *Config) any { return &c.Tempo.Subagent },
	},
	{
		Name: "tempo.tier", Kind: String, Default: "sonnet", Allowed: []string{"haiku", "sonnet", "opus"},
		Policy: UserOnly,
		Doc:    "Model tier of the tempo judge.",
		Field:  func(c *Config) any { return &c.Tempo.Tier },
	},
	{
		Name: "validation.intent", Kind: Bool, Default: false,
		Policy: EnableOnly,
		Doc:    "Intent validation: edits of source files need a declared FILE, CHANGES and GOAL (and, on core paths, a test declaration).",
		Field:  func(c *Config) any { return &c.Validation.Intent },
	},
	{
		Name: "validation.intent_review", Kind: Bool, Default: true,
		Policy: EnableOnly,
		Doc:    "Stage 2 of intent validation: an LLM reviews the change against the declared intent and the clean-code list.",
		Field:  func(c *Config) any { return &c.Validation.IntentReview },
	},
	{
		Name: "validation.source_extensions", Kind: Strings,
		Default: []string{".go", ".py", ".js", ".jsx", ".ts", ".tsx", ".rs", ".java", ".kt", ".rb", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".swift", ".php", ".scala", ".sh", ".sql", ".m", ".mm", ".lua", ".ex", ".exs", ".dart", ".vue", ".svelte"},
		Policy:  UnionOnly,
		Doc:     "File extensions intent validation treats as source code.",
		Field:   func(c *Config) any { return &c.Validation.SourceExtensions },
	},
	{
		Name: "validation.core_paths", Kind: Strings, Default: []string{"src/", "lib/", "core/", "source/", "libraries/", "kernel/"},
		Policy: UnionOnly,
		Doc:    "Path segments whose files also need a test declaration (or a quoted user permission to skip tests).",
		Field:  func(c *Config) any { return &c.Validation.CorePaths },
	},
	{
		Name: "validation.tool_approve", Kind: Bool, Default: false,
		Policy: EnableOnly,
		Doc:    "Tool approval: calls of tools that are not low-risk and that no policy decided go to a haiku judge (with one appeal).",
		Field:  func(c *Config) any { return &c.Validation.ToolApprove },
	},
	{
		Name: "validation.low_risk_tools", Kind: Strings,
		Default: []string{"Read", "Grep", "Glob", "LS", "LSP", "TodoWrite", "NotebookRead", "WebSearch", "mcp__*__read*", "mcp__*__get*", "mcp__*__list*", "mcp__*__search*"},
		Policy:  UserOnly,
		Doc:     "Tools tool approval allows at once (globs; mcp__server__tool names).",
		Field:   func(c *Config) any { return &c.Validation.LowRiskTools },
	},
	{
		Name: "validation.lazy", Kind: Bool, Default: true,
		Policy: UserOnly,
		Doc:    "Run pre-tool judges lazily (allow, judge in the background, deliver a failure on the next call) except where strict mode is required.",
		Field:  func(c *Config) any { return &c.Validation.Lazy },
	},
	{
		Name: "validation.error_ack", Kind: Bool, Default: false,
		Policy: EnableOnly,
		Doc:    "Error acknowledgement judge: after a failed tool call, the next mutating call must come after Claude acknowledged the failure.",
		Field:  func(c *Config) any { return &c.Validation.ErrorAck },
	},
	{
		Name: "validation.plan_drift", Kind: Bool, Default: false,
		Policy: EnableOnly,
		Doc:    "Plan drift judge: writes to plan files are checked against the user's request.",
		Field:  func(c *Config) any { return &c.Validation.PlanDrift },
	},
	{
		Name: "validation.style_drift", Kind: Bool, Default: false,
		Policy: EnableOnly,
		Doc:    "Style drift judge: edits that reformat code nobody asked to reformat are denied.",
		Field:  func(c *Config) any { return &c.Validation.StyleDrift },
	},
	{
		Name: "validation.claude_md", Kind: Bool, Default: false,
		Policy: EnableOnly,
		Doc:    "CLAUDE.md judge: edits of CLAUDE.md files are checked for instructions that weaken the user's rules.",
		Field:  func(c *Config) any { return &c.Validation.ClaudeMD },
	},
}

// Keys returns the registry (a copy), for documentation and tooling.
func Keys() []Key { return append([]Key(nil), keys...) }
