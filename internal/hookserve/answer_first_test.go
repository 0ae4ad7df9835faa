//go:build unix

package hookserve

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/hookwire/settle"
	"github.com/warden-dev/warden/internal/store"
)

// heldRecords is the server's store with every hook record held until
// release is closed: what the caller sees before its row is written.
type heldRecords struct {
	store.Local
	release chan struct{}
}

func (h heldRecords) RecordHook(ctx context.Context, ev *store.Event, sess *store.Session) error {
	<-h.release
	return h.Local.RecordHook(ctx, ev, sess)
}

// TestAnsweredBeforeRecorded: the caller gets its exit code and the end
// of its stdout and stderr while its record is still held up (Claude
// Code need not wait for the row); the next hook of the same session
// waits for that row — it sees the state the first one saved — and
// Settle returns only once both rows are in.
func TestAnsweredBeforeRecorded(t *testing.T) {
	release := make(chan struct{})
	r := newRigWith(t, Options{}, func(st store.Local) store.Local { return heldRecords{st, release} })
	answered := make(chan result, 1)
	go func() { answered <- r.do(t, call{args: hookArgs(), stdin: preToolUse("one", r.home, "ls")}) }()
	var first result
	select {
	case first = <-answered:
	case <-time.After(10 * time.Second): // a bound on a hang, not a speed check
		close(release)
		t.Fatal("the caller was not answered (code and EOF on its pipes) while its record was held")
	}
	if first.err != nil || first.declined || first.code != 0 || first.stdout != "" || first.stderr != "" {
		t.Fatalf("first hook: %+v", first)
	}
	evs, err := r.st.Events(context.Background(), store.Filter{})
	if err != nil || len(evs) != 0 {
		t.Fatalf("rows while the record is held: %d (%v), want 0", len(evs), err)
	}
	second := make(chan result, 1)
	go func() { second <- r.do(t, call{args: hookArgs(), stdin: preToolUse("one", r.home, "pwd")}) }()
	close(release)
	if res := <-second; res.err != nil || res.declined || res.code != 0 {
		t.Fatalf("second hook: %+v", res)
	}
	if n := len(r.events(t)); n != 2 { // events settles first
		t.Fatalf("%d rows after Settle, want 2", n)
	}
	sess, err := r.st.Session(context.Background(), "one")
	if err != nil || sess == nil || !strings.Contains(string(sess.State), `"tool_count":2`) {
		t.Fatalf("the second hook did not build on the first's saved state: %v %v", sess, err)
	}
}

// TestSettleRequestWaitsForTheRecord: a reader in another process sends
// a settle request (settle.Wait) after a hook was answered: it returns
// only once that hook's row is stored, and at once when nothing is left
// to record.
func TestSettleRequestWaitsForTheRecord(t *testing.T) {
	release := make(chan struct{})
	r := newRigWith(t, Options{}, func(st store.Local) store.Local { return heldRecords{st, release} })
	if res := r.do(t, call{args: hookArgs(), stdin: preToolUse("one", r.home, "ls")}); res.err != nil || res.code != 0 || res.declined {
		t.Fatalf("hook: %+v", res)
	}
	settled := make(chan struct{})
	go func() { settle.Wait(r.home, 30*time.Second); close(settled) }()
	select {
	case <-settled: // waiting can only make this pass late, never fail wrongly
		t.Fatal("settle returned while the answered hook's record was still held")
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	<-settled
	evs, err := r.st.Events(context.Background(), store.Filter{})
	if err != nil || len(evs) != 1 {
		t.Fatalf("rows once settled: %d (%v), want 1", len(evs), err)
	}
	settle.Wait(r.home, 30*time.Second) // nothing pending: returns at once
	if d := r.srv.Declines(); d != 0 {
		t.Errorf("%d declines: a settle request is not a hook to decline", d)
	}
}
