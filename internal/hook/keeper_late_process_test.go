//go:build unix

package hook

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/testenv"
)

// TestLateKeeperNeverRunsAHookTwice: a keeper that stalls (stopped here;
// in life a debugger, strace or perf attached to it, a starved VM) past
// the front's wait for its answer, while the front's request sits in its
// socket. The front gives up and runs the hook in warden-core; when the
// keeper comes back it finds the request in its backlog. It must leave
// that request alone: it used to run it too, on a stdin warden-core had
// already read, and record a second row ("empty hook input on stdin")
// for the one hook. Each stdin Claude Code or a script may give a hook: a
// pipe and a regular file.
func TestLateKeeperNeverRunsAHookTwice(t *testing.T) {
	s := newServed(t)
	s.front = filepath.Join(filepath.Dir(s.core), "warden") // with warden-core beside it to fall back on
	db := filepath.Join(s.home, "warden.db")
	for _, kind := range []string{"pipe", "file"} {
		t.Run(kind, func(t *testing.T) {
			id := "late-" + kind
			payload := `{"session_id":"late","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"` + id + `","tool_input":{"command":"ls"}}`
			cmd := exec.Command(s.front, "hook", "--harness", "claude")
			cmd.Env = s.env
			// Files and a pipe the test made, not os/exec's copying: the
			// stopped keeper holds the descriptors the front sent it (in its
			// socket's queue) until it comes back, so a pipe os/exec reads
			// would keep Wait waiting until then.
			in := stdinOf(t, kind, payload)
			defer in.Close()
			outF, errF := tempFile(t), tempFile(t)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = in, outF, errF
			seen := map[int64]bool{}
			for _, e := range sqlitetest.Events(t, db) {
				seen[e.ID] = true
			}
			declines := strings.Count(s.keeper.Log(), "declined a request")
			// Stopped for sure, not only signalled: a keeper still taking its
			// stop when the front's request comes takes the hook (the claim)
			// and stalls holding it; the front then rightly allows without
			// running it, and the hook is the keeper's once it comes back —
			// not the case this test is about.
			s.keeper.Stop(t)
			resumed := false
			resume := func() {
				if !resumed {
					resumed = true
					s.keeper.Process.Signal(syscall.SIGCONT)
				}
			}
			defer resume()
			err := cmd.Run()
			resume()
			out, _ := os.ReadFile(outF.Name())
			errOut, _ := os.ReadFile(errF.Name())
			if err != nil || len(out) > 0 || len(errOut) > 0 {
				t.Fatalf("the hook beside a stopped keeper: %v, stdout=%q stderr=%q", err, out, errOut)
			}
			// The keeper takes up the request it finds: done with it once it
			// declined it (its log) or recorded a row for it.
			testenv.WaitFor(t, 20*time.Second, "the resumed keeper to deal with the request it found", func() bool {
				return strings.Count(s.keeper.Log(), "declined a request") > declines || len(sqlitetest.Events(t, db)) > len(seen)+1
			}, func() string { return "keeper log:\n" + s.keeper.Log() })
			var rows []string
			for _, e := range events(t, s.home) {
				if !seen[e.ID] { // the second row had no payload to take an id from
					rows = append(rows, e.ToolUseID+" "+e.Decision+" "+e.Error)
				}
			}
			if len(rows) != 1 || rows[0] != id+" allow " {
				t.Fatalf("one hook left %d rows, want exactly one clean row: %q", len(rows), rows)
			}
		})
	}
}

// stdinOf is payload as a hook's stdin: a regular file, or the read end
// of a pipe holding it, its write end closed (as Claude Code leaves it).
func stdinOf(t *testing.T, kind, payload string) *os.File {
	t.Helper()
	if kind == "file" {
		f := tempFile(t)
		if _, err := f.WriteString(payload); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Seek(0, 0); err != nil {
			t.Fatal(err)
		}
		return f
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.WriteString(payload); err != nil {
		t.Fatal(err)
	}
	return r
}

func tempFile(t *testing.T) *os.File {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stdio")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
