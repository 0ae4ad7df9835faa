package postgres

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

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
