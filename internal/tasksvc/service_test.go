package tasksvc_test

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/orchestrator"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/tasksvc"
	"github.com/warden-dev/warden/internal/testenv"
)

// wakes counts the scheduler's wake-ups around the real scheduler.
type wakes struct {
	*orchestrator.Scheduler
	n int
}

func (w *wakes) Notify() { w.n++; w.Scheduler.Notify() }

type rig struct {
	svc     *tasksvc.Service
	st      *sqlite.Store
	sched   *wakes
	project string
	created []string
	refused []string
}

// newRig builds the service over a real SQLite file and the real
// scheduler (not started: nothing runs the tasks).
func newRig(t *testing.T, queueSize int) *rig {
	t.Helper()
	dir := t.TempDir()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ps := pace.DefaultSettings()
	sched, err := orchestrator.New(orchestrator.Options{Store: st, Settings: st, Owner: "test",
		Runners: map[string]agent.Runner{agent.HeadlessName: &agent.Headless{Command: "/nonexistent/claude", Dir: filepath.Join(dir, "tasks")}},
		Quota:   &orchestrator.PaceQuota{Settings: ps, Figures: orchestrator.StoreFigures(st, ps)}})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{st: st, sched: &wakes{Scheduler: sched}, project: filepath.Join(dir, "proj")}
	now := testenv.Now()
	r.svc, err = tasksvc.New(tasksvc.Options{Store: st, Scheduler: r.sched, QueueSize: queueSize,
		Now:      func() time.Time { now = now.Add(time.Millisecond); return now },
		Created:  func(t *task.Task) { r.created = append(r.created, t.Source) },
		Rejected: func(why string) { r.refused = append(r.refused, why) }})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAddQueuesAndWakes: a valid task is stored queued with what was
// asked (the project cleaned, a profile's operations added), the
// scheduler is woken once and the observer told.
func TestAddQueuesAndWakes(t *testing.T) {
	r := newRig(t, 10)
	ctx := context.Background()
	got, created, err := r.svc.Add(ctx, tasksvc.Request{Project: r.project + "/sub/..", Prompt: "write the changelog",
		Priority: 5, Source: "cli", Criteria: []string{"committed"}})
	if err != nil || !created {
		t.Fatalf("add: %v created=%v", err, created)
	}
	if got.Status != task.Queued || got.Project != r.project || got.Priority != 5 || got.Source != "cli" {
		t.Errorf("stored %+v", got)
	}
	stored, err := r.st.Task(ctx, got.ID)
	if err != nil || stored.Prompt != "write the changelog" {
		t.Fatalf("in the store: %+v, %v", stored, err)
	}
	if r.sched.n != 1 || len(r.created) != 1 || r.created[0] != "cli" {
		t.Errorf("wake-ups %d, created %v; want 1 and [cli]", r.sched.n, r.created)
	}
	list, err := r.svc.List(ctx, task.Filter{})
	if err != nil || len(list) != 1 {
		t.Errorf("list: %v, %v", list, err)
	}
	d, err := r.svc.Get(ctx, got.ID)
	if err != nil || d.Task.ID != got.ID || d.History == nil || d.Decisions == nil {
		t.Errorf("get: %+v, %v", d, err)
	}
}

// TestAddRefusesBrokenRules: each broken rule is an *InvalidError naming
// its field, with a message that says the fix, and nothing is stored.
func TestAddRefusesBrokenRules(t *testing.T) {
	r := newRig(t, 10)
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		req   tasksvc.Request
		field string
		says  string
	}{
		{"empty prompt", tasksvc.Request{Project: r.project, Prompt: "  "}, "prompt", "say what the agent should do"},
		{"no project", tasksvc.Request{Prompt: "x"}, "project", "absolute path"},
		{"relative project", tasksvc.Request{Project: "rel/dir", Prompt: "x"}, "project", "absolute path"},
		{"control character", tasksvc.Request{Project: "/p\x00/..", Prompt: "x"}, "project", "control character at byte 2"},
		{"priority", tasksvc.Request{Project: r.project, Prompt: "x", Priority: task.MaxPriority + 1}, "priority", "out of range"},
		{"profile", tasksvc.Request{Project: r.project, Prompt: "x", Profile: "nosuch"}, "profile", "use one of"},
		{"allow", tasksvc.Request{Project: r.project, Prompt: "x", Allow: []string{"fly"}}, "allow", "not an operation"},
		{"long source", tasksvc.Request{Project: r.project, Prompt: "x", Source: strings.Repeat("s", 41)}, "source", "too long"},
		{"long agent", tasksvc.Request{Project: r.project, Prompt: "x", Agent: strings.Repeat("a", 41)}, "agent", "not a kind warden runs"},
		{"unknown agent", tasksvc.Request{Project: r.project, Prompt: "x", Agent: "cursor"}, "agent", "use one of tmux, claude-p, codex, gemini, copilot"},
	} {
		_, _, err := r.svc.Add(ctx, tc.req)
		var inv *tasksvc.InvalidError
		if !errors.As(err, &inv) || !errors.Is(err, tasksvc.ErrInvalid) {
			t.Errorf("%s: %v, want an InvalidError", tc.name, err)
			continue
		}
		if inv.Field != tc.field || !strings.Contains(inv.Error(), tc.says) {
			t.Errorf("%s: field %q, %q; want %q saying %q", tc.name, inv.Field, inv.Error(), tc.field, tc.says)
		}
	}
	if ts, _ := r.st.Tasks(ctx, task.Filter{}); len(ts) != 0 || r.sched.n != 0 {
		t.Errorf("refused requests stored %d tasks, woke %d times", len(ts), r.sched.n)
	}
}

