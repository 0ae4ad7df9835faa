package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestDefaults(t *testing.T) {
	c := Defaults()
	if c.RetentionDays != 60 || c.Capture || len(c.DisabledHandlers) != 0 ||
		c.Context.Threshold != 70 || c.Hook.ReadTimeoutMS != 2000 {
		t.Fatalf("Defaults() = %+v", c)
	}
	// Each call is independent: a caller's edit must not leak into the next.
	c.DisabledHandlers = append(c.DisabledHandlers, "x")
	if d := Defaults(); len(d.DisabledHandlers) != 0 {
		t.Fatalf("Defaults shares its list: %v", d.DisabledHandlers)
	}
}

func TestHandlerEnabled(t *testing.T) {
	c := Defaults()
	c.DisabledHandlers = []string{"pacing"}
	if c.HandlerEnabled("pacing") || !c.HandlerEnabled("guards") {
		t.Fatal("HandlerEnabled disagrees with DisabledHandlers")
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name          string
		user, project string
		check         func(c *Config) bool
		problems      []want
	}{
		{
			name:  "missing files give defaults",
			check: func(c *Config) bool { return c.RetentionDays == 60 && c.Context.Threshold == 70 },
		},
		{
			name:  "empty and comment-only files give defaults",
			user:  "# nothing yet\n",
			check: func(c *Config) bool { return c.RetentionDays == 60 },
		},
		{
			name: "user overrides every key",
			user: `retention_days = 30
capture = true
disabled_handlers = ["pacing", "gates"]

[context]
threshold = 85

[hook]
read_timeout_ms = 500
`,
			check: func(c *Config) bool {
				return c.RetentionDays == 30 && c.Capture && slices.Equal(c.DisabledHandlers, []string{"pacing", "gates"}) &&
					c.Context.Threshold == 85 && c.Hook.ReadTimeoutMS == 500
			},
		},
		{
			name:    "project overrides a free key",
			user:    "[context]\nthreshold = 85\n",
			project: "context.threshold = 60\n",
			check:   func(c *Config) bool { return c.Context.Threshold == 60 },
		},
		{
			name:    "project cannot set user-only keys",
			user:    "retention_days = 30\n",
			project: "# a repository trying to loosen guards\nretention_days = 3650\ndisabled_handlers = [\"guards\"]\n\n[hook]\nread_timeout_ms = 100\ncapture = true\n",
			check: func(c *Config) bool {
				return c.RetentionDays == 30 && c.HandlerEnabled("guards") && c.Hook.ReadTimeoutMS == 2000 && !c.Capture
			},
			problems: []want{
				{"project", 2, "retention_days", "retention_days is user-only: a project config may not set it"},
				{"project", 3, "disabled_handlers", "disabled_handlers is user-only"},
				{"project", 6, "hook.read_timeout_ms", "hook.read_timeout_ms is user-only"},
				{"project", 7, "hook.capture", "unknown key hook.capture; did you mean capture? Keys below a [table] header belong to that table"},
			},
		},
		{
			name:    "syntax error in the user file: defaults stand, project still applies",
			user:    "retention_days = 30\ncapture = \n",
			project: "[context]\nthreshold = 50\n",
			check: func(c *Config) bool {
				return c.RetentionDays == 60 && c.Context.Threshold == 50
			},
			problems: []want{{"user", 2, "", "TOML syntax error"}},
		},
		{
			name:    "syntax error in the project file: user values stand",
			user:    "[context]\nthreshold = 80\n",
			project: "[context\nthreshold = 50\n",
			check:   func(c *Config) bool { return c.Context.Threshold == 80 },
			problems: []want{
				{"project", 1, "", "every setting in this file is ignored until it is fixed"},
			},
		},
		{
			name: "unknown keys and tables, with suggestions",
			user: "retention_day = 5\nthreshold = 50\n\n[context]\ntreshold = 50\n\n[quux]\nbase_delay = 5\n",
			check: func(c *Config) bool {
				return c.RetentionDays == 60 && c.Context.Threshold == 70
			},
			problems: []want{
				{"user", 1, "retention_day", "unknown key retention_day; did you mean retention_days?"},
				{"user", 2, "threshold", "did you mean context.threshold? Move it into the [context] table."},
				{"user", 5, "context.treshold", "did you mean context.threshold?"},
				{"user", 7, "quux", "unknown table quux; delete it"},
			},
		},
		{
			name: "wrong types",
			user: "retention_days = \"60\"\ncapture = \"yes\"\ndisabled_handlers = \"pacing\"\ncontext = 5\n[hook]\nread_timeout_ms = 2.5\n",
			check: func(c *Config) bool {
				return c.RetentionDays == 60 && !c.Capture && len(c.DisabledHandlers) == 0 && c.Hook.ReadTimeoutMS == 2000
			},
			problems: []want{
				{"user", 1, "retention_days", `retention_days = "60" is a string; set it to a whole number of days, default 60`},
				{"user", 2, "capture", `capture = "yes" is a string; set it to true or false, default false`},
				{"user", 3, "disabled_handlers", `set it to a list of strings like ["a", "b"], default []`},
				{"user", 4, "context", "context must be a table"},
				{"user", 6, "hook.read_timeout_ms", "is a fractional number; set it to a whole number of milliseconds"},
			},
		},
		{
			name: "list with a member of the wrong type",
			user: "disabled_handlers = [\n  \"pacing\",\n  3,\n]\n",
			problems: []want{
				{"user", 1, "disabled_handlers", `disabled_handlers = ["pacing", 3] is a list`},
			},
		},
		{
			name:  "out of range",
			user:  "retention_days = 0\n[context]\nthreshold = 101\n",
			check: func(c *Config) bool { return c.RetentionDays == 60 && c.Context.Threshold == 70 },
			problems: []want{
				{"user", 1, "retention_days", "retention_days = 0 is out of range 1..3650; set it to a whole number of days, default 60"},
				{"user", 3, "context.threshold", "context.threshold = 101 is out of range 1..100; set it to a whole-number percentage, default 70"},
			},
		},
		{
			name:  "unshipped rows kept a negative number of days",
			user:  "[store]\nunshipped_keep_days = -1\n",
			check: func(c *Config) bool { return c.Store.UnshippedKeepDays == 30 },
			problems: []want{
				{"user", 2, "store.unshipped_keep_days", "store.unshipped_keep_days = -1 is out of range 0..3650; set it to a whole number of days, default 30"},
			},
		},
		{
			name:     "inline table values are placed on the table's line",
			user:     "capture = true\ncontext = { threshold = 500 }\n",
			check:    func(c *Config) bool { return c.Capture && c.Context.Threshold == 70 },
			problems: []want{{"user", 2, "context.threshold", "out of range"}},
		},
		{
			name:     "a quoted dotted name is one key",
			user:     "\"context.threshold\" = 50\n",
			check:    func(c *Config) bool { return c.Context.Threshold == 70 },
			problems: []want{{"user", 1, "context.threshold", "write context.threshold without quotes"}},
		},
		{
			name:    "invalid project value keeps the user value",
			user:    "[context]\nthreshold = 80\n",
			project: "[context]\nthreshold = 0\n",
			check:   func(c *Config) bool { return c.Context.Threshold == 80 },
			problems: []want{
				{"project", 2, "context.threshold", "out of range 1..100"},
			},
		},
		{
			name:    "user problems come before project problems, each in line order",
			user:    "zzz = 1\nretention_days = -1\n",
			project: "capture = true\naaa = 2\n",
			problems: []want{
				{"user", 1, "zzz", "unknown key zzz"},
				{"user", 2, "retention_days", "out of range"},
				{"project", 1, "capture", "user-only"},
				{"project", 2, "aaa", "unknown key aaa"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			userFile, projectDir := files(t, tt.user, tt.project)
			c, problems := Load(userFile, projectDir)
			if c == nil {
				t.Fatal("Load returned a nil config")
			}
			if tt.check != nil && !tt.check(c) {
				t.Errorf("config = %+v", *c)
			}
			checkProblems(t, problems, userFile, projectDir, tt.problems)
			if again := Check(userFile, projectDir); !slices.Equal(again, problems) {
				t.Errorf("Check differs from Load:\n%s\nvs\n%s", dump(again), dump(problems))
			}
		})
	}
}

func TestLoadWithoutProject(t *testing.T) {
	userFile, _ := files(t, "retention_days = 10\n", "capture = true\n")
	c, problems := Load(userFile, "")
	if c.RetentionDays != 10 || len(problems) != 0 {
		t.Fatalf("Load(user, \"\") = %+v, %v", c, problems)
	}
}

// Claude Code started in the home directory makes ~/.warden/config.toml both
// the user file and the project file; it must be read as the user file only.
func TestProjectFileIsUserFile(t *testing.T) {
	home := t.TempDir()
	userFile := filepath.Join(home, ".warden", "config.toml")
	write(t, userFile, "retention_days = 10\ncapture = true\n")
	c, problems := Load(userFile, home)
	if c.RetentionDays != 10 || !c.Capture || len(problems) != 0 {
		t.Fatalf("Load = %+v, %v", c, problems)
	}
	// Same file reached through a symlinked directory.
	link := filepath.Join(t.TempDir(), "w")
	if err := os.Symlink(filepath.Join(home, ".warden"), link); err != nil {
		t.Skip(err)
	}
	if _, problems := Load(filepath.Join(link, "config.toml"), home); len(problems) != 0 {
		t.Fatalf("symlinked user file: %v", problems)
	}
}

func TestUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	userFile := filepath.Join(dir, "config.toml")
	if err := os.Mkdir(userFile, 0o755); err != nil {
		t.Fatal(err)
	}
	c, problems := Load(userFile, "")
	if c.RetentionDays != 60 || len(problems) != 1 || problems[0].Line != 0 {
		t.Fatalf("Load(dir) = %+v, %v", c, problems)
	}
	if got := problems[0].String(); got != userFile+": it is a directory, not a file; every setting in this file is ignored until it is fixed" {
		t.Fatalf("String() = %q", got)
	}
}

func TestProblemString(t *testing.T) {
	p := Problem{File: "/h/config.toml", Line: 3, Key: "retention_days", Message: "retention_days = 0 is out of range"}
	if got := p.String(); got != "/h/config.toml:3: retention_days = 0 is out of range" {
		t.Fatalf("String() = %q", got)
	}
}

func TestEffective(t *testing.T) {
	userFile, projectDir := files(t, "retention_days = 30\n[context]\nthreshold = 90\n", "\n\ncontext.threshold = 50\n")
	settings, problems := Effective(userFile, projectDir)
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	got := map[string]Setting{}
	for _, s := range settings {
		got[s.Key] = s
	}
	if s := got["retention_days"]; s.Value != 30 || s.Source != "user" || s.File != userFile || s.Line != 1 {
		t.Errorf("retention_days = %+v", s)
	}
	if s := got["context.threshold"]; s.Value != 50 || s.Source != "project" || s.Line != 3 {
		t.Errorf("context.threshold = %+v", s)
	}
	if s := got["capture"]; s.Value != false || s.Source != "default" || s.File != "" {
		t.Errorf("capture = %+v", s)
	}
	if len(settings) != len(keys) {
		t.Errorf("%d settings for %d keys", len(settings), len(keys))
	}
}
