package hook

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/testenv"
)

// TestConcurrentHookProcesses runs 16 `warden hook` processes at a time,
// 200 events each, into one store that does not exist yet (the fresh-file
// WAL race included): exactly 3200 rows, every process exit 0 and silent.
// It runs the path users get: the first hooks run in warden-core, one of
// them starts the keeper, which answers most of the rest; those it
// declines while busy run in warden-core beside it.
func TestConcurrentHookProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 3200 processes")
	}
	bin := testenv.Binary(t, "warden")
	home := t.TempDir()
	t.Cleanup(func() { _ = keeper.Stop(filepath.Join(home, "locks", "keeper.lock"), 10*time.Second) })
	env := append(testenv.EnvWithout("WARDEN_KEEPER", "WARDEN_HOME"), "WARDEN_HOME="+home)
	const workers, perWorker = 16, 200
	// A problem is a hook process that surfaced an error to Claude Code.
	testenv.Concurrently(t, workers, perWorker, func(w, i int) string {
		cmd := exec.Command(bin, "hook", "--harness", "claude")
		cmd.Env = env
		cmd.Stdin = strings.NewReader(fmt.Sprintf(
			`{"session_id":"w%d","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"t%d-%d","tool_input":{"command":"echo %d"}}`,
			w, w, i, i))
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil || stdout.Len() > 0 || stderr.Len() > 0 {
			return fmt.Sprintf("err=%v stdout=%q stderr=%q", err, stdout.String(), stderr.String())
		}
		return ""
	})

	evs := checkConcurrentWriters(t, home, workers, perWorker)
	seen := map[string]bool{}
	for _, e := range evs {
		if seen[e.ToolUseID] {
			t.Fatalf("duplicated row %s", e.ToolUseID)
		}
		seen[e.ToolUseID] = true
		if e.Error != "" {
			t.Errorf("row with error: %+v", e)
		}
	}
}

// checkConcurrentWriters: after workers sessions w0, w1, … of perWorker
// hooks each into the store in home, it holds exactly that many rows, the
// audit chain holds every one and each session's tool counter is exact.
// It returns the rows.
func checkConcurrentWriters(t *testing.T, home string, workers, perWorker int) []store.Event {
	t.Helper()
	evs := events(t, home)
	if len(evs) != workers*perWorker {
		t.Fatalf("want exactly %d rows, got %d", workers*perWorker, len(evs))
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(home, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, brk, err := st.VerifyChain(context.Background()); err != nil || brk != nil || n != int64(workers*perWorker) {
		t.Errorf("audit chain after concurrent writers: %d rows, break %+v, %v", n, brk, err)
	}
	for w := 0; w < workers; w++ {
		sess, err := st.Session(context.Background(), fmt.Sprintf("w%d", w))
		if err != nil || sess == nil || !strings.Contains(string(sess.State), fmt.Sprintf(`"tool_count":%d`, perWorker)) {
			t.Errorf("session w%d state: %v %v", w, sess, err)
		}
	}
	return evs
}

// TestParallelHooksOfOneSessionKeepEveryUpdate fires PreToolUse hooks of one
// session in parallel, as Claude Code does for parallel tool calls: every
// process's state update must survive (the session lock), so the tool
// counter ends at exactly the number of hooks.
func TestParallelHooksOfOneSessionKeepEveryUpdate(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 160 processes")
	}
	bin := testenv.Binary(t, "warden")
	home := t.TempDir()
	const workers, perWorker = 8, 20
	testenv.Concurrently(t, workers, perWorker, func(w, i int) string {
		cmd := exec.Command(bin, "hook")
		cmd.Env = append(os.Environ(), "WARDEN_HOME="+home)
		cmd.Stdin = strings.NewReader(`{"session_id":"same","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/tmp/x"}}`)
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			return fmt.Sprintf("%v %s", err, out)
		}
		return ""
	})
	st := sqlitetest.Store(t, filepath.Join(home, "warden.db"))
	sess, err := st.Session(context.Background(), "same")
	if err != nil || sess == nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`"tool_count":%d`, workers*perWorker); !strings.Contains(string(sess.State), want) {
		t.Errorf("lost updates: state %s, want %s", sess.State, want)
	}
}
