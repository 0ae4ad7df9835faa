package agent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// privateTmux is a tmux server on a socket of the test's own, killed at
// the end. Without tmux the test is skipped, or failed under CI=true.
func privateTmux(t *testing.T) *Tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if testenv.InCI() {
			t.Fatal("tmux is required (scripts/test-deps.sh installs it)")
		}
		t.Skip("tmux not installed")
	}
	// A short directory: unix socket paths are limited to ~100 bytes.
	dir, err := os.MkdirTemp("", "wt")
	if err != nil {
		t.Fatal(err)
	}
	tm := &Tmux{Socket: filepath.Join(dir, "s")}
	t.Cleanup(func() {
		_ = tm.KillServer(context.Background())
		os.RemoveAll(dir)
	})
	return tm
}

// startWindow launches a ModeCommand agent running a shell snippet in a
// window named task.
func startWindow(t *testing.T, tm *Tmux, task, dir, script string) {
	t.Helper()
	argv, err := WriteLaunchScript(filepath.Join(t.TempDir(), task+".sh"), LaunchSpec{
		Task: task, Dir: dir, Prompt: "say 'hi'", Mode: ModeCommand,
		Command: []string{"/bin/sh", "-c", script, "agent", "{prompt}", "{task}", "{dir}"},
		Env:     []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "SECRET=a b'c", "bad-name=x"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := tm.NewWindow(context.Background(), WindowSpec{Name: task, Dir: dir, Argv: argv}); err != nil {
		t.Fatal(err)
	}
}

func TestTmuxWindowPerTaskWithEnvAndArgv(t *testing.T) {
	tm := privateTmux(t)
	ctx := context.Background()
	dir := t.TempDir()
	out := filepath.Join(dir, "seen")
	// The agent reports what it was started with, then waits.
	script := `printf '%s|%s|%s|%s|%s|%s\n' "$WARDEN_TASK_ID" "$PWD" "$1" "$2" "$3" "$SECRET" > seen; echo agent-ready; exec sleep 600`
	startWindow(t, tm, "t1", dir, script)
	startWindow(t, tm, "t10", dir, "exec sleep 600")

	testenv.WaitFor(t, 10*time.Second, "the agent to start", func() bool { b, _ := os.ReadFile(out); return len(b) > 0 })
	b, _ := os.ReadFile(out)
	if want := "t1|" + dir + "|say 'hi'|t1|" + dir + "|a b'c\n"; string(b) != want {
		t.Errorf("agent saw %q, want %q", b, want)
	}
	ws, err := tm.Windows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 2 || ws[0].Name != "t1" || ws[1].Name != "t10" || ws[0].Dead || ws[0].PanePID == 0 {
		t.Fatalf("windows %+v, want t1 and t10 alive", ws)
	}
	// The pane's process is the agent itself (exec all the way down).
	testenv.WaitFor(t, 5*time.Second, "the pane process to be sleep 600", func() bool {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(ws[1].PanePID) + "/cmdline")
		return strings.HasPrefix(strings.ReplaceAll(string(cmdline), "\x00", " "), "sleep 600")
	})
	testenv.WaitFor(t, 5*time.Second, "the pane to show output", func() bool {
		s, _ := tm.Capture(ctx, "t1", 100)
		return strings.Contains(s, "agent-ready")
	})
	if err := tm.NewWindow(ctx, WindowSpec{Name: "t1", Dir: dir, Argv: []string{"/bin/true", "x"}}); err == nil {
		t.Error("a second window t1 was opened")
	}
	// Exact targets: killing t1 leaves t10.
	if err := tm.KillWindow(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	ws, _ = tm.Windows(ctx)
	if len(ws) != 1 || ws[0].Name != "t10" {
		t.Fatalf("after killing t1: %+v", ws)
	}
	if err := tm.KillWindow(ctx, "t1"); err != nil {
		t.Errorf("killing a window already gone: %v", err)
	}
	if _, err := tm.Capture(ctx, "t", 10); err == nil {
		t.Error("capture of window \"t\" matched a window by prefix")
	}
}

// A process that exits (even at once) leaves its window, dead, with its
// exit status and its last screen.
func TestTmuxKeepsDeadWindowWithStatus(t *testing.T) {
	tm := privateTmux(t)
	ctx := context.Background()
	startWindow(t, tm, "crash", t.TempDir(), "echo last words; sleep 0.5; exit 3")
	var w *Window
	testenv.WaitFor(t, 10*time.Second, "the window to die", func() bool {
		w, _ = tm.Window(ctx, "crash")
		return w != nil && w.Dead
	})
	// The status follows the death by a moment, when tmux reaps the
	// process; tmux 3.3a at times never shows it (then -1, never another
	// number).
	for deadline := time.Now().Add(3 * time.Second); w.DeadStatus == -1 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		w, _ = tm.Window(ctx, "crash")
	}
	switch w.DeadStatus {
	case 3:
	case -1:
		t.Log("tmux did not report the exit status")
	default:
		t.Errorf("dead status %d, want 3", w.DeadStatus)
	}
	if s, _ := tm.Capture(ctx, "crash", 50); !strings.Contains(s, "last words") {
		t.Errorf("capture: %q", s)
	}
	if err := tm.KillWindow(ctx, "crash"); err != nil {
		t.Fatal(err)
	}
	if ws, err := tm.Windows(ctx); err != nil || len(ws) != 0 {
		t.Errorf("windows after the last was killed: %v %v", ws, err)
	}
}

func TestAgentArgv(t *testing.T) {
	dir := t.TempDir()
	claude := filepath.Join(dir, "claude")
	os.WriteFile(claude, []byte("#!/bin/sh\n"), 0o755)
	got, err := AgentArgv(LaunchSpec{Claude: claude, PermissionMode: "acceptEdits", Prompt: "-fix it"})
	if err != nil || strings.Join(got, " ") != claude+" --permission-mode acceptEdits -- -fix it" {
		t.Errorf("interactive: %q %v", got, err)
	}
	// bypassPermissions: Claude Code's one-time warning is accepted on the
	// agent's own command line, not in the user's config.
	got, err = AgentArgv(LaunchSpec{Claude: claude, PermissionMode: "bypassPermissions", Prompt: "p"})
	if err != nil || strings.Join(got, " ") != claude+` --permission-mode bypassPermissions --settings {"skipDangerousModePermissionPrompt":true} -- p` {
		t.Errorf("bypass: %q %v", got, err)
	}
	got, err = AgentArgv(LaunchSpec{Claude: claude, Mode: ModeHeadless, Prompt: "p"})
	if err != nil || strings.Join(got, " ") != claude+" -p -- p" {
		t.Errorf("headless: %q %v", got, err)
	}
	if _, err := AgentArgv(LaunchSpec{Claude: filepath.Join(dir, "missing"), Prompt: "p"}); err == nil || !strings.Contains(err.Error(), "npm install") {
		t.Errorf("missing claude: %v", err)
	}
	if _, err := AgentArgv(LaunchSpec{Mode: "vim"}); err == nil {
		t.Error("unknown mode accepted")
	}
	if _, err := AgentArgv(LaunchSpec{Mode: ModeCommand}); err == nil {
		t.Error("command mode without a template accepted")
	}
	got, err = AgentArgv(LaunchSpec{Mode: ModeCommand, Task: "t1", Dir: dir, Prompt: "p q",
		Command: []string{"/bin/echo", "--task={task}", "{prompt}", "{prompt_file}"}})
	if err != nil || strings.Join(got, "|") != "/bin/echo|--task=t1|p q|"+filepath.Join(dir, ".warden", "prompt.txt") {
		t.Errorf("template: %q %v", got, err)
	}
}

func TestMissingTmuxIsAClearError(t *testing.T) {
	tm := &Tmux{Bin: "tmux-not-installed-here"}
	err := tm.NewWindow(context.Background(), WindowSpec{Name: "t1", Argv: []string{"x"}})
	if err != ErrNoTmux {
		t.Errorf("err = %v, want ErrNoTmux", err)
	}
}
