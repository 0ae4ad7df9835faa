package hook

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/handlers"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// errGone stands for hookserve's cause when a request's client went away.
var errGone = errors.New("its caller went away")

// servedStore is a home with a store holding one clean row, and that
// store open as a resident server holds it.
func servedStore(t *testing.T) (home string, st store.Local) {
	t.Helper()
	home, _ = env(t)
	runHook(t, strings.NewReader(payload("Notification", `"message":"first"`)))
	st, err := sqlite.Open(context.Background(), filepath.Join(home, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return home, st
}

// servedRun runs one Notification hook as a resident server does (its
// shared store, the request's context) and returns its stderr and the
// error its row records.
func servedRun(t *testing.T, ctx context.Context, home string, st store.Local, extra ...pipeline.Handler) (stderr, rowErr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := invoke(ctx, &invocation{env: reqenv.Process(), stdin: strings.NewReader(payload("Notification", `"message":"second"`)),
		stdout: &out, stderr: &errb, store: st, handlers: append(handlers.All(), extra...)})
	if code != 0 || out.Len() > 0 {
		t.Fatalf("a called-off hook: code %d stdout %q stderr %q", code, out.String(), errb.String())
	}
	evs := events(t, home)
	if len(evs) != 2 {
		t.Fatalf("%d rows, want 2", len(evs))
	}
	for _, e := range evs {
		rowErr += e.Error // the first row's is empty
	}
	return errb.String(), rowErr
}

// TestCalledOffHandlersSayWhy: handlers a resident server's request ends
// (its client went away) long before the event's budget fail open naming
// that cause, on stderr and in the row — they used to blame the budget
// ("did not finish within the 54.6s budget" 2 s in, after a keeper stalled
// past its client's wait).
func TestCalledOffHandlersSayWhy(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	stop := make(chan struct{})
	defer close(stop)
	stuck := pipeline.Handler{Name: "stuck", Events: []event.Name{event.Notification},
		Run: func(context.Context, *pipeline.Call) (event.Decision, error) {
			cancel(errGone) // the client goes while the handlers run
			<-stop
			return event.Decision{}, nil
		}}
	home, st := servedStore(t)
	stderr, rowErr := servedRun(t, ctx, home, st, stuck)
	want := "handlers for Notification called off before they finished: its caller went away"
	if !strings.Contains(stderr, want) || strings.Contains(stderr, "budget") {
		t.Errorf("stderr %q, want %q and no budget", stderr, want)
	}
	if !strings.Contains(rowErr, want) {
		t.Errorf("row error %q, want %q", rowErr, want)
	}
}

// TestCalledOffLockWaitSaysWhy: a hook waiting for its session's lock
// when its request ends says so, not that another hook held the lock
// past the deadline.
func TestCalledOffLockWaitSaysWhy(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errGone)
	home, st := servedStore(t)
	unlock, err := lockSession(context.Background(), home, "sess-1") // another hook of the session holds it
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	stderr, rowErr := servedRun(t, ctx, home, st)
	want := "session lock not taken: its caller went away"
	if !strings.Contains(stderr, want) || strings.Contains(stderr, "deadline") {
		t.Errorf("stderr %q, want %q and no deadline", stderr, want)
	}
	if !strings.Contains(rowErr, want) {
		t.Errorf("row error %q, want %q", rowErr, want)
	}
}
