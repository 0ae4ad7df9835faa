package dashboard_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/task"
)

// fakeAnswers is the daemon's agent control as far as answering goes: it
// records each answer (the real one types into the agent's tmux window,
// tested in e2e with Claude Code).
type fakeAnswers struct {
	server.AgentControl
	mu  sync.Mutex
	got []string
}

func (f *fakeAnswers) Answer(_ context.Context, id string, approve, always bool, reason string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	verb := map[bool]string{true: "approve ", false: "deny "}[approve]
	if always {
		verb = "approve-always "
	}
	f.got = append(f.got, verb+id+" "+reason)
	return "Bash `cat .env`", nil
}

func (f *fakeAnswers) answers() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.got, "|")
}

// A task whose agent waits on a call the policy asked about offers
// Approve, Always (for this task) and Deny on its card and its page; the
// buttons go through the API to the agents' answerer, the reason with the
// denial. Other tasks offer none.
func TestTasksApproveAndDenyInTheBrowser(t *testing.T) {
	fa := &fakeAnswers{}
	e := newEnvWith(t, func(o *server.Options) { o.Agents = fa })
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	seed(t, e, now)
	id := e.taskIDs["running"]
	waiting, note := "waiting", "asks a person: Bash `cat .env` (core.secrets:read-secret: cat reads .env, which holds secrets)"
	if _, err := e.st.UpdateTask(context.Background(), id, task.Change{AgentState: &waiting, AgentNote: &note, Time: now}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, 1280, 860, false)
	b.login(t, e)
	b.open(t, e.url("/tasks"))
	if n := eval[int](t, b, `document.querySelectorAll('button.approve:not(.always)').length`); n != 1 {
		t.Fatalf("%d approve buttons on the board, want 1 (the waiting task's)", n)
	}
	card := `article[data-task="` + id + `"]`
	if txt := eval[string](t, b, `document.querySelector('`+card+`').innerText`); !strings.Contains(txt, "asks a person: Bash `cat .env`") {
		t.Errorf("the card does not say what is asked: %q", txt)
	}
	// A mark on this page tells the page the answer leads to apart.
	eval[bool](t, b, `window.__before = true`)
	b.do(t, chromedp.Click(chromedp.CSS(card+` button.approve:not(.always)`)))
	b.waitFor(t, `!window.__before && location.pathname === '/tasks' && document.readyState === 'complete'`, 10*time.Second)
	if got := fa.answers(); got != "approve "+id+" " {
		t.Fatalf("answers after approve: %q", got)
	}
	b.open(t, e.url("/tasks/"+id))
	eval[bool](t, b, `window.__before = true`)
	b.do(t, chromedp.Click(chromedp.CSS(`dd.answer button.approve.always`)))
	b.waitFor(t, `!window.__before && location.pathname === '/tasks/`+id+`' && document.readyState === 'complete'`, 10*time.Second)
	testenvWait(t, func() bool { return strings.HasSuffix(fa.answers(), "|approve-always "+id+" ") })
	eval[bool](t, b, `window.__before = true`)
	b.do(t,
		chromedp.SendKeys(chromedp.CSS(`dd.answer input[name="reason"]`), "secrets stay out"),
		chromedp.Click(chromedp.CSS(`dd.answer button.deny`)),
	)
	b.waitFor(t, `!window.__before && location.pathname === '/tasks/`+id+`' && document.readyState === 'complete'`, 10*time.Second)
	testenvWait(t, func() bool { return strings.HasSuffix(fa.answers(), "|deny "+id+" secrets stay out") })
	if errs := b.takeErrors(); len(errs) > 0 {
		t.Errorf("browser errors: %v", errs)
	}
	b.open(t, e.url("/tasks/"+e.taskIDs["queued"]))
	if n := eval[int](t, b, `document.querySelectorAll('button.approve, button.deny').length`); n != 0 {
		t.Errorf("a queued task offers %d answer buttons", n)
	}
}

func testenvWait(t *testing.T, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatal("condition not met in 10s")
}
