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

// fakeReview is the daemon's agent control as far as replies and merges
// go: it records each call (the real ones type into the agent's tmux
// window and run git, tested in e2e with Claude Code and in
// internal/agent with real git).
type fakeReview struct {
	server.AgentControl
	mu  sync.Mutex
	got []string
}

func (f *fakeReview) note(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, s)
}

func (f *fakeReview) calls() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.got, "|")
}

func (f *fakeReview) Reply(_ context.Context, id, text string) (server.ReplyResult, error) {
	f.note("reply " + id + " " + text)
	return server.ReplyResult{Task: id, Delivered: "follow-up", Status: task.Queued}, nil
}

func (f *fakeReview) Merge(_ context.Context, id string, req server.MergeRequest) (server.MergeResult, error) {
	if req.PR {
		f.note("pr " + id)
		return server.MergeResult{}, &server.Refusal{Msg: "project /p has no GitHub remote (git remote -v)"}
	}
	f.note("merge " + id)
	return server.MergeResult{Task: id, Method: "merge", Base: "main"}, nil
}

// A done task's page offers a reply (a follow-up run) and Merge / Open
// pull request; the form and buttons go through the API to the agents'
// reviewer, and a refusal is shown with its reason. A queued task offers
// neither.
func TestTaskReplyAndMergeInTheBrowser(t *testing.T) {
	fr := &fakeReview{}
	e := newEnvWith(t, func(o *server.Options) { o.Agents = fr })
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	seed(t, e, now)
	id := e.taskIDs["done"]
	b := newBrowser(t, 1280, 860, false)
	b.login(t, e)
	b.open(t, e.url("/tasks/"+id))
	eval[bool](t, b, `window.__before = true`)
	b.do(t,
		chromedp.SendKeys(chromedp.CSS(`dd.reply textarea[name="text"]`), "also add a test"),
		chromedp.Click(chromedp.CSS(`dd.reply button.reply`)),
	)
	b.waitFor(t, `!window.__before && location.pathname === '/tasks/`+id+`' && document.readyState === 'complete'`, 10*time.Second)
	eval[bool](t, b, `window.__before = true`)
	b.do(t, chromedp.Click(chromedp.CSS(`dd.merge button.merge:not(.pr)`)))
	b.waitFor(t, `!window.__before && location.pathname === '/tasks/`+id+`' && document.readyState === 'complete'`, 10*time.Second)
	b.do(t, chromedp.Click(chromedp.CSS(`dd.merge button.merge.pr`)))
	b.waitFor(t, `document.body.innerText.includes('has no GitHub remote')`, 10*time.Second)
	if got := fr.calls(); got != "reply "+id+" also add a test|merge "+id+"|pr "+id {
		t.Errorf("calls: %q", got)
	}
	for _, e := range b.takeErrors() {
		if !strings.Contains(e, "status of 409") { // the refusal's page, on purpose
			t.Errorf("browser error: %v", e)
		}
	}
	b.open(t, e.url("/tasks/"+e.taskIDs["queued"]))
	if n := eval[int](t, b, `document.querySelectorAll('dd.reply, dd.merge').length`); n != 0 {
		t.Errorf("a queued task offers %d reply or merge controls", n)
	}
}
