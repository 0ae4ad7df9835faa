package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestMalformedSettingsRefused(t *testing.T) {
	cases := []struct {
		name, content string
		line, col     int // 0: no position expected
		msg           string
	}{
		{"trailing comma", "{\n  \"model\": \"opus\",\n}\n", 3, 1, "invalid character '}'"},
		{"missing value", "{\n  \"a\": 1,\n  \"b\": \n}", 4, 1, "invalid character '}'"},
		{"truncated", "{\n  \"hooks\": {", 2, 12, "unexpected end of JSON input"},
		{"comment", "{\n  // mine\n  \"a\": 1\n}", 2, 3, "invalid character '/'"},
		{"top-level array", `[{"hooks": {}}]`, 0, 0, "the top level is an array, not a JSON object"},
		{"hooks is a string", `{"hooks": "none"}`, 0, 0, `"hooks" is a string, expected an object`},
		{"event is an object", `{"hooks": {"Stop": {"hooks": []}}}`, 0, 0, `"hooks.Stop" is an object, expected an array`},
		{"statusLine is a string", `{"statusLine": "~/s.sh"}`, 0, 0, `"statusLine" is a string, expected an object`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			writeFile(t, e.userSettings(), c.content)
			_, err := Install(context.Background(), e.opts())
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if pe.Line != c.line || pe.Col != c.col {
				t.Errorf("position %d:%d, want %d:%d (%v)", pe.Line, pe.Col, c.line, c.col, err)
			}
			msg := err.Error()
			for _, want := range []string{e.userSettings(), c.msg, "fix the file by hand"} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q lacks %q", msg, want)
				}
			}
			if c.line > 0 && !strings.Contains(msg, e.userSettings()+":"+strconv.Itoa(c.line)+":"+strconv.Itoa(c.col)+":") {
				t.Errorf("error %q does not start with file:line:col", msg)
			}
			if got := readFile(t, e.userSettings()); string(got) != c.content {
				t.Error("refused file was changed")
			}
			if len(backups(t, e.userSettings())) != 0 {
				t.Error("refused file was backed up")
			}
			if _, err := os.Stat(e.bin()); err == nil {
				t.Error("binary installed although the settings were refused")
			}
			// Uninstall refuses the unreadable ones the same way.
			if c.line > 0 {
				if _, err := Uninstall(context.Background(), e.opts()); !errors.As(err, &pe) {
					t.Errorf("uninstall: err = %v, want a *ParseError", err)
				}
			}
		})
	}
}

// rootCanWrite reports whether permission bits do not stop this process
// (root, CAP_DAC_OVERRIDE): then a read-only file is writable after all.
func rootCanWrite(t *testing.T) bool {
	p := filepath.Join(t.TempDir(), "probe")
	if err := os.WriteFile(p, nil, 0o444); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err == nil {
		f.Close()
		return true
	}
	return false
}

func TestReadOnlySettingsRefused(t *testing.T) {
	t.Run("read-only file and directory", func(t *testing.T) {
		e := newEnv(t)
		writeFile(t, e.userSettings(), otherTool)
		os.Chmod(e.userSettings(), 0o444)
		os.Chmod(e.claudeDir, 0o555)
		t.Cleanup(func() { os.Chmod(e.claudeDir, 0o755) })
		if rootCanWrite(t) {
			t.Skip("permission bits do not stop this process (root); the unwritable-path cases below still run")
		}
		assertRefusedUnchanged(t, e, e.userSettings(), otherTool, "chmod u+w")
	})

	t.Run("read-only file in a writable directory", func(t *testing.T) {
		e := newEnv(t)
		writeFile(t, e.userSettings(), otherTool)
		os.Chmod(e.userSettings(), 0o444)
		if rootCanWrite(t) {
			t.Skip("permission bits do not stop this process (root)")
		}
		assertRefusedUnchanged(t, e, e.userSettings(), otherTool, "chmod u+w")
	})

	// These fail for root too: no permission bit is involved, the path
	// itself cannot hold a file.
	t.Run("project .claude is a file", func(t *testing.T) {
		e := newEnv(t)
		blocker := filepath.Join(e.project, ".claude")
		writeFile(t, blocker, "not a directory")
		o := e.opts()
		o.Scope = Project
		_, err := Install(context.Background(), o)
		if err == nil {
			t.Fatal("install succeeded")
		}
		for _, want := range []string{filepath.Join(blocker, "settings.json"), "not a directory", "move the file aside"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		}
		if string(readFile(t, blocker)) != "not a directory" {
			t.Error("the blocking file was changed")
		}
		if _, err := os.Stat(e.bin()); err == nil {
			t.Error("binary installed although the settings cannot be written")
		}
	})

	t.Run("config dir under a file", func(t *testing.T) {
		e := newEnv(t)
		blocker := filepath.Join(e.home, "blocker")
		writeFile(t, blocker, "x")
		t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(blocker, "claude"))
		_, err := Install(context.Background(), e.opts())
		var fe *FSError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), filepath.Join(blocker, "claude", "settings.json")) {
			t.Fatalf("err = %v, want an FSError naming the settings file", err)
		}
		if string(readFile(t, blocker)) != "x" {
			t.Error("the blocking file was changed")
		}
	})
}

// assertRefusedUnchanged runs install and expects a clear error, the file
// unchanged and no backup or binary.
func assertRefusedUnchanged(t *testing.T, e *testEnv, path, content, hint string) {
	t.Helper()
	_, err := Install(context.Background(), e.opts())
	if err == nil {
		t.Fatal("install succeeded on a read-only settings file")
	}
	for _, want := range []string{path, hint, "nothing was changed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if string(readFile(t, path)) != content {
		t.Error("read-only file was changed")
	}
	if len(backups(t, path)) != 0 {
		t.Error("backup written next to a read-only file")
	}
	if _, err := os.Stat(e.bin()); err == nil {
		t.Error("binary installed although the settings cannot be written")
	}
}
