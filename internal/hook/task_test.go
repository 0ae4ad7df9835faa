package hook

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

// Hooks of warden's agents carry WARDEN_TASK_ID: each event is tagged with
// its caller's task (through one keeper answering callers of different
// tasks), with the detail an agent's state needs, and the chain holds.
func TestEventsTaggedWithTheCallersTask(t *testing.T) {
	s := newServed(t)
	notif := `{"session_id":"s1","cwd":"/tmp","hook_event_name":"Notification","notification_type":"idle_prompt","message":"waiting"}`
	s.hook(t, notif, "WARDEN_TASK_ID=task-a")
	s.hook(t, bashPayload("s2", "/tmp", "ls"), "WARDEN_TASK_ID=task-b")
	s.hook(t, bashPayload("s3", "/tmp", "ls"))

	st := sqlitetest.Store(t, filepath.Join(s.home, "warden.db"))
	evs, err := st.Events(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 3 {
		t.Fatalf("%d events, want 3", len(evs))
	}
	// By session, not by row: each caller is answered before its event is
	// recorded, so the rows of different sessions may land in either order.
	by := map[string]store.Event{}
	for _, e := range evs {
		by[e.SessionID] = e
	}
	if e := by["s1"]; e.TaskID != "task-a" || e.Event != "Notification" || e.Detail != "idle_prompt" {
		t.Errorf("first event %+v", e)
	}
	if e := by["s2"]; e.TaskID != "task-b" || e.Detail != "" {
		t.Errorf("second event %+v", e)
	}
	if e := by["s3"]; e.Event != "PreToolUse" || e.TaskID != "" {
		t.Errorf("an event outside any task: %+v", e)
	}
	only, _ := st.Events(context.Background(), store.Filter{TaskID: "task-b"})
	if len(only) != 1 || only[0].SessionID != "s2" {
		t.Errorf("filter by task: %+v", only)
	}
	if _, brk, err := st.VerifyChain(context.Background()); err != nil || brk != nil {
		t.Errorf("chain: %+v %v", brk, err)
	}
}
