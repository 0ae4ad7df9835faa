//go:build linux

package cleanup

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// TestFindsExactlyTheOrphansOfAKilledTree starts real process trees — a
// Claude Code stand-in with an MCP server and a subagent that has its own
// MCP server, a live session under a shell, a live one under this test, and
// (as root) the same orphaned tree of another user — kills the first tree's
// root and checks that exactly its three survivors are found and ended.
func TestFindsExactlyTheOrphansOfAKilledTree(t *testing.T) {
	// Adopt orphans here instead of init, so they can be reaped.
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, 36 /* PR_SET_CHILD_SUBREAPER */, 1, 0); e != 0 {
		t.Fatalf("prctl(PR_SET_CHILD_SUBREAPER): %v", e)
	}
	t.Cleanup(reapAll)

	orphanDir := t.TempDir()
	root := start(t, "claude", true, nil, orphanDir, `echo $$ > D/root.pid
(echo $BASHPID > D/mcp.pid; exec -a mcp-server-fake sleep 300) &
(echo $BASHPID > D/sub.pid; exec -a claude bash -c '(echo $BASHPID > D/submcp.pid; exec -a mcp-server-sub sleep 300) & wait') &
wait`)
	liveDir := t.TempDir()
	start(t, "bash", true, nil, liveDir, `echo $$ > D/shell.pid
(echo $BASHPID > D/claude.pid; exec -a claude bash -c '(echo $BASHPID > D/mcp.pid; exec -a mcp-server-live sleep 300) & wait') &
wait`)
	childDir := t.TempDir()
	start(t, "claude", false, nil, childDir, `(echo $BASHPID > D/mcp.pid; exec -a mcp-server-child sleep 300) &
echo $$ > D/claude.pid; wait`)
	var otherDir string
	var otherRoot *exec.Cmd
	if os.Geteuid() == 0 {
		var err error
		if otherDir, err = os.MkdirTemp("", "warden-cleanup-other-"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(otherDir) })
		os.Chmod(otherDir, 0o777) // the other user writes its pids here
		otherRoot = start(t, "claude", true, &syscall.Credential{Uid: 65534, Gid: 65534}, otherDir, `echo $$ > D/root.pid
(echo $BASHPID > D/mcp.pid; exec -a mcp-server-other sleep 300) &
wait`)
	} else if os.Getenv("CI") == "true" {
		t.Error("not root: the other-user part of this test needs root (CI runs as root)")
	}

	orphans := waitPIDs(t, orphanDir, "mcp", "sub", "submcp")
	live := append(waitPIDs(t, liveDir, "shell", "claude", "mcp"), waitPIDs(t, childDir, "claude", "mcp")...)
	var other []int
	if otherDir != "" {
		other = waitPIDs(t, otherDir, "root", "mcp")
	}
	// Every process has exec'd into its final command line.
	testenv.WaitFor(t, 10*time.Second, "the trees to exec", func() bool {
		procs, _ := List()
		n := 0
		for _, p := range procs {
			if len(p.Args) > 0 && (strings.HasPrefix(p.Args[0], "mcp-server-") || p.Args[0] == "claude") {
				n++
			}
		}
		return n >= 7
	})

	syscall.Kill(root.Process.Pid, syscall.SIGKILL)
	root.Wait()
	if otherRoot != nil {
		syscall.Kill(otherRoot.Process.Pid, syscall.SIGKILL)
		otherRoot.Wait()
	}
	testenv.WaitFor(t, 10*time.Second, "the orphans to be adopted", func() bool {
		procs, _ := List()
		for _, p := range procs {
			if contains(orphans, p.PID) && p.PPID == os.Getpid() {
				return true
			}
		}
		return false
	})

	procs, err := List()
	if err != nil {
		t.Fatal(err)
	}
	ours := map[int]bool{}
	for _, p := range append(append(append([]int{}, orphans...), live...), other...) {
		ours[p] = true
	}
	var found []Orphan
	for _, o := range Find(procs, os.Getuid()) {
		if ours[o.PID] {
			found = append(found, o)
		}
		if contains(live, o.PID) || contains(other, o.PID) {
			t.Errorf("listed %d (%s), which is a live session's or another user's", o.PID, o.Command())
		}
	}
	var got []int
	kinds := map[string]int{}
	for _, o := range found {
		got = append(got, o.PID)
		kinds[o.Kind]++
		if o.RSS <= 0 || o.Age(time.Now()) < 0 || o.Age(time.Now()) > time.Minute {
			t.Errorf("%d: rss %d, age %v, want real figures", o.PID, o.RSS, o.Age(time.Now()))
		}
	}
	sort.Ints(got)
	want := append([]int{}, orphans...)
	sort.Ints(want)
	if !equal(got, want) {
		t.Fatalf("found %v, want exactly the orphans %v", got, want)
	}
	if kinds[KindMCP] != 2 || kinds[KindClaude] != 1 {
		t.Errorf("kinds %v, want 2 mcp and 1 claude", kinds)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	killed, failed := Kill(ctx, found, 3*time.Second)
	sort.Ints(killed)
	if !equal(killed, want) || len(failed) > 0 {
		t.Fatalf("killed %v failed %v, want %v", killed, failed, want)
	}
	for _, pid := range live {
		if syscall.Kill(pid, 0) != nil {
			t.Errorf("live process %d is gone", pid)
		}
	}
}

