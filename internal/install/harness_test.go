package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/warden-dev/warden/internal/harness"
)

// The users' own configuration each CLI already has.
const (
	codexHooks = `{
    "hooks": {
        "PermissionRequest": [
            {
                "matcher": "Bash",
                "hooks": [ { "type": "command", "command": "/usr/local/bin/audit-shell", "timeout": 5 } ]
            }
        ]
    }
}
`
	codexConfig = `model = "gpt-5.4"
approval_policy = "on-request"

[projects."/work/p"]
trust_level = "trusted"

[hooks.state."/elsewhere/hooks.json:pre_tool_use:0:0"]
trusted_hash = "sha256:0000"`
	geminiSettings = `{
	"general": { "disableAutoUpdate": true },
	"hooks": {
		"AfterModel": [ { "matcher": "*", "hooks": [ { "type": "command", "command": "lint-write", "timeout": 3000 } ] } ]
	},
	"ui": { "theme": "Dracula" }
}
`
)

// harnessFiles are the configuration files of CLI h in e's home.
func (e *testEnv) harnessFiles(h harness.Name) []string {
	switch h {
	case harness.Codex:
		return []string{filepath.Join(e.home, ".codex", "hooks.json"), filepath.Join(e.home, ".codex", "config.toml")}
	case harness.Gemini:
		return []string{filepath.Join(e.home, ".gemini", "settings.json")}
	}
	return []string{filepath.Join(e.home, ".copilot", "hooks", "warden.json")}
}

// snapshot reads the files (absent: "<absent>").
func snapshot(files []string) map[string]string {
	m := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			m[f] = "<absent>"
			continue
		}
		m[f] = string(b)
	}
	return m
}

func TestHarnessInstallRoundTripIsByteIdentical(t *testing.T) {
	for _, tc := range []struct {
		h       harness.Name
		initial map[int]string // file index → content; none: a fresh home
	}{
		{harness.Codex, nil},
		// An event list warden adds to is indented anew when it takes its
		// entry out again; the users' lists here are on other events.
		{harness.Codex, map[int]string{0: codexHooks, 1: codexConfig}},
		{harness.Codex, map[int]string{1: ""}},
		{harness.Gemini, nil},
		{harness.Gemini, map[int]string{0: geminiSettings}},
		{harness.Copilot, nil},
	} {
		name := string(tc.h)
		if tc.initial != nil {
			name += "/existing"
		}
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			files := e.harnessFiles(tc.h)
			for i, c := range tc.initial {
				writeFile(t, files[i], c)
			}
			before := snapshot(files)
			o := e.opts()
			o.Harness = tc.h

			dry := o
			dry.DryRun = true
			e.install(t, dry)
			if got := snapshot(files); !equalMaps(got, before) {
				t.Fatalf("--dry-run changed files")
			}
			if !strings.Contains(e.out.String(), "+++ ") {
				t.Errorf("--dry-run printed no diff:\n%s", e.out)
			}

			e.install(t, o)
			after := snapshot(files)
			for _, f := range files {
				if after[f] == "<absent>" {
					t.Fatalf("%s not written", f)
				}
			}
			e.checkInstalled(t, tc.h, after)
			// Users' entries are kept.
			for i, c := range tc.initial {
				for _, line := range []string{"audit-shell", "trust_level", "lint-write", "Dracula", "0000"} {
					if strings.Contains(c, line) && !strings.Contains(after[files[i]], line) {
						t.Errorf("%s lost %q:\n%s", files[i], line, after[files[i]])
					}
				}
			}
			// A second install changes nothing.
			e.out.Reset()
			e.install(t, o)
			if !strings.Contains(e.out.String(), "nothing to change") || !equalMaps(snapshot(files), after) {
				t.Errorf("second install changed something:\n%s", e.out)
			}

			e.uninstall(t, o)
			if got := snapshot(files); !equalMaps(got, before) {
				for f := range got {
					if got[f] != before[f] {
						t.Errorf("%s after the round trip:\n%q\nwant\n%q", f, got[f], before[f])
					}
				}
			}
			if tc.h == harness.Copilot {
				if _, err := os.Stat(filepath.Dir(files[0])); err == nil {
					t.Errorf("the hooks directory warden made is left behind")
				}
			}
		})
	}
}

