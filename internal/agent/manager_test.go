package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// rig is a manager over a real store, a private tmux server, a real git
// project and the fake claude driving the real warden hook.
type rig struct {
	m       *Manager
	st      *sqlite.Store
	home    string
	project string
	cfg     Config
}

func newRig(t *testing.T, plan string, mod func(*Config)) *rig {
	t.Helper()
	tm := privateTmux(t)
	bin := testenv.Binary(t, "warden")
	home := t.TempDir()
	wardenHome := filepath.Join(home, ".warden")
	os.MkdirAll(wardenHome, 0o755)
	// No judge at Stop: the fake has no model behind it.
	os.WriteFile(filepath.Join(wardenHome, "config.toml"), []byte("[tempo]\nenabled = false\n"), 0o644)
	st, err := sqlite.Open(context.Background(), filepath.Join(wardenHome, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	claude := filepath.Join(home, "claude")
	os.WriteFile(claude, []byte(fakeClaude), 0o755)
	r := &rig{st: st, home: home, project: testenv.GitRepo(t, "README.md", "hello\n")}
	r.cfg = Config{
		Worktrees: filepath.Join(wardenHome, "worktrees"), Archives: filepath.Join(wardenHome, "archives"),
		Logs: filepath.Join(wardenHome, "logs"), Scripts: filepath.Join(wardenHome, "run", "agents"),
		Tmux: tm, Mode: ModeHeadless, Claude: claude, IdleTimeout: time.Minute, ExitGrace: 300 * time.Millisecond,
		TrustFile: filepath.Join(home, ".claude.json"),
		Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "WARDEN_HOME=" + wardenHome,
			"WARDEN_KEEPER=off", "WARDEN_BIN=" + bin, "FAKE_PLAN=" + plan},
	}
	if mod != nil {
		mod(&r.cfg)
	}
	r.m = NewManager(r.cfg, st)
	return r
}

func (r *rig) spawn(t *testing.T, task string, criteria ...string) *store.Agent {
	t.Helper()
	a, err := r.m.Spawn(context.Background(), Spec{Task: task, Project: r.project, Prompt: "say hello", Criteria: criteria})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// untilCleaned polls until the task's agent is cleaned up, collecting the
// changes.
func (r *rig) untilCleaned(t *testing.T, task string, d time.Duration) (*Status, []Change) {
	t.Helper()
	var all []Change
	var s *Status
	testenv.WaitFor(t, d, "task "+task+" to end and be cleaned up", func() bool {
		cs, err := r.m.Poll(context.Background())
		if err != nil {
			t.Logf("poll: %v", err)
		}
		all = append(all, cs...)
		s, _ = r.m.Status(context.Background(), task)
		return s != nil && !s.Cleaned.IsZero()
	})
	return s, all
}

func states(h []store.AgentState) string {
	var s []string
	for _, x := range h {
		s = append(s, x.State)
	}
	return strings.Join(s, " ")
}

func TestAgentRunsToDoneFromHookEvents(t *testing.T) {
	r := newRig(t, "commit", nil)
	a := r.spawn(t, "t1", "committed", "clean")
	if a.State != "spawning" || a.Branch != "warden/t1" {
		t.Fatalf("spawned %+v", a)
	}
	s, changes := r.untilCleaned(t, "t1", 30*time.Second)
	if got := states(s.History); got != "spawning working waiting working done" {
		t.Errorf("history %q, want spawning working waiting working done; reasons: %+v", got, s.History)
	}
	if s.State != "done" || s.Archive != "" || len(changes) != 4 || changes[3].To != Done {
		t.Errorf("final %+v, changes %+v", s.Agent, changes)
	}
	if msg := testenv.Git(t, r.project, "log", "-1", "--format=%s", "warden/t1"); strings.TrimSpace(msg) != "add hello" {
		t.Errorf("branch tip %q, want the agent's commit", msg)
	}
	if _, err := os.Stat(a.Worktree); !os.IsNotExist(err) {
		t.Errorf("worktree not removed: %v", err)
	}
	if ws, _ := r.cfg.Tmux.Windows(context.Background()); len(ws) != 0 {
		t.Errorf("windows left: %+v", ws)
	}
	logs, err := r.m.Logs(context.Background(), "t1", 100)
	if err != nil || !strings.Contains(logs, "fake claude -p -- say hello") {
		t.Errorf("logs %q %v", logs, err)
	}
	if n, _ := r.m.Active(context.Background()); n != 0 {
		t.Errorf("%d slots still taken", n)
	}
}

func TestAgentStopWithCriteriaUnmetIsError(t *testing.T) {
	r := newRig(t, "nocommit", nil)
	r.spawn(t, "t1", "committed")
	s, _ := r.untilCleaned(t, "t1", 30*time.Second)
	if s.State != "error" || !strings.Contains(s.Reason, "committed: no commit on the branch") {
		t.Errorf("state %s: %s", s.State, s.Reason)
	}
}

// Crash: the agent process is killed mid-task. The task ends in error
// (within the exit grace, well inside the idle timeout), its uncommitted
// work is archived, its slot is free.
func TestAgentKilledMidTaskIsErrorWithArchive(t *testing.T) {
	r := newRig(t, "hang", nil)
	a := r.spawn(t, "t1")
	ctx := context.Background()
	var w *Window
	testenv.WaitFor(t, 20*time.Second, "the agent to start working", func() bool {
		r.m.Poll(ctx)
		s, _ := r.m.Status(ctx, "t1")
		w, _ = r.cfg.Tmux.Window(ctx, "t1")
		_, err := os.Stat(filepath.Join(a.Worktree, "wip.txt"))
		return s.State == "working" && w != nil && err == nil
	})
	if err := syscall.Kill(w.PanePID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s, _ := r.untilCleaned(t, "t1", 20*time.Second)
	if s.State != "error" || !strings.Contains(s.Reason, "agent process exited") {
		t.Errorf("state %s: %s", s.State, s.Reason)
	}
	if took := time.Since(start); took > r.cfg.IdleTimeout {
		t.Errorf("took %v, longer than the idle timeout", took)
	}
	if s.Archive == "" {
		t.Fatal("no archive of the uncommitted work")
	}
	if files := readArchive(t, s.Archive); files["files/wip.txt"] != "work in progress\n" {
		t.Errorf("archive holds %v", keys(files))
	}
	if n, _ := r.m.Active(ctx); n != 0 {
		t.Errorf("slot not freed")
	}
}

func TestAgentWithoutEventsTimesOut(t *testing.T) {
	r := newRig(t, "idle", func(c *Config) { c.IdleTimeout = time.Second })
	r.spawn(t, "t1")
	s, _ := r.untilCleaned(t, "t1", 20*time.Second)
	if s.State != "timed_out" || !strings.Contains(s.Reason, "agent_idle_timeout") {
		t.Errorf("state %s: %s", s.State, s.Reason)
	}
}

// A killed tmux server ends the task in error; the worktree's work is
// archived all the same.
func TestKilledTmuxServerIsError(t *testing.T) {
	r := newRig(t, "hang", nil)
	a := r.spawn(t, "t1")
	ctx := context.Background()
	testenv.WaitFor(t, 20*time.Second, "work in progress", func() bool {
		_, err := os.Stat(filepath.Join(a.Worktree, "wip.txt"))
		return err == nil
	})
	r.cfg.Tmux.KillServer(ctx)
	s, _ := r.untilCleaned(t, "t1", 20*time.Second)
	if s.State != "error" || !strings.Contains(s.Reason, "window is gone") || s.Archive == "" {
		t.Errorf("final %+v", s.Agent)
	}
}

// A restarted daemon (a new manager over the same store) carries on with
// an agent whose window still runs.
func TestNewManagerCarriesOn(t *testing.T) {
	r := newRig(t, "hang", nil)
	r.spawn(t, "t1")
	ctx := context.Background()
	m2 := NewManager(r.cfg, r.st)
	testenv.WaitFor(t, 20*time.Second, "the new manager to see the agent work", func() bool {
		m2.Poll(ctx)
		s, _ := m2.Status(ctx, "t1")
		return s.State == "working"
	})
	c, err := m2.Kill(ctx, "t1", "cancelled by the user")
	if err != nil || c == nil || c.To != Error {
		t.Fatalf("kill: %+v %v", c, err)
	}
	s, _ := m2.Status(ctx, "t1")
	if s.Cleaned.IsZero() || s.Reason != "cancelled by the user" || s.Archive == "" {
		t.Errorf("after kill %+v", s.Agent)
	}
}

// Refusals leave nothing behind: no worktree, no branch, no agent, no
// window.
func TestSpawnRefusals(t *testing.T) {
	r := newRig(t, "idle", func(c *Config) { c.Claude = "/nonexistent/claude" })
	ctx := context.Background()
	_, err := r.m.Spawn(ctx, Spec{Task: "t1", Project: r.project, Prompt: "p"})
	if err == nil || !strings.Contains(err.Error(), "Claude Code") {
		t.Errorf("missing claude: %v", err)
	}
	r2 := newRig(t, "idle", nil)
	if _, err := r2.m.Spawn(ctx, Spec{Task: "t2", Project: t.TempDir(), Prompt: "p"}); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("not git: %v", err)
	}
	r3 := newRig(t, "idle", func(c *Config) { c.Tmux = &Tmux{Bin: "no-tmux-here"} })
	if _, err := r3.m.Spawn(ctx, Spec{Task: "t3", Project: r3.project, Prompt: "p"}); err != ErrNoTmux {
		t.Errorf("missing tmux: %v", err)
	}
	for _, x := range []*rig{r, r2, r3} {
		if as, _ := x.st.Agents(ctx, true); len(as) != 0 {
			t.Errorf("agents recorded: %+v", as)
		}
		if entries, _ := os.ReadDir(x.cfg.Worktrees); len(entries) != 0 {
			t.Errorf("worktrees left: %v", entries)
		}
	}
	if out := testenv.Git(t, r.project, "branch", "--list", "warden/*"); out != "" {
		t.Errorf("branches left: %s", out)
	}
}

// Interactive mode pre-accepts the trust dialog for the worktree only,
// and takes it back at cleanup.
func TestInteractiveTrustIsForTheWorktreeOnly(t *testing.T) {
	r := newRig(t, "idle", func(c *Config) { c.Mode = ModeInteractive })
	os.WriteFile(r.cfg.TrustFile, []byte(`{"theme":"dark","projects":{"/elsewhere":{"allowedTools":["x"]}}}`), 0o600)
	a := r.spawn(t, "t1")
	var cfg struct {
		Theme    string                    `json:"theme"`
		Projects map[string]map[string]any `json:"projects"`
	}
	readJSON(t, r.cfg.TrustFile, &cfg)
	if len(cfg.Projects) != 2 || cfg.Theme != "dark" || cfg.Projects[a.Worktree]["hasTrustDialogAccepted"] != true ||
		cfg.Projects["/elsewhere"]["allowedTools"] == nil {
		t.Errorf("trust file: %+v", cfg)
	}
	if _, err := r.m.Kill(context.Background(), "t1", ""); err != nil {
		t.Fatal(err)
	}
	cfg.Projects = nil
	readJSON(t, r.cfg.TrustFile, &cfg)
	if len(cfg.Projects) != 1 || cfg.Projects["/elsewhere"] == nil {
		t.Errorf("after cleanup: %+v", cfg)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// The Stop gate: an agent that stops with its work uncommitted is told
// what is missing (its Stop blocked once, through the real hook), commits,
// stops again and its task is done.
func TestAgentStopBlockedForCriteriaThenDone(t *testing.T) {
	r := newRig(t, "latecommit", nil)
	r.spawn(t, "t1", "committed", "clean")
	s, _ := r.untilCleaned(t, "t1", 30*time.Second)
	logs, _ := r.m.Logs(context.Background(), "t1", 200)
	if !strings.Contains(logs, "task t1 is not done yet: committed: no commit on the branch") {
		t.Errorf("the first Stop was not blocked with the criteria:\n%s", logs)
	}
	if s.State != "done" || !strings.Contains(states(s.History), "working") {
		t.Errorf("state %s (%s), history %q", s.State, s.Reason, states(s.History))
	}
	if msg := testenv.Git(t, r.project, "log", "-1", "--format=%s", "warden/t1"); strings.TrimSpace(msg) != "late commit" {
		t.Errorf("branch tip %q", msg)
	}
}
