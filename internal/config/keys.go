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
}

// Keys returns the registry (a copy), for documentation and tooling.
func Keys() []Key { return append([]Key(nil), keys...) }
