package install

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// testEnv is a throwaway HOME with warden and Claude Code directories in it.
type testEnv struct {
	home, wardenHome, claudeDir, project string
	source                               string // a fake warden binary to install
	out                                  *bytes.Buffer
}

func newEnv(t *testing.T) *testEnv {
	t.Helper()
	root := t.TempDir()
	e := &testEnv{
		home:       filepath.Join(root, "home"),
		wardenHome: filepath.Join(root, "home", ".warden"),
		claudeDir:  filepath.Join(root, "home", ".claude"),
		project:    filepath.Join(root, "project"),
		source:     filepath.Join(root, "build", "warden"),
		out:        &bytes.Buffer{},
	}
	for _, d := range []string{e.home, e.project, filepath.Dir(e.source)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(e.source, []byte("#!/bin/sh\necho fake warden\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(e.source), "warden-core"), []byte("#!/bin/sh\necho fake warden-core\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", e.home)
	t.Setenv("WARDEN_HOME", e.wardenHome)
	t.Setenv("CLAUDE_CONFIG_DIR", e.claudeDir)
	return e
}

// opts are install options for this env: no questions, fixed clock.
func (e *testEnv) opts() Options {
	return Options{
		Cwd:    e.project,
		Source: e.source,
		Stdout: e.out,
		Now:    func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.Local) },
		// The pinned Claude Code: exec form (hookform.go).
		ClaudeVersion: claudeSays("2.1.330 (Claude Code)"),
	}
}

// claudeSays is a `claude --version` that prints out.
func claudeSays(out string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) { return out, nil }
}

func (e *testEnv) userSettings() string { return filepath.Join(e.claudeDir, "settings.json") }
func (e *testEnv) bin() string          { return filepath.Join(e.wardenHome, "bin", "warden") }

func (e *testEnv) install(t *testing.T, o Options) *Result {
	t.Helper()
	res, err := Install(context.Background(), o)
	if err != nil {
		t.Fatalf("install: %v\noutput:\n%s", err, e.out)
	}
	return res
}

func (e *testEnv) uninstall(t *testing.T, o Options) *Result {
	t.Helper()
	res, err := Uninstall(context.Background(), o)
	if err != nil {
		t.Fatalf("uninstall: %v\noutput:\n%s", err, e.out)
	}
	return res
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// backups lists the backup files next to path.
func backups(t *testing.T, path string) []string {
	t.Helper()
	m, err := filepath.Glob(path + backupSuffix + "*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// decode parses JSON into generic values for comparisons by meaning.
func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return m
}

// subtree returns the compact JSON text of a dotted path, for byte
// comparison of parts warden must not touch.
func subtree(t *testing.T, b []byte, path string) string {
	t.Helper()
	var v any = decode(t, b)
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: not an object at %q", path, k)
		}
		v = m[k]
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// topKeys lists the top-level keys in file order.
func topKeys(t *testing.T, b []byte) []string {
	t.Helper()
	o, err := parseObject(b)
	if err != nil {
		t.Fatal(err)
	}
	return o.Keys()
}

func equalJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	return reflect.DeepEqual(decode(t, a), decode(t, b))
}

func jsonText(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
