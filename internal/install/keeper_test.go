//go:build unix

package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/testenv"
)

// TestReinstallStopsTheOldKeeper: a store keeper started by the old
// binary's hook is stopped when install replaces the binary, so the next
// hook starts one of the new version.
func TestReinstallStopsTheOldKeeper(t *testing.T) {
	e := newEnv(t)
	e.install(t, e.opts())
	lock := paths.KeeperLock()
	t.Cleanup(func() { _ = keeper.Stop(lock, 10*time.Second) })

	// A real hook of the real binary starts a real keeper.
	hook := exec.Command(testenv.Binary(t, "warden"), "hook")
	hook.Env = append(os.Environ(), "WARDEN_KEEPER=on")
	hook.Stdin = strings.NewReader(`{"session_id":"k","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if out, err := hook.CombinedOutput(); err != nil {
		t.Fatalf("hook: %v\n%s", err, out)
	}
	waitKeeper(t, lock, true)

	if err := os.WriteFile(e.source, []byte("#!/bin/sh\necho fake warden v2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if res := e.install(t, e.opts()); !res.BinaryCopied {
		t.Fatal("the new binary was not copied")
	}
	if running, err := keeper.Running(lock); err != nil || running {
		t.Fatalf("after install the old keeper still runs (running=%v err=%v)\n%s", running, err, e.out)
	}
	if strings.Contains(e.out.String(), "did not stop") {
		t.Fatalf("install says the keeper did not stop:\n%s", e.out)
	}
}

func waitKeeper(t *testing.T, lock string, want bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if running, err := keeper.Running(lock); err == nil && running == want {
			return
		}
	}
	t.Fatalf("keeper running never became %v", want)
}

// TestInstallStartsTheNewKeeper: install starts the installed core's
// keeper, so the hooks right after an upgrade are answered by it instead
// of each running alone until a hook may start one (every 30 s at most).
func TestInstallStartsTheNewKeeper(t *testing.T) {
	e := newEnv(t)
	// The real front and core, so the started keeper is the real one.
	for _, name := range []string{"warden", "warden-core"} {
		b, err := os.ReadFile(testenv.Binary(t, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(filepath.Dir(e.source), name), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("WARDEN_KEEPER", "on")
	lock := paths.KeeperLock()
	t.Cleanup(func() { _ = keeper.Stop(lock, 10*time.Second) })
	o := e.opts()
	o.StartKeeper = true
	e.install(t, o)
	if running, err := keeper.Running(lock); err != nil || !running {
		t.Fatalf("no keeper runs after install (running=%v err=%v)\n%s", running, err, e.out)
	}
	if !strings.Contains(e.out.String(), "✓ store keeper started") {
		t.Fatalf("install does not say it started the keeper:\n%s", e.out)
	}

	// Switched off, install starts none.
	if err := keeper.Stop(lock, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WARDEN_KEEPER", "off")
	e.out.Reset()
	e.install(t, o)
	if running, _ := keeper.Running(lock); running {
		t.Fatalf("install started a keeper with WARDEN_KEEPER=off\n%s", e.out)
	}
}