func TestFindOnAdoptedTrees(t *testing.T) {
	procs := []Proc{
		{PID: 1, Comm: "init", Args: []string{"/sbin/init"}},
		{PID: 50, PPID: 1, Comm: "systemd", Args: []string{"/lib/systemd/systemd", "--user"}, UID: 7},
		{PID: 100, PPID: 1, UID: 7, SID: 100, Args: []string{"node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}},
		{PID: 101, PPID: 100, UID: 7, SID: 100, Args: []string{"npx", "@modelcontextprotocol/server-github"}},
		{PID: 102, PPID: 101, UID: 7, SID: 100, Args: []string{"node", "server.js", "--mcp"}},
		{PID: 200, PPID: 50, UID: 7, SID: 9, Args: []string{"uvx", "mcp-server-fetch"}},
		{PID: 300, PPID: 301, UID: 7, SID: 301, Args: []string{"claude"}},
		{PID: 301, PPID: 1, UID: 7, SID: 301, Comm: "zsh", Args: []string{"-zsh"}},
		{PID: 302, PPID: 300, UID: 7, SID: 301, Args: []string{"claude", "-p", "sub"}},
		{PID: 400, PPID: 1, UID: 8, Args: []string{"claude"}},
		{PID: 500, PPID: 1, UID: 7, Args: []string{"vim"}},
		{PID: 600, PPID: 102, UID: 7, SID: 100, Args: []string{"node", "worker.js"}},
	}
	var got []string
	for _, o := range Find(procs, 7) {
		got = append(got, strconv.Itoa(o.PID)+":"+o.Kind)
	}
	if want := "100:claude 101:mcp 102:mcp 600:child 200:mcp"; strings.Join(got, " ") != want {
		t.Errorf("found %v, want %s", got, want)
	}
}

// start runs a bash script (D replaced by dir) as argv0, in its own session
// when setsid.
func start(t *testing.T, argv0 string, setsid bool, cred *syscall.Credential, dir, script string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("/bin/bash", "-c", strings.ReplaceAll(script, "D/", dir+"/"))
	cmd.Args[0] = argv0
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: setsid, Credential: cred}
	if !setsid {
		cmd.SysProcAttr.Setpgid = true
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	return cmd
}

func waitPIDs(t *testing.T, dir string, names ...string) []int {
	t.Helper()
	var pids []int
	for _, n := range names {
		var pid int
		testenv.WaitFor(t, 10*time.Second, n+".pid in "+dir, func() bool {
			b, err := os.ReadFile(filepath.Join(dir, n+".pid"))
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			return err == nil && pid > 0
		})
		pids = append(pids, pid)
		// Kill what is left of the tree at the end, whatever happened.
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	}
	return pids
}

func reapAll() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
