package install

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

// TestFrontFastPathIsSeen: install and doctor tell a front linked with its
// fast path (as `make build` and the test builds link it) from one built
// plainly, and say how to get it.
func TestFrontFastPathIsSeen(t *testing.T) {
	if !fastFrontPlatform {
		t.Skip("the fast path exists on linux/amd64 and linux/arm64 only")
	}
	fast := filepath.Join(testenv.Binaries(t, "warden"), "warden")
	slow := filepath.Join(t.TempDir(), "warden")
	if out, err := exec.Command("go", "build", "-o", slow, testenv.Module+"/cmd/warden").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/warden: %v\n%s", err, out)
	}
	// The other architecture's fronts, cross-built.
	other := map[string]string{"amd64": "arm64", "arm64": "amd64"}[runtime.GOARCH]
	otherFast, otherSlow := filepath.Join(t.TempDir(), "warden"), filepath.Join(t.TempDir(), "warden")
	for bin, flags := range map[string][]string{otherFast: {"-ldflags", "-E " + testenv.FrontEntry}, otherSlow: nil} {
		cmd := exec.Command("go", append(append([]string{"build", "-o", bin}, flags...), testenv.Module+"/cmd/warden")...)
		cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+other, "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build ./cmd/warden for %s: %v\n%s", other, err, out)
		}
	}
	for bin, want := range map[string]bool{fast: true, slow: false, otherFast: true, otherSlow: false} {
		got, err := frontIsFast(bin)
		if err != nil || got != want {
			t.Errorf("frontIsFast(%s) = %v, %v; want %v", bin, got, err, want)
		}
	}
	script := filepath.Join(t.TempDir(), "warden")
	os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755)
	if _, err := frontIsFast(script); err == nil {
		t.Error("a script read as a program")
	}

	for _, c := range []struct {
		bin   string
		level Level
		note  string
	}{{fast, LevelOK, "before the Go runtime starts"}, {slow, LevelWarn, "without its fast path"}} {
		e := newEnv(t)
		copyTo(t, c.bin, e.source)
		e.install(t, e.opts())
		if strings.Contains(e.out.String(), "without its fast path") != (c.level == LevelWarn) {
			t.Errorf("install of %s said:\n%s", c.bin, e.out)
		}
		r := Doctor(context.Background(), DoctorOptions{Cwd: e.project, ClaudeVersion: func(context.Context) (string, error) { return "", ErrClaudeNotFound }})
		var front *Check
		for i := range r.Checks {
			if r.Checks[i].Name == "front" {
				front = &r.Checks[i]
			}
		}
		if front == nil || front.Level != c.level || !strings.Contains(front.Detail, c.note) {
			t.Errorf("doctor on %s: front check %+v, want %s saying %q", c.bin, front, c.level, c.note)
		}
		if c.level == LevelWarn && !strings.Contains(front.Fix, "make install") {
			t.Errorf("no fix named: %+v", front)
		}
	}
}

func copyTo(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
