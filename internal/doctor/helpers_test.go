package doctor

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/install"
)

// testEnv is a throwaway HOME with warden and Claude Code directories in
// it, where install puts a fake warden for doctor to check.
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
func (e *testEnv) opts() install.Options {
	return install.Options{
		Cwd:    e.project,
		Source: e.source,
		Stdout: e.out,
		Now:    func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.Local) },
		// The pinned Claude Code: exec form.
		ClaudeVersion: claudeSays("2.1.330 (Claude Code)"),
	}
}

// claudeSays is a `claude --version` that prints out.
func claudeSays(out string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) { return out, nil }
}

func (e *testEnv) userSettings() string { return filepath.Join(e.claudeDir, "settings.json") }
func (e *testEnv) bin() string          { return filepath.Join(e.wardenHome, "bin", "warden") }

func (e *testEnv) install(t *testing.T, o install.Options) *install.Result {
	t.Helper()
	res, err := install.Install(context.Background(), o)
	if err != nil {
		t.Fatalf("install: %v\noutput:\n%s", err, e.out)
	}
	return res
}

func (e *testEnv) uninstall(t *testing.T, o install.Options) *install.Result {
	t.Helper()
	res, err := install.Uninstall(context.Background(), o)
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
