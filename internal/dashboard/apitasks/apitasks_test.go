package apitasks_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/dashboard/apitasks"
	"github.com/warden-dev/warden/internal/orchestrator"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
)

const token = "wdn_apitasks_test_token"

// TestTasksThroughTheAPI drives the adapter against the daemon's real API
// server and task store: it acts only with a token, the API's refusals
// come back as its messages, and add, list, story and cancel round-trip.
func TestTasksThroughTheAPI(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.AddToken(ctx, &store.APIToken{ID: "t", Name: "t", Hash: store.HashAPIToken(token), Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	ps := pace.DefaultSettings()
	sched, err := orchestrator.New(orchestrator.Options{Store: st, Settings: st,
		Runners: map[string]agent.Runner{agent.HeadlessName: &agent.Headless{Command: "/bin/false"}},
		Quota:   &orchestrator.PaceQuota{Settings: ps, Figures: orchestrator.StoreFigures(st, ps)}, Owner: "t:1", System: "t"})
	if err != nil {
		t.Fatal(err)
	}
	api, err := server.New(server.Options{Tasks: st, Scheduler: sched, Tokens: st, Deliveries: st, Events: st})
	if err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	a := apitasks.New(api, project)

	if _, err := a.List(ctx); err == nil || !strings.Contains(err.Error(), "not logged in") {
		t.Errorf("without a token: %v", err)
	}
	if _, err := a.List(dashboard.WithToken(ctx, "wdn_wrong")); err == nil || !strings.Contains(err.Error(), "token") {
		t.Errorf("with a wrong token: %v", err)
	}
	user := dashboard.WithToken(ctx, token)
	if _, err := a.Add(user, dashboard.NewTask{Prompt: "x", Project: "relative/dir"}); err == nil || !strings.Contains(err.Error(), "absolute path") {
		t.Errorf("relative project: %v", err)
	}
	// The form's agent choice: a kind warden runs, or a clear refusal.
	if _, err := a.Add(user, dashboard.NewTask{Prompt: "x", Agent: "cursor"}); err == nil || !strings.Contains(err.Error(), "codex, gemini, copilot") {
		t.Errorf("unknown agent: %v", err)
	}
	added, err := a.Add(user, dashboard.NewTask{Prompt: "Write the changelog\nfor 0.9", Priority: 3, Agent: "gemini"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := st.Task(ctx, added.ID); err != nil || got.Agent != "gemini" {
		t.Errorf("the task's agent: %+v, %v", got, err)
	}
	if added.State != "queued" || added.Project != project || added.Priority != 3 || added.Title != "Write the changelog" {
		t.Errorf("added %+v", added)
	}
	list, err := a.List(user)
	if err != nil || len(list) != 1 || list[0].ID != added.ID {
		t.Fatalf("list = %+v, %v", list, err)
	}
	if err := a.Cancel(user, added.ID); err != nil {
		t.Fatal(err)
	}
	if err := a.Cancel(user, added.ID); err == nil || !strings.Contains(err.Error(), "cancel") {
		t.Errorf("cancelling twice: %v", err)
	}
	story, err := a.Story(user, added.ID)
	if err != nil || story == nil {
		t.Fatalf("story: %+v, %v", story, err)
	}
	var states []string
	for _, s := range story.Steps {
		states = append(states, s.State)
	}
	if story.Task.State != "cancelled" || len(states) < 2 || states[0] != "queued" || states[1] != "cancelled" {
		t.Errorf("story states %q, task %s", states, story.Task.State)
	}
	if s, err := a.Story(user, "tnosuchtask"); s != nil || err != nil {
		t.Errorf("unknown task: %+v, %v", s, err)
	}
}

// TestReadTokenMayNotChangeTasks: the service is called directly, so the
// adapter asks the server for the scope the API routes would need: a
// read token lists the board but neither adds nor cancels, and the
// refusal names the scope to create.
func TestReadTokenMayNotChangeTasks(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const reader = "wdn_apitasks_reader_token"
	if err := st.AddToken(ctx, &store.APIToken{ID: "r", Name: "reader", Scope: store.ScopeRead, Hash: store.HashAPIToken(reader), Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	ps := pace.DefaultSettings()
	sched, err := orchestrator.New(orchestrator.Options{Store: st, Settings: st,
		Runners: map[string]agent.Runner{agent.HeadlessName: &agent.Headless{Command: "/bin/false"}},
		Quota:   &orchestrator.PaceQuota{Settings: ps, Figures: orchestrator.StoreFigures(st, ps)}, Owner: "t:1", System: "t"})
	if err != nil {
		t.Fatal(err)
	}
	api, err := server.New(server.Options{Tasks: st, Scheduler: sched, Tokens: st, Deliveries: st, Events: st})
	if err != nil {
		t.Fatal(err)
	}
	a := apitasks.New(api, t.TempDir())
	user := dashboard.WithToken(ctx, reader)
	if _, err := a.List(user); err != nil {
		t.Errorf("a read token lists: %v", err)
	}
	if _, err := a.Add(user, dashboard.NewTask{Prompt: "x"}); err == nil || !strings.Contains(err.Error(), "--scope tasks") {
		t.Errorf("a read token adds: %v", err)
	}
	if err := a.Cancel(user, "t0000000000000000"); err == nil || !strings.Contains(err.Error(), "--scope tasks") {
		t.Errorf("a read token cancels: %v", err)
	}
	if ts, _ := st.Tasks(ctx, task.Filter{}); len(ts) != 0 {
		t.Errorf("refused adds stored %d tasks", len(ts))
	}
}
