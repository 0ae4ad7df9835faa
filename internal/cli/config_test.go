package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// configEnv points WARDEN_HOME at a temp dir holding user (if not empty) and
// returns a project dir holding project (if not empty).
func configEnv(t *testing.T, user, project string) (home, projectDir string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("WARDEN_HOME", home)
	t.Setenv("COLUMNS", "100")
	projectDir = t.TempDir()
	for path, text := range map[string]string{
		filepath.Join(home, "config.toml"):                  user,
		filepath.Join(projectDir, ".warden", "config.toml"): project,
	} {
		if text == "" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home, projectDir
}

func runConfigCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestConfigCheck(t *testing.T) {
	tests := []struct {
		name          string
		user, project string
		code          int
		lines         []string // stdout, with {user} and {project} for the file paths
	}{
		{
			name:  "no files",
			code:  0,
			lines: []string{"config OK: no config file at {user} or {project}; defaults in use"},
		},
		{
			name:    "clean files",
			user:    "retention_days = 30\n",
			project: "[context]\nthreshold = 50\n",
			code:    0,
			lines:   []string{"config OK: {user}, {project}"},
		},
		{
			name:    "problems in both files",
			user:    "retention_days = 0\n",
			project: "\ncapture = true\n",
			code:    1,
			lines: []string{
				"{user}:1: retention_days = 0 is out of range 1..3650; set it to a whole number of days, default 60",
				"{project}:2: capture is user-only: a project config may not set it, because a project may only tighten guards; move it to the user config {user} or delete it here",
			},
		},
		{
			name: "webhooks on with empty allow-lists",
			user: "[webhook]\ntelegram_secret = \"s\"\ngithub_secret = \"s\"\ngithub_trusted = []\n",
			code: 0,
			lines: []string{
				"note: webhook.telegram_chats is empty: no Telegram chat may command the daemon",
				"note: webhook.github_trusted is empty: nobody's /warden run comment",
				"config OK: {user}",
			},
		},
		{
			name:  "syntax error",
			user:  "a = 1\nretention_days = = 3\n",
			code:  1,
			lines: []string{"{user}:2: TOML syntax error"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, projectDir := configEnv(t, tt.user, tt.project)
			code, out, errOut := runConfigCLI("config", "check", "--project", projectDir)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
			r := strings.NewReplacer("{user}", filepath.Join(home, "config.toml"),
				"{project}", filepath.Join(projectDir, ".warden", "config.toml"))
			got := strings.Split(strings.TrimRight(out, "\n"), "\n")
			if len(got) != len(tt.lines) {
				t.Fatalf("stdout:\n%s\nwant %d lines", out, len(tt.lines))
			}
			for i, w := range tt.lines {
				if !strings.HasPrefix(got[i], r.Replace(w)) {
					t.Errorf("line %d = %q\nwant prefix %q", i, got[i], r.Replace(w))
				}
			}
		})
	}
}

func TestConfigCheckJSON(t *testing.T) {
	_, projectDir := configEnv(t, "retention_day = 3\n", "")
	code, out, _ := runConfigCLI("config", "check", "--json", "--project", projectDir)
	var got struct {
		OK       bool
		Files    []string
		Problems []struct {
			File, Key, Message string
			Line               int
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if code != 1 || got.OK || len(got.Files) != 1 || len(got.Problems) != 1 ||
		got.Problems[0].Line != 1 || got.Problems[0].Key != "retention_day" {
		t.Fatalf("exit %d, %+v", code, got)
	}
}

func TestConfigShowDefaultsJSON(t *testing.T) {
	configEnv(t, "", "")
	code, out, errOut := runConfigCLI("config", "show", "--defaults", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Keys []struct {
			Name, Type, Range, Policy, Doc string
			Default                        any
			Min, Max                       *float64
		}
		Policies []struct{ Name, Rule string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	found := false
	for _, k := range got.Keys {
		if k.Name == "retention_days" {
			found = k.Type == "int" && k.Default == float64(60) && k.Range == "1..3650" &&
				k.Policy == "user-only" && *k.Min == 1 && *k.Max == 3650 && k.Doc != ""
		}
	}
	if !found || len(got.Policies) != 6 {
		t.Fatalf("unexpected defaults: %+v", got)
	}
}

func TestConfigShowDefaultsText(t *testing.T) {
	configEnv(t, "", "")
	_, out, _ := runConfigCLI("config", "show", "--defaults")
	for _, want := range []string{"KEY", "retention_days", "1..3650 days", "user-only", "may only tighten guards", "enable-only", "union-only"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestConfigShow(t *testing.T) {
	_, projectDir := configEnv(t, "retention_days = 30\n", "[context]\nthreshold = 55\n")
	code, out, _ := runConfigCLI("config", "show", "--project", projectDir)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{`retention_days\s+30\s+user:1\n`, `context.threshold\s+55\s+project:2\n`, `capture\s+false\s+default\n`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runConfigCLI("config", "show", "--json", "--project", projectDir)
	var got struct {
		Settings []struct {
			Key, Source string
			Value       any
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || len(got.Settings) == 0 {
		t.Fatalf("exit %d, err %v:\n%s", code, err, out)
	}
}
