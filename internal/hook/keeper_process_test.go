//go:build unix

package hook

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/testenv"
)

func runBinaryHook(t *testing.T, bin string, env []string) {
	t.Helper()
	cmd := exec.Command(bin, "hook")
	cmd.Env = env
	cmd.Stdin = strings.NewReader(`{"session_id":"k1","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("hook: err=%v output=%q", err, out)
	}
}

// TestHookStartsOneKeeperThatStops: the real binary's first hook starts
// `warden keeper` detached; it holds the store lock with its pid, and
// Stop ends it.
func TestHookStartsOneKeeperThatStops(t *testing.T) {
	bin := testenv.Binary(t, "warden")
	home := t.TempDir()
	lock := filepath.Join(home, "locks", "keeper.lock")
	env := append(testenv.EnvWithout("WARDEN_KEEPER"), "WARDEN_HOME="+home)
	t.Cleanup(func() { _ = keeper.Stop(lock, 10*time.Second) })

	runBinaryHook(t, bin, env)
	// The hook decides before it exits: the stamp of an attempted start is
	// there once the process is gone (TestNoKeeperWhenSwitchedOff relies
	// on this to check the opposite without waiting).
	if _, err := os.Stat(filepath.Join(home, "locks", "keeper.started")); err != nil {
		t.Fatalf("no keeper start stamp once the hook exited: %v", err)
	}
	testenv.WaitFor(t, 10*time.Second, "a keeper to hold the store after the first hook", func() bool {
		running, err := keeper.Running(lock)
		return err == nil && running
	})
	var pid string
	testenv.WaitFor(t, 5*time.Second, "the keeper's pid in its lock file", func() bool {
		b, _ := os.ReadFile(lock) // written just after the lock is taken
		pid = strings.TrimSpace(string(b))
		return pid != ""
	})
	cmdline, err := os.ReadFile("/proc/" + pid + "/cmdline")
	if err == nil && !strings.Contains(string(cmdline), "keeper") {
		t.Fatalf("pid %s in the lock is not a keeper: %q", pid, cmdline)
	}
	for i := 0; i < 5; i++ { // more hooks: same keeper
		runBinaryHook(t, bin, env)
	}
	if b2, _ := os.ReadFile(lock); strings.TrimSpace(string(b2)) != pid {
		t.Fatalf("keeper changed from %s to %s while one was running", pid, b2)
	}
	if err := keeper.Stop(lock, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, "warden.db-wal")); !os.IsNotExist(err) {
		t.Fatalf("the keeper exited as the last connection but left the WAL: %v", err)
	}
}

// TestNoKeeperWhenSwitchedOff: WARDEN_KEEPER=off and hook.keeper = false
// each keep hooks from starting one. A hook that starts a keeper writes
// locks/keeper.started before it exits (keeper.Ensure, checked in
// TestHookStartsOneKeeperThatStops), so the hook's exit is the moment to
// look: no stamp then means no start was attempted, however slow the
// machine.
func TestNoKeeperWhenSwitchedOff(t *testing.T) {
	bin := testenv.Binary(t, "warden")
	for name, setup := range map[string]func(home string) []string{
		"env": func(home string) []string {
			return append(testenv.EnvWithout("WARDEN_KEEPER"), "WARDEN_HOME="+home, "WARDEN_KEEPER=off")
		},
		"config": func(home string) []string {
			if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[hook]\nkeeper = false\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			return append(testenv.EnvWithout("WARDEN_KEEPER"), "WARDEN_HOME="+home)
		},
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			lock := filepath.Join(home, "locks", "keeper.lock")
			t.Cleanup(func() { _ = keeper.Stop(lock, 10*time.Second) })
			runBinaryHook(t, bin, setup(home))
			if _, err := os.Stat(filepath.Join(home, "locks", "keeper.started")); !os.IsNotExist(err) {
				t.Fatalf("a keeper start was attempted: %v", err)
			}
			if running, err := keeper.Running(lock); err != nil || running {
				t.Fatalf("a keeper holds the store: running=%v err=%v", running, err)
			}
		})
	}
}
