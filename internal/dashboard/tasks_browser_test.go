package dashboard_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/warden-dev/warden/internal/task"
)

// TestTasksBoardAddAndCancel adds a task through the page's form, which
// goes through the daemon's API: it is in the task store and on the board
// in the queued column; cancelling it in the page cancels it in the store
// and moves it to the failed column; a running task's copy button offers
// the attach command.
func TestTasksBoardAddAndCancel(t *testing.T) {
	e := newEnv(t)
	seed(t, e, e.now())
	b := newBrowser(t, 1280, 860, false)
	b.login(t, e)
	b.open(t, e.url("/tasks"))
	for st, want := range map[string]int{"queued": 1, "running": 1, "paused": 1, "done": 1, "failed": 1} {
		if n := eval[int](t, b, `document.querySelectorAll('section[data-state="`+st+`"] article.task').length`); n != want {
			t.Errorf("column %s has %d tasks, want %d", st, n, want)
		}
	}
	b.do(t,
		chromedp.SendKeys(chromedp.ID("prompt"), "Add rate limiting to the login endpoint"),
		chromedp.SetValue(chromedp.CSS(`#add-task input[name="priority"]`), "7"),
		chromedp.SendKeys(chromedp.CSS(`#add-task textarea[name="done_when"]`), "committed\nrun:go test ./..."),
		chromedp.SendKeys(chromedp.CSS(`#add-task input[name="allow"]`), "push, rebase"),
		chromedp.SendKeys(chromedp.CSS(`#add-task input[name="deny"]`), "network"),
		chromedp.Click(chromedp.CSS(`#add-task button[type="submit"]`)),
	)
	b.waitFor(t, `!!document.querySelector('p.good[role="status"]')`, 10*time.Second)
	ts := e.tasks()
	added := ts[len(ts)-1]
	if added.Prompt != "Add rate limiting to the login endpoint" || added.Priority != 7 || added.Status != task.Queued ||
		added.Source != "dashboard" || added.Project != e.project {
		t.Fatalf("task store has %+v", added)
	}
	if fmt.Sprint(added.Criteria, added.Allow, added.Deny) != "[committed run:go test ./...] [push rebase] [network]" {
		t.Errorf("the task's own rules in the store: %q %q %q", added.Criteria, added.Allow, added.Deny)
	}
	sel := `section[data-state="queued"] article[data-task="` + added.ID + `"]`
	if n := eval[int](t, b, `document.querySelectorAll('`+sel+`').length`); n != 1 {
		t.Fatalf("the added task %s is not in the queued column", added.ID)
	}
	// A queued task has no agent to attach to; a running one does.
	if n := eval[int](t, b, `document.querySelectorAll('`+sel+` button.copy').length`); n != 0 {
		t.Errorf("queued task offers an attach command")
	}
	running := e.taskIDs["running"]
	if cmd := eval[string](t, b, `document.querySelector('section[data-state="running"] article[data-task="`+running+`"] button.copy').dataset.copy`); cmd != "warden agent attach "+running {
		t.Errorf("running task's attach command %q", cmd)
	}
	b.do(t, chromedp.Click(chromedp.CSS(sel+` button.danger`)))
	b.waitFor(t, `!!document.querySelector('section[data-state="failed"] article[data-task="`+added.ID+`"]')`, 10*time.Second)
	ts = e.tasks()
	if ts[len(ts)-1].Status != task.Cancelled {
		t.Errorf("after cancel the store has status %q", ts[len(ts)-1].Status)
	}
	// The task's page shows its own rules.
	b.open(t, e.url("/tasks/"+added.ID))
	if kv := eval[string](t, b, `document.querySelector('dl.kv').innerText`); !strings.Contains(kv, "committed; run:go test ./...") ||
		!strings.Contains(kv, "allow push, rebase · deny network") {
		t.Errorf("task page:\n%s", kv)
	}
	if errs := b.takeErrors(); len(errs) > 0 {
		t.Errorf("browser errors: %q", errs)
	}
}