// TestAddQueueFullAndKeys: beyond the queue size ErrQueueFull (observed
// as queue_full); a retried key returns its task, not created and with no
// wake-up; the key with another prompt is ErrKeyReused.
func TestAddQueueFullAndKeys(t *testing.T) {
	r := newRig(t, 2)
	ctx := context.Background()
	first, _, err := r.svc.Add(ctx, tasksvc.Request{Project: r.project, Prompt: "one", IdempotencyKey: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	again, created, err := r.svc.Add(ctx, tasksvc.Request{Project: r.project, Prompt: "one", IdempotencyKey: "k1"})
	if err != nil || created || again.ID != first.ID || r.sched.n != 1 {
		t.Errorf("retry: %v created=%v id %s (want %s), wake-ups %d", err, created, again.ID, first.ID, r.sched.n)
	}
	_, _, err = r.svc.Add(ctx, tasksvc.Request{Project: r.project, Prompt: "another", IdempotencyKey: "k1"})
	if !errors.Is(err, tasksvc.ErrKeyReused) || !strings.Contains(err.Error(), "use a new key") {
		t.Errorf("key reused: %v", err)
	}
	if _, _, err := r.svc.Add(ctx, tasksvc.Request{Project: r.project, Prompt: "two"}); err != nil {
		t.Fatal(err)
	}
	_, _, err = r.svc.Add(ctx, tasksvc.Request{Project: r.project, Prompt: "three"})
	if !errors.Is(err, tasksvc.ErrQueueFull) || !strings.Contains(err.Error(), "cancel some") {
		t.Errorf("third of two: %v", err)
	}
	if len(r.refused) != 1 || r.refused[0] != "queue_full" {
		t.Errorf("refusals observed: %v", r.refused)
	}
}

// TestCancel: a queued task is cancelled with the reason in its history;
// cancelling it again is ErrWrongStatus; an unknown id is ErrNotFound
// naming it.
func TestCancel(t *testing.T) {
	r := newRig(t, 10)
	ctx := context.Background()
	nt, _, err := r.svc.Add(ctx, tasksvc.Request{Project: r.project, Prompt: "one"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.svc.Cancel(ctx, nt.ID, "changed my mind")
	if err != nil || got.Status != task.Cancelled {
		t.Fatalf("cancel: %+v, %v", got, err)
	}
	d, err := r.svc.Get(ctx, nt.ID)
	if err != nil || len(d.History) == 0 || d.History[len(d.History)-1].Reason != "changed my mind" {
		t.Errorf("history: %+v, %v", d, err)
	}
	if _, err := r.svc.Cancel(ctx, nt.ID, "again"); !errors.Is(err, tasksvc.ErrWrongStatus) || !strings.Contains(err.Error(), "only queued") {
		t.Errorf("cancel twice: %v", err)
	}
	missing := task.NewID(testenv.Now())
	for name, err := range map[string]error{
		"cancel": func() error { _, err := r.svc.Cancel(ctx, missing, "x"); return err }(),
		"get":    func() error { _, err := r.svc.Get(ctx, missing); return err }(),
	} {
		if !errors.Is(err, tasksvc.ErrNotFound) || err.Error() != "no task "+missing {
			t.Errorf("%s of a missing task: %v", name, err)
		}
	}
}

// TestNoHTTP: the queue's rules do not depend on net/http, so every
// caller, not only the API, can use them.
func TestNoHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/warden-dev/warden/internal/tasksvc").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" || strings.HasPrefix(dep, "net/http/") {
			t.Fatalf("internal/tasksvc imports %s; map its errors to HTTP in internal/server instead", dep)
		}
	}
}
