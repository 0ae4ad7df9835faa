package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/hookwire/settle"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// agentWorld is a throw-away machine for warden's agents: a HOME with
// warden installed by its own installer and Claude Code's onboarding done,
// a git project, the scripted fake API and a private tmux server.
type agentWorld struct {
	Dir, Home, WardenHome, Project string
	Env                            []string
	API                            *fakeAPI
	Tmux                           *agent.Tmux
	Claude                         string
}

func newAgentWorld(t *testing.T, task string, script Script) *agentWorld {
	return newAgentWorldWith(t, wardenBin, task, script)
}

// newAgentWorldWith installs warden from the binary bin (and the helpers
// next to it).
func newAgentWorldWith(t *testing.T, bin, task string, script Script) *agentWorld {
	t.Helper()
	if skipAll != "" {
		t.Skip(skipAll)
	}
	claude := requireClaude(t)
	if wardenErr != nil {
		t.Fatalf("cannot build warden: %v", wardenErr)
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		if testenv.InCI() {
			t.Fatal("tmux is required (scripts/test-deps.sh installs it)")
		}
		t.Skip("tmux not installed")
	}
	dir := t.TempDir()
	if os.Getenv("WARDEN_E2E_KEEP") != "" {
		dir, _ = os.MkdirTemp("", "warden-e2e-agent-")
		t.Logf("run directory (kept): %s", dir)
	}
	w := &agentWorld{Dir: dir, Home: filepath.Join(dir, "home"), Claude: claude}
	w.WardenHome = filepath.Join(w.Home, ".warden")
	t.Cleanup(func() { _ = keeper.Stop(filepath.Join(w.WardenHome, "locks", "keeper.lock"), 10*time.Second) })
	for _, d := range []string{filepath.Join(w.Home, ".claude"), w.WardenHome, filepath.Join(dir, "tmp"), filepath.Join(dir, "shim"), filepath.Join(dir, "markers")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The Stop judge needs a model of its own; these tests are about the
	// agent's life, not about judging.
	os.WriteFile(filepath.Join(w.WardenHome, "config.toml"), []byte("[tempo]\nenabled = false\n"), 0o644)

	w.Project = testenv.GitRepo(t, "README.md", "# demo\n")
	key := "sk-ant-e2e-fake-key-0000000000000000"
	w.Env = []string{
		"PATH=" + writeRmShim(t, dir, w.Home), "HOME=" + w.Home, "TERM=xterm-256color", "LANG=C.UTF-8",
		"TMPDIR=" + filepath.Join(dir, "tmp"), "WARDEN_HOME=" + w.WardenHome,
	}
	out, err := runBin(bin, w.Env, w.Project, "install", "--scope", "user", "--yes")
	if err != nil {
		t.Fatalf("warden install: %v\n%s", err, out)
	}
	// Claude Code's first-run dialogs (onboarding, API key, bypass mode)
	// are answered as a user who used it before would have; the folder
	// trust dialog is not: warden pre-accepts it for the worktree only.
	ver := strings.Fields(mustOutput(t, claude, "--version"))[0]
	cj, _ := json.Marshal(map[string]any{
		"hasCompletedOnboarding": true, "lastOnboardingVersion": ver, "theme": "dark",
		"bypassPermissionsModeAccepted": true, "messageIdleNotifThresholdMs": 2000,
		"customApiKeyResponses": map[string]any{"approved": []string{key[len(key)-20:]}, "rejected": []string{}},
	})
	os.WriteFile(filepath.Join(w.Home, ".claude.json"), cj, 0o600)

	worktree := filepath.Join(w.WardenHome, "worktrees", filepath.Base(w.Project), task)
	w.API = newFakeAPI(script, map[string]string{"CWD": worktree, "HOME": w.Home, "RUN": dir})
	t.Cleanup(w.API.Close)
	w.Env = append(w.Env, "ANTHROPIC_BASE_URL="+w.API.URL(), "ANTHROPIC_API_KEY="+key,
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_BUG_COMMAND=1")
	if os.Geteuid() == 0 {
		w.Env = append(w.Env, "IS_SANDBOX=1")
	}
	sock, _ := os.MkdirTemp("", "wte2e")
	w.Tmux = &agent.Tmux{Socket: filepath.Join(sock, "s")}
	t.Cleanup(func() {
		// Claude Code writes into HOME on its way out: wait for every
		// agent to be gone before the temp directories are removed.
		ws, _ := w.Tmux.Windows(context.Background())
		_ = w.Tmux.KillServer(context.Background())
		for _, win := range ws {
			for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
				if syscall.Kill(win.PanePID, 0) == syscall.ESRCH {
					break
				}
			}
		}
		os.RemoveAll(sock)
	})
	return w
}

func runBin(bin string, env []string, dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustOutput(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return string(out)
}

// commitScript: the model writes a file, commits it, and says it is done.
func commitScript() Script {
	return Script{Steps: []Step{
		{Tools: []ToolUse{{Name: "Write", Input: map[string]any{"file_path": "${CWD}/hello.txt", "content": "hello from the agent\n"}}}},
		{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{
			"command": "git add hello.txt && git -c user.name=agent -c user.email=agent@example.com commit -q -m 'add hello'"}}}},
		{Text: "Done: hello.txt is committed."},
	}, DoneText: "Done."}
}