// checkInstalled looks at what each CLI will read.
func (e *testEnv) checkInstalled(t *testing.T, h harness.Name, files map[string]string) {
	t.Helper()
	paths := e.harnessFiles(h)
	text := files[paths[0]]
	for _, hk := range harness.Hooks(h) {
		if !strings.Contains(text, `"`+hk.Native+`"`) {
			t.Errorf("%s: no %s hook:\n%s", paths[0], hk.Native, text)
		}
	}
	want := "hook --harness " + string(h)
	if !strings.Contains(text, want) {
		t.Errorf("%s does not run %q:\n%s", paths[0], want, text)
	}
	switch h {
	case harness.Codex:
		var doc struct {
			Hooks struct {
				State map[string]struct {
					TrustedHash string `toml:"trusted_hash"`
				} `toml:"state"`
			} `toml:"hooks"`
		}
		if _, err := toml.Decode(files[paths[1]], &doc); err != nil {
			t.Fatalf("config.toml: %v\n%s", err, files[paths[1]])
		}
		key := paths[0] + ":pre_tool_use:"
		found := false
		for k, st := range doc.Hooks.State {
			if strings.HasPrefix(k, key) && strings.HasPrefix(st.TrustedHash, "sha256:") {
				found = true
			}
		}
		if !found {
			t.Errorf("no trust for warden's PreToolUse hook in config.toml:\n%s", files[paths[1]])
		}
	case harness.Gemini:
		if !strings.Contains(text, `"timeout": 60000`) {
			t.Errorf("Gemini's timeouts are milliseconds:\n%s", text)
		}
	case harness.Copilot:
		if !strings.Contains(text, `"bash": "`) || !strings.Contains(text, "preToolUse\"") || !strings.Contains(text, "copilot preToolUse") {
			t.Errorf("Copilot hook file:\n%s", text)
		}
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// The trust hash of a hook as Codex 0.171.0's app-server reported it
// (hooks/list currentHash) for this hooks.json entry.
func TestCodexHookHashMatchesCodex(t *testing.T) {
	got := CodexHookHash("pre_tool_use", "'/x/warden' hook --harness codex", 60)
	if want := "sha256:c2ad1157866ced923d91108996012cdcb830ad632cce5dca26aba3fbf1f27369"; got != want {
		t.Errorf("hash %s, want %s", got, want)
	}
	if got := CodexHookHash("stop", "echo hi", 120); got != "sha256:484a808b00e51649900f06430821616b51ea9a8e83296a2efae7060ba7fc628b" {
		t.Errorf("stop hash %s", got)
	}
}

// A new install path changes the command, so the trust is rewritten.
func TestCodexTrustFollowsTheCommand(t *testing.T) {
	e := newEnv(t)
	o := e.opts()
	o.Harness = harness.Codex
	e.install(t, o)
	cfg := filepath.Join(e.home, ".codex", "config.toml")
	first := string(readFile(t, cfg))
	t.Setenv("WARDEN_HOME", filepath.Join(e.home, "elsewhere"))
	e.install(t, o)
	second := string(readFile(t, cfg))
	if first == second || strings.Count(second, "# BEGIN warden hook trust") != 1 {
		t.Fatalf("trust not rewritten once:\n%s", second)
	}
}

func TestCodexRefusesAKeyTheUserTrusts(t *testing.T) {
	e := newEnv(t)
	hooks := filepath.Join(e.home, ".codex", "hooks.json")
	cfg := filepath.Join(e.home, ".codex", "config.toml")
	writeFile(t, cfg, "[hooks.state.\""+hooks+":session_start:0:0\"]\ntrusted_hash = \"sha256:1\"\n")
	o := e.opts()
	o.Harness = harness.Codex
	if _, err := Install(t.Context(), o); err == nil || !strings.Contains(err.Error(), "delete that table") {
		t.Fatalf("want a refusal naming the table, got %v", err)
	}
	if _, err := os.Stat(hooks); err == nil {
		t.Errorf("hooks.json written despite the refusal")
	}
}
