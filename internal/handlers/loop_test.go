package handlers

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/loop"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/session"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// loopEnv is a project with a loop in a real store; stop runs the loop
// handler for one Stop as the hook would.
type loopEnv struct {
	t       *testing.T
	st      *sqlite.Store
	cfg     *config.Config
	project string
}

func newLoopEnv(t *testing.T, criteria, checks []string, max int) *loopEnv {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := config.Defaults()
	cfg.LLM.Provider = "none"
	e := &loopEnv{t: t, st: st, cfg: cfg, project: t.TempDir()}
	l, err := loop.New(e.project, "write done.txt", criteria, checks, max, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := loop.Save(context.Background(), st, l); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *loopEnv) stop(last string, active bool) event.Decision {
	e.t.Helper()
	in := &event.Input{SessionID: "s1", HookEventName: event.Stop, LastAssistantMessage: last, StopHookActive: active}
	d, err := runLoop(context.Background(), &pipeline.Call{Event: event.Stop, Input: in, State: &session.State{},
		Config: e.cfg, Store: e.st, ProjectDir: e.project, Enabled: true, Now: time.Now()})
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

func (e *loopEnv) loop() *loop.Loop {
	l, err := loop.Load(context.Background(), e.st, e.project)
	if err != nil || l == nil {
		e.t.Fatalf("load loop: %v %v", l, err)
	}
	return l
}

func TestLoopBlocksUntilTheCheckPasses(t *testing.T) {
	e := newLoopEnv(t, []string{"done.txt exists"}, []string{"test -f done.txt || { echo 'done.txt is missing'; exit 3; }"}, 5)
	d := e.stop("I am finished.", false)
	if d.Verdict != event.Deny || d.RuleID != "loop:criteria" {
		t.Fatalf("first stop: %+v, want a loop:criteria block", d)
	}
	for _, want := range []string{"iteration 1 of 5", "exited 3", "done.txt is missing", `"write done.txt"`} {
		if !strings.Contains(d.Reason, want) {
			t.Errorf("block reason lacks %q:\n%s", want, d.Reason)
		}
	}
	// A continuation (stop_hook_active) is still checked: iterating is the point.
	if d := e.stop("still finished", true); d.Verdict != event.Deny || !strings.Contains(d.Reason, "iteration 2 of 5") {
		t.Fatalf("second stop: %+v, want blocked at iteration 2", d)
	}
	if err := os.WriteFile(filepath.Join(e.project, "done.txt"), []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	d = e.stop("now it is there", true)
	if d.Verdict == event.Deny || d.RuleID != "loop:done" || !strings.Contains(d.SystemMessage, "after 3 iteration(s)") {
		t.Fatalf("third stop: %+v, want the loop done with a summary", d)
	}
	l := e.loop()
	if l.Status != loop.Done || l.Iteration != 3 || len(l.History) != 3 || len(l.History[0].Missing) != 1 || len(l.History[2].Missing) != 0 {
		t.Fatalf("loop after: %+v", l)
	}
	// Done: later stops pass untouched and count nothing.
	if d := e.stop("again", false); !d.IsZero() || e.loop().Iteration != 3 {
		t.Fatalf("stop after done: %+v, iteration %d", d, e.loop().Iteration)
	}
}

func TestLoopEndsAtTheMaximumWithASummary(t *testing.T) {
	e := newLoopEnv(t, nil, []string{"false"}, 2)
	if d := e.stop("x", false); d.Verdict != event.Deny {
		t.Fatalf("first stop: %+v, want blocked", d)
	}
	d := e.stop("x", true)
	if d.Verdict == event.Deny || d.RuleID != "loop:max" || !strings.Contains(d.SystemMessage, "maximum of 2 iterations") ||
		!strings.Contains(d.SystemMessage, "NOT done") || !strings.Contains(d.SystemMessage, "check `false` exited 1") {
		t.Fatalf("stop at the maximum: %+v, want allowed with a summary naming what is missing", d)
	}
	if l := e.loop(); l.Status != loop.MaxedOut || l.Iteration != 2 {
		t.Fatalf("loop: %+v", l)
	}
}

func TestLoopCriteriaWithoutJudgeNeedClaudesDeclaration(t *testing.T) {
	e := newLoopEnv(t, []string{"the README documents the flag"}, nil, 5)
	d := e.stop("Done, I think.", false)
	if d.Verdict != event.Deny || !strings.Contains(d.Reason, "the README documents the flag") || !strings.Contains(d.Reason, loop.DoneMarker) {
		t.Fatalf("undeclared: %+v", d)
	}
	if d := e.stop("The README documents the flag (section Flags). "+loop.DoneMarker, true); d.RuleID != "loop:done" {
		t.Fatalf("declared: %+v, want done", d)
	}
}

func TestLoopCriteriaGoToTheJudgeWhenConfigured(t *testing.T) {
	e := newLoopEnv(t, []string{"the README documents the flag"}, []string{"true"}, 5)
	j := newJudgeEnv(t, "BLOCKED: the flag is not in the README", "APPROVED") // a fake warden-helper
	e.cfg = j.cfg
	d := e.stop("Added it.", false)
	if d.Verdict != event.Deny || !strings.Contains(d.Reason, "the judge: the flag is not in the README") {
		t.Fatalf("judged stop: %+v", d)
	}
	if d := e.stop("Added it, see README.md line 40.", true); d.RuleID != "loop:done" {
		t.Fatalf("second judged stop: %+v, want done", d)
	}
	reqs := j.requests()
	if len(reqs) != 2 || reqs[0].Judge != "loop" || !strings.Contains(reqs[0].Prompt, "the README documents the flag") ||
		!strings.Contains(reqs[0].Prompt, "write done.txt") {
		t.Fatalf("judge requests: %d %+v", len(reqs), reqs)
	}
}

// A check that outlives the Stop's budget counts as failed, and the
// iteration is still counted and saved.
func TestLoopCheckPastTheDeadlineIsCountedAsMissing(t *testing.T) {
	e := newLoopEnv(t, nil, []string{"sleep 30"}, 5)
	ctx, cancel := context.WithTimeout(context.Background(), loopSaveReserve+time.Second)
	defer cancel()
	start := time.Now()
	in := &event.Input{SessionID: "s1", HookEventName: event.Stop}
	d, err := runLoop(ctx, &pipeline.Call{Event: event.Stop, Input: in, State: &session.State{},
		Config: e.cfg, Store: e.st, ProjectDir: e.project, Enabled: true, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > loopSaveReserve+time.Second {
		t.Errorf("took %v, past the budget", took)
	}
	if d.Verdict != event.Deny || !strings.Contains(d.Reason, "did not finish in time") {
		t.Fatalf("decision %+v, want blocked with the check timed out", d)
	}
	if l := e.loop(); l.Iteration != 1 {
		t.Errorf("iteration %d, want 1 (counted and saved)", l.Iteration)
	}
}

// A loop stopped by the user while the checks run stays stopped, and the
// stop is not blocked.
func TestLoopStoppedDuringTheChecksStaysStopped(t *testing.T) {
	e := newLoopEnv(t, nil, []string{"false"}, 5)
	l := e.loop()
	marker := filepath.Join(e.project, "checking")
	// The check marks that it runs, then waits until the user has stopped the loop.
	l.Checks = []string{"touch checking; while [ ! -f stopped ]; do sleep 0.05; done; false"}
	if err := loop.Save(context.Background(), e.st, l); err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			if _, err := os.Stat(marker); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		cur := e.loop()
		cur.Status = loop.Stopped
		loop.Save(context.Background(), e.st, cur)
		os.WriteFile(filepath.Join(e.project, "stopped"), nil, 0o644)
	}()
	if d := e.stop("x", false); d.Verdict == event.Deny {
		t.Fatalf("stop: %+v, want not blocked once the user stopped the loop", d)
	}
	if l := e.loop(); l.Status != loop.Stopped || l.Iteration != 0 {
		t.Errorf("loop after: status %s iteration %d, want stopped, not counted", l.Status, l.Iteration)
	}
}