// The real Claude Code, interactive in a tmux window, runs a task in its
// worktree: the scripted model writes a file and commits it; the task
// reaches done from its hook events alone; the branch has the commit; the
// worktree is gone.
func TestAgentInteractiveInTmuxReachesDone(t *testing.T) {
	const task = "e2e-hello"
	w := newAgentWorld(t, task, commitScript())
	settle.Wait(w.WardenHome, 10*time.Second) // the hook server records after it answers
	st, err := sqlite.Open(context.Background(), filepath.Join(w.WardenHome, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := agent.NewManager(agent.Config{
		Worktrees: filepath.Join(w.WardenHome, "worktrees"), Archives: filepath.Join(w.WardenHome, "archives"),
		Logs: filepath.Join(w.WardenHome, "logs", "agents"), Scripts: filepath.Join(w.WardenHome, "run", "agents"),
		Tmux: w.Tmux, Mode: agent.ModeInteractive, Claude: w.Claude, PermissionMode: "bypassPermissions",
		Env: w.Env, IdleTimeout: 2 * time.Minute, TrustFile: filepath.Join(w.Home, ".claude.json"),
	}, st)
	ctx := context.Background()
	a, err := m.Spawn(ctx, agent.Spec{Task: task, Project: w.Project, Prompt: "Add hello.txt and commit it.",
		Criteria: []string{"committed", "clean"}})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(90 * time.Second)
	var s *agent.Status
	for {
		if _, err := m.Poll(ctx); err != nil {
			t.Logf("poll: %v", err)
		}
		s, _ = m.Status(ctx, task)
		if s != nil && !s.Cleaned.IsZero() {
			break
		}
		if time.Now().After(deadline) {
			logs, _ := w.Tmux.Capture(ctx, task, 80)
			t.Fatalf("task not done within 90 s: %+v\nhistory %+v\npane:\n%s\nAPI:\n%s", s.Agent, s.History, logs, w.API.Summary())
		}
		time.Sleep(200 * time.Millisecond)
	}
	var hist []string
	for _, h := range s.History {
		hist = append(hist, h.State)
	}
	if s.State != "done" || hist[0] != "spawning" || hist[1] != "working" || hist[len(hist)-1] != "done" {
		t.Errorf("final %s (%s), history %v", s.State, s.Reason, s.History)
		logTaskEvents(t, st, task)
		t.Logf("API:\n%s", w.API.Summary())
	}
	if msg := strings.TrimSpace(testenv.Git(t, w.Project, "log", "-1", "--format=%s", "warden/"+task)); msg != "add hello" {
		t.Errorf("branch tip %q, want the agent's commit", msg)
	}
	if _, err := os.Stat(a.Worktree); !os.IsNotExist(err) {
		t.Errorf("worktree still there: %v", err)
	}
	if s.Archive != "" {
		t.Errorf("a clean tree was archived: %s", s.Archive)
	}
}

// logTaskEvents logs what the task's hooks recorded (for a failing test).
func logTaskEvents(t *testing.T, st *sqlite.Store, task string) {
	t.Helper()
	evs, err := st.Events(context.Background(), store.Filter{TaskID: task})
	if err != nil {
		t.Logf("events: %v", err)
		return
	}
	for _, e := range evs {
		t.Logf("  #%d %s %s %s decision=%s rule=%s reason=%q detail=%s error=%q", e.ID, e.Event, e.Tool, e.Path, e.Decision, e.Rule, clip(e.Reason, 160), e.Detail, e.Error)
	}
}
