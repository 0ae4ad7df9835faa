package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// files writes a user config and a project config (each only when its text
// is not empty) under a fresh temp dir and returns the user file path and
// the project directory.
func files(t *testing.T, user, project string) (userFile, projectDir string) {
	t.Helper()
	dir := t.TempDir()
	userFile = filepath.Join(dir, "home", "config.toml")
	projectDir = filepath.Join(dir, "project")
	write(t, userFile, user)
	write(t, filepath.Join(projectDir, ".warden", "config.toml"), project)
	return userFile, projectDir
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if text == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// want describes one expected problem: which file ("user" or "project"),
// line, key and a fragment of the message.
type want struct {
	file string
	line int
	key  string
	msg  string
}

// checkProblems compares problems with wants, in order.
func checkProblems(t *testing.T, got []Problem, userFile, projectDir string, wants []want) {
	t.Helper()
	label := func(p Problem) string {
		switch p.File {
		case userFile:
			return "user"
		case filepath.Join(projectDir, ".warden", "config.toml"):
			return "project"
		}
		return p.File
	}
	if len(got) != len(wants) {
		t.Fatalf("got %d problems, want %d:\n%s", len(got), len(wants), dump(got))
	}
	for i, w := range wants {
		p := got[i]
		if label(p) != w.file || p.Line != w.line || p.Key != w.key || !strings.Contains(p.Message, w.msg) {
			t.Errorf("problem %d = %s:%d key=%q %q\nwant %s:%d key=%q containing %q",
				i, label(p), p.Line, p.Key, p.Message, w.file, w.line, w.key, w.msg)
		}
	}
}

func dump(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("  " + p.String() + "\n")
	}
	return b.String()
}
