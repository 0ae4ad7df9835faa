package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/task"
)

// ListenTasks hears every queued task another handle (another worker)
// creates, and after its connection is killed it reconnects, says so with
// wake(""), and hears the next ones. The wake-up latency (CreateTask
// called → wake) is logged.
func TestListenTasksWakesAndReconnects(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	listener := open(t)
	writer, err := Open(ctx, listener.Pool().Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	woke := make(chan string, 100)
	done := make(chan error, 1)
	go func() { done <- listener.ListenTasks(ctx, func(id string) { woke <- id }) }()
	next := func() string {
		select {
		case id := <-woke:
			return id
		case <-time.After(10 * time.Second):
			t.Fatal("no wake-up in 10 s")
			return ""
		}
	}
	if id := next(); id != "" {
		t.Fatalf("first wake %q, want the connected signal", id)
	}
	var lat []time.Duration
	for i := range 30 {
		now := time.Now()
		id := fmt.Sprint("t", i)
		start := time.Now()
		if _, _, err := writer.CreateTask(ctx, &task.Task{ID: id, Project: "/p", Prompt: id, Status: task.Queued, CreatedAt: now, UpdatedAt: now}, 0); err != nil {
			t.Fatal(err)
		}
		if got := next(); got != id {
			t.Fatalf("woke for %q, want %q", got, id)
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	t.Logf("NOTIFY wake-up, CreateTask called → wake: median %v, p90 %v, max %v (30 tasks)", lat[15], lat[27], lat[29])

	// Kill the listening session: ListenTasks reconnects and says so.
	tag, err := writer.Pool().Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND query = 'LISTEN `+TaskChannel+`'`)
	if err != nil || tag.RowsAffected() != 1 {
		t.Fatalf("terminate the listener: %v (%d rows)", err, tag.RowsAffected())
	}
	if id := next(); id != "" {
		t.Fatalf("after the kill: woke %q, want the reconnected signal", id)
	}
	now := time.Now()
	if _, _, err := writer.CreateTask(ctx, &task.Task{ID: "after", Project: "/p", Prompt: "p", Status: task.Queued, CreatedAt: now, UpdatedAt: now}, 0); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != "after" {
		t.Fatalf("after reconnecting: woke %q", got)
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("ListenTasks returned %v, want context.Canceled", err)
	}
}

// RecordEvents appends a batch to the chain after single rows, in order,
// and the chain verifies; a failing batch stores nothing.
func TestRecordEventsBatch(t *testing.T) {
	ctx := context.Background()
	st := open(t)
	if err := st.RecordHook(ctx, &store.Event{SessionID: "s", Event: "SessionStart"}, nil); err != nil {
		t.Fatal(err)
	}
	var evs []*store.Event
	dur := int64(5)
	for i := range 500 {
		evs = append(evs, &store.Event{SessionID: "s", Event: "PostToolUse", Tool: "Bash", Reason: fmt.Sprint(i), DurationMS: &dur, Raw: []byte(`{"i":1}`)})
	}
	if err := st.RecordEvents(ctx, evs); err != nil {
		t.Fatal(err)
	}
	if evs[0].ID != 2 || evs[499].ID != 501 {
		t.Errorf("ids %d..%d, want 2..501", evs[0].ID, evs[499].ID)
	}
	if err := st.RecordHook(ctx, &store.Event{SessionID: "s", Event: "Stop"}, nil); err != nil {
		t.Fatal(err)
	}
	n, brk, err := st.VerifyChain(ctx)
	if err != nil || brk != nil || n != 502 {
		t.Fatalf("chain: %d rows, %+v, %v", n, brk, err)
	}
	got, _ := st.Events(ctx, store.Filter{Event: "PostToolUse", Limit: 1})
	if len(got) != 1 || got[0].Reason != "499" || *got[0].DurationMS != 5 || string(got[0].Raw) != `{"i":1}` {
		t.Errorf("last of the batch: %+v", got)
	}
	bad := []*store.Event{{Event: "Stop"}, {Event: "Stop", SessionID: "bad\x00byte"}}
	if err := st.RecordEvents(ctx, bad); err == nil {
		t.Error("a batch with an invalid row was stored")
	}
	if n, _, _ := st.VerifyChain(ctx); n != 502 {
		t.Errorf("%d rows after a failed batch, want 502", n)
	}
}

func TestEventColumnsMatch(t *testing.T) {
	if got := strings.Join(strings.Fields(strings.ReplaceAll(eventCols, ",", " ")), ","); got != strings.Join(eventColumns, ",") {
		t.Errorf("eventColumns differ from eventCols:\n%s\n%s", got, strings.Join(eventColumns, ","))
	}
}
