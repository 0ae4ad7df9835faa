package ship

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// While the shared store cannot be opened, the spool grows and the report
// says so (backlog, oldest, the error, persisted for other processes);
// once it opens, the backlog drains and the report clears.
func TestReportFollowsAnOutage(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sp := newSpool(t)
	path := filepath.Join(t.TempDir(), "shared.db")
	var down atomic.Bool
	down.Store(true)
	dials := atomic.Int32{}
	s := newShipper(t, sp, func(ctx context.Context) (Target, error) {
		dials.Add(1)
		if down.Load() {
			return nil, errors.New("cannot reach PostgreSQL at db:5432/warden (connection refused): start the server")
		}
		return sqlite.Open(ctx, path)
	}, 10)
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	defer func() { cancel(); <-done; s.Close() }()

	want := record(t, sp, 25, "a", "b")
	testenv.WaitFor(t, 10*time.Second, "three failed tries", func() bool { return dials.Load() >= 3 })
	r, err := s.Report(ctx, "postgres://u:secret@db:5432/warden")
	if err != nil {
		t.Fatal(err)
	}
	if r.Reachable || !strings.Contains(r.Error, "connection refused") || r.Backlog != 25 ||
		!r.Oldest.Equal(want[0].Time) || strings.Contains(r.Target, "secret") {
		t.Fatalf("report during the outage: %+v", r)
	}
	// Another process (warden doctor) reads the same from the local store.
	r2, err := Inspect(ctx, sp, "postgres://db/warden", time.Second, nil)
	if err != nil || r2.Backlog != 25 || !strings.Contains(r2.Retrying, "connection refused") || r2.RetryingSince.IsZero() {
		t.Fatalf("inspect during the outage: %+v, %v", r2, err)
	}
	if !strings.Contains(r.BacklogLine(), "25 event(s) waiting") {
		t.Fatalf("backlog line %q", r.BacklogLine())
	}

	down.Store(false)
	testenv.WaitFor(t, 10*time.Second, "the backlog drained", func() bool {
		r, err := Inspect(ctx, sp, "", time.Second, nil)
		return err == nil && r.Backlog == 0
	})
	sh, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	checkArrived(t, sh, want)
	testenv.WaitFor(t, 5*time.Second, "the report cleared", func() bool {
		r, err := Inspect(ctx, sp, "", time.Second, nil)
		return err == nil && r.Retrying == "" && !r.LastShipped.IsZero()
	})
	if r, _ := s.Report(ctx, ""); !r.Reachable || r.Error != "" || r.BacklogLine() != "nothing waiting to be shipped" {
		t.Fatalf("report after the outage: %+v", r)
	}
}

func TestRedactHidesPasswords(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:pw@h:5432/db?sslmode=disable": "postgres://u:xxxxx@h:5432/db?sslmode=disable",
		"postgres://h/db?password=pw&user=u":        "postgres://h/db?password=xxxxx&user=u",
		"host=h dbname=d password=pw user=u":        "host=h dbname=d password=xxxxx user=u",
		"postgres://u@h/db":                         "postgres://u@h/db",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
