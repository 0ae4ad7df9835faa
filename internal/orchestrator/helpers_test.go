package orchestrator

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
)

// fakeClaude is the test's `claude` executable: it logs each start, fails
// on a prompt starting with "fail", waits for a release file on one
// starting with "wait", and prints a --output-format json result.
const fakeClaude = `#!/bin/sh
prompt=$(cat) # on stdin (internal/agent/runner_headless.go)
echo "$WARDEN_TASK_ID $PWD $* <$prompt" >> "$FAKE_LOG"
case "$prompt" in
  fail*) echo "model overloaded" >&2; exit 3 ;;
  wait*) while [ ! -e "$FAKE_RELEASE/$WARDEN_TASK_ID" ]; do sleep 0.02; done ;;
esac
printf '{"type":"result","is_error":false,"result":"did: %s"}\n' "$prompt"
`

type rig struct {
	t       *testing.T
	st      *sqlite.Store
	clock   *FakeClock
	sched   *Scheduler
	project string
	release string
	log     string
}

// newRig makes a scheduler over a real store, the headless runner with the
// fake claude, and pacing from snapshots stored as the status line stores
// them.
func newRig(t *testing.T, maxAgents int) *rig {
	t.Helper()
	dir := t.TempDir()
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	bin := filepath.Join(dir, "bin", "claude")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	if err := os.WriteFile(bin, []byte(fakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, st: st, project: filepath.Join(dir, "project"), release: filepath.Join(dir, "release"), log: filepath.Join(dir, "claude.log")}
	os.MkdirAll(r.project, 0o755)
	os.MkdirAll(r.release, 0o755)
	env := append(os.Environ(), "FAKE_LOG="+r.log, "FAKE_RELEASE="+r.release)
	// A weekday noon, so the 7-day allowance is ordinary.
	r.clock = NewFakeClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	ps := pace.DefaultSettings()
	r.sched, err = New(Options{
		Store: st, Settings: st, Clock: r.clock, Owner: "test", MaxAgents: maxAgents,
		Runners: map[string]agent.Runner{agent.HeadlessName: &agent.Headless{Command: bin, Args: []string{"--output-format", "json"}, Env: env, Dir: filepath.Join(dir, "tasks"), Grace: time.Second}},
		Quota:   &PaceQuota{Settings: ps, Figures: StoreFigures(st, ps)},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		r.sched.Shutdown(ctx)
	})
	return r
}

// figures stores a status-line snapshot: utilisations and resets relative
// to the fake clock.
func (r *rig) figures(five float64, fiveReset time.Duration, seven float64, sevenReset time.Duration) {
	r.t.Helper()
	now := r.clock.Now()
	fr, sr := now.Add(fiveReset), now.Add(sevenReset)
	if _, err := r.st.AddSnapshot(context.Background(), &quota.Snapshot{Time: now, Source: quota.SourceStatusline,
		FiveHour: quota.Window{Util: &five, ResetsAt: &fr}, SevenDay: quota.Window{Util: &seven, ResetsAt: &sr}}); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) add(id, prompt string, pri int) {
	r.t.Helper()
	now := r.clock.Now()
	if _, _, err := r.st.CreateTask(context.Background(), &task.Task{ID: id, Project: r.project, Prompt: prompt, Priority: pri,
		Status: task.Queued, Source: "test", CreatedAt: now, UpdatedAt: now}, 0); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) step() {
	r.t.Helper()
	if err := r.sched.Step(context.Background()); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) status(id string) task.Status {
	r.t.Helper()
	t, err := r.st.Task(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return t.Status
}

func (r *rig) statuses(ids ...string) string {
	var out []string
	for _, id := range ids {
		out = append(out, id+"="+string(r.status(id)))
	}
	return strings.Join(out, " ")
}

// stepUntil steps until cond holds (agents end in their own time), or
// fails after 15 s.
func (r *rig) stepUntil(what string, cond func() bool) {
	r.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			r.t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
		r.step()
	}
}

func (r *rig) releaseTask(id string) {
	os.WriteFile(filepath.Join(r.release, id), nil, 0o644)
}

func (r *rig) decisions(taskID string) []string {
	ds, err := r.st.Decisions(context.Background(), taskID, 0, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []string
	for _, d := range ds {
		out = append(out, d.Action+": "+d.Reason)
	}
	return out
}

func has(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func must(t *testing.T, cond bool, format string, args ...any) {
	t.Helper()
	if !cond {
		t.Fatalf(format, args...)
	}
}

var _ = fmt.Sprint
