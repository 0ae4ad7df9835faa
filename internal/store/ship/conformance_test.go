package ship

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// sharedStore is what the tests need of a target: the shipper's interface
// and the shared store's audit reads, to compare what arrived.
type sharedStore interface {
	Target
	store.AuditReader
}

// sharedSession reads a session's state as the shared store keeps it:
// nothing in the shared role reads states back (they are kept for the
// record), so the test reads the row itself.
func sharedSession(ctx context.Context, sh sharedStore, id string) (*store.Session, error) {
	switch st := sh.(type) {
	case *sqlite.Store:
		return st.Session(ctx, id)
	case *postgres.Store:
		ss := store.Session{ID: id}
		var started, updated int64
		var state string
		err := st.Pool().QueryRow(ctx, "SELECT cwd, started_us, updated_us, state, sig FROM sessions WHERE id = $1", id).
			Scan(&ss.Cwd, &started, &updated, &state, &ss.Sig)
		if err != nil {
			return nil, err
		}
		ss.Started, ss.Updated, ss.State = time.UnixMicro(started).UTC(), time.UnixMicro(updated).UTC(), []byte(state)
		return &ss, nil
	}
	return nil, fmt.Errorf("no session reader for %T", sh)
}

// targets are the shared stores the conformance runs on: each returns a
// function that opens the same store again (as a reconnecting shipper does).
var targets = map[string]func(t *testing.T) func(ctx context.Context) (sharedStore, error){
	"sqlite": func(t *testing.T) func(ctx context.Context) (sharedStore, error) {
		path := filepath.Join(t.TempDir(), "shared.db")
		return func(ctx context.Context) (sharedStore, error) { return sqlite.Open(ctx, path) }
	},
	"postgres": func(t *testing.T) func(ctx context.Context) (sharedStore, error) {
		url := testenv.Postgres(t)
		return func(ctx context.Context) (sharedStore, error) { return postgres.Open(ctx, url) }
	},
}

// forEachTarget runs f against every shared store kind.
func forEachTarget(t *testing.T, f func(t *testing.T, open func(ctx context.Context) (sharedStore, error))) {
	for name, mk := range targets {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f(t, mk(t))
		})
	}
}

func openShared(t *testing.T, open func(ctx context.Context) (sharedStore, error)) sharedStore {
	t.Helper()
	st, err := open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func newSpool(t *testing.T) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// record writes n hook events spread over sessions as hooks would, with a
// session state saved alongside each, and returns them as recorded.
func record(t *testing.T, sp *sqlite.Store, n int, sessions ...string) []store.Event {
	t.Helper()
	var out []store.Event
	for i := 0; i < n; i++ {
		sid := sessions[i%len(sessions)]
		d := int64(i)
		ev := &store.Event{SessionID: sid, Event: "PreToolUse", Tool: "Bash", Cwd: "/p/" + sid,
			Reason: fmt.Sprintf("call %d", i), LatencyUS: int64(100 + i), DurationMS: &d, TaskID: "t-" + sid}
		sess := &store.Session{ID: sid, Cwd: "/p/" + sid, State: []byte(fmt.Sprintf(`{"calls":%d}`, i))}
		if err := sp.RecordHook(context.Background(), ev, sess); err != nil {
			t.Fatal(err)
		}
		out = append(out, *ev)
	}
	return out
}

func newShipper(t *testing.T, sp Spool, dial func(ctx context.Context) (Target, error), batch int) *Shipper {
	t.Helper()
	s, err := New(Options{Spool: sp, Dial: dial, Batch: batch, Every: 20 * time.Millisecond,
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, CallTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func dialer(open func(ctx context.Context) (sharedStore, error)) func(ctx context.Context) (Target, error) {
	return func(ctx context.Context) (Target, error) { return open(ctx) }
}

// sameEvent compares what a hook recorded with its copy in the shared
// store: every recorded field (JSON shows the pointers' values) but the
// chain position.
func sameEvent(a, b store.Event) error {
	a.ID, a.PrevHash, a.Hash = 0, "", ""
	b.ID, b.PrevHash, b.Hash = 0, "", ""
	as, _ := json.Marshal(a)
	bs, _ := json.Marshal(b)
	if string(as) != string(bs) {
		return fmt.Errorf("\nlocal  %s\nshared %s", as, bs)
	}
	return nil
}

// checkArrived asserts the shared store holds exactly want (the local
// events, in local order, once each) and its chain verifies.
func checkArrived(t *testing.T, sh sharedStore, want []store.Event) {
	t.Helper()
	ctx := context.Background()
	got, err := sh.Events(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("shared store has %d events, want %d", len(got), len(want))
	}
	for i := range want {
		if err := sameEvent(want[i], got[i]); err != nil {
			t.Fatalf("event %d (local id %d) differs:%v", i, want[i].ID, err)
		}
	}
	n, brk, err := sh.VerifyChain(ctx)
	if err != nil || brk != nil || n != int64(len(want)) {
		t.Fatalf("shared chain: %d rows, break %+v, err %v", n, brk, err)
	}
}

func TestShipsEveryEventOnceInOrder(t *testing.T) {
	forEachTarget(t, func(t *testing.T, open func(context.Context) (sharedStore, error)) {
		ctx := context.Background()
		sp := newSpool(t)
		want := record(t, sp, 23, "a", "b", "c")
		s := newShipper(t, sp, dialer(open), 5) // 5 batches, the last one short
		n, err := s.Drain(ctx)
		if err != nil || n != 23 {
			t.Fatalf("drain: %d shipped, %v", n, err)
		}
		sh := openShared(t, open)
		checkArrived(t, sh, want)
		// More hooks, another pass: only the new rows go, after the old.
		want = append(want, record(t, sp, 4, "b", "d")...)
		if n, err := s.Drain(ctx); err != nil || n != 4 {
			t.Fatalf("second drain: %d shipped, %v", n, err)
		}
		checkArrived(t, sh, want)
		if n, err := s.Drain(ctx); err != nil || n != 0 {
			t.Fatalf("drain with nothing new: %d shipped, %v", n, err)
		}
		if bl, _, err := sp.Backlog(ctx, mark(t, sp)); err != nil || bl != 0 {
			t.Fatalf("backlog after draining: %d, %v", bl, err)
		}
		// The sessions' latest states went along.
		for _, sid := range []string{"a", "b", "c", "d"} {
			loc, _ := sp.Session(ctx, sid)
			got, err := sharedSession(ctx, sh, sid)
			if err != nil || got == nil || string(got.State) != string(loc.State) || got.Cwd != loc.Cwd ||
				!got.Updated.Equal(loc.Updated) || !got.Started.Equal(loc.Started) {
				t.Fatalf("session %s: shared %+v (%v), local %+v", sid, got, err, loc)
			}
		}
		if st := s.Status(); !st.Connected || st.Error != "" || st.Shipped != 27 {
			t.Fatalf("status %+v", st)
		}
	})
}

func mark(t *testing.T, sp *sqlite.Store) int64 {
	t.Helper()
	v, _, err := sp.Setting(context.Background(), SettingEvents)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	fmt.Sscan(v, &n)
	return n
}

// A shipper that dies after the shared store committed a batch and before
// it moved its mark sends the batch again when it starts over: the shared
// store must insert nothing twice. The mark is put back where the crash
// left it, then a fresh shipper (a restarted keeper) runs.
func TestCrashBetweenSendAndMarkDuplicatesNothing(t *testing.T) {
	forEachTarget(t, func(t *testing.T, open func(context.Context) (sharedStore, error)) {
		ctx := context.Background()
		sp := newSpool(t)
		want := record(t, sp, 12, "a", "b")
		if n, err := newShipper(t, sp, dialer(open), 5).Drain(ctx); err != nil || n != 12 {
			t.Fatalf("drain: %d, %v", n, err)
		}
		// The crash: the last batch (ids 11–12) and the one before it
		// (6–10) committed, the marks never written.
		if err := sp.SetSetting(ctx, SettingEvents, "5"); err != nil {
			t.Fatal(err)
		}
		want = append(want, record(t, sp, 3, "a")...)
		n, err := newShipper(t, sp, dialer(open), 5).Drain(ctx)
		if err != nil || n != 3 {
			t.Fatalf("after the crash: %d inserted (want the 3 new only), %v", n, err)
		}
		checkArrived(t, openShared(t, open), want)
	})
}

// lostAnswer is a shared store whose connection breaks right after a
// commit: the batch is in, the shipper sees an error (the network fault a
// real client meets when the server's answer is lost).
type lostAnswer struct {
	Target
	lose *atomic.Int32 // answers still to lose
}

func (l lostAnswer) ImportEvents(ctx context.Context, origin string, evs []store.Event) (int, error) {
	n, err := l.Target.ImportEvents(ctx, origin, evs)
	if err == nil && l.lose.Add(-1) >= 0 {
		return 0, errors.New("read tcp: connection reset by peer")
	}
	return n, err
}

func TestLostCommitAnswerIsRetriedWithoutDuplicates(t *testing.T) {
	forEachTarget(t, func(t *testing.T, open func(context.Context) (sharedStore, error)) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		sp := newSpool(t)
		want := record(t, sp, 17, "a", "b", "c")
		var lose atomic.Int32
		lose.Store(2)
		dials := atomic.Int32{}
		s := newShipper(t, sp, func(ctx context.Context) (Target, error) {
			dials.Add(1)
			t, err := open(ctx)
			if err != nil {
				return nil, err
			}
			return lostAnswer{t, &lose}, nil
		}, 4)
		done := make(chan error, 1)
		go func() { done <- s.Run(ctx) }()
		sh := openShared(t, open)
		testenv.WaitFor(t, 20*time.Second, "every event shipped", func() bool {
			return mark(t, sp) == want[len(want)-1].ID
		})
		cancel()
		<-done
		s.Close()
		checkArrived(t, sh, want)
		if dials.Load() < 3 {
			t.Fatalf("the shipper did not open the store again after each broken answer: %d dials", dials.Load())
		}
	})
}

// A session state shipped late never rolls back a newer one.
func TestOlderSessionStateNeverWins(t *testing.T) {
	forEachTarget(t, func(t *testing.T, open func(context.Context) (sharedStore, error)) {
		ctx := context.Background()
		sh := openShared(t, open)
		now := time.Now().UTC().Truncate(time.Microsecond)
		newer := store.Session{ID: "s", Cwd: "/p", Started: now.Add(-time.Hour), Updated: now, State: []byte(`{"n":2}`), Sig: "b"}
		older := newer
		older.Updated, older.State, older.Sig = now.Add(-time.Minute), []byte(`{"n":1}`), "a"
		if err := sh.ImportSessions(ctx, []store.Session{newer}); err != nil {
			t.Fatal(err)
		}
		if err := sh.ImportSessions(ctx, []store.Session{older}); err != nil {
			t.Fatal(err)
		}
		got, err := sharedSession(ctx, sh, "s")
		if err != nil || got == nil || string(got.State) != `{"n":2}` || got.Sig != "b" || !got.Updated.Equal(now) {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
}

// Two local stores ship into one shared store: each origin's rows arrive
// once and in its order, and the shared chain links them all.
func TestTwoOriginsShareOneChain(t *testing.T) {
	forEachTarget(t, func(t *testing.T, open func(context.Context) (sharedStore, error)) {
		ctx := context.Background()
		a, b := newSpool(t), newSpool(t)
		wa := record(t, a, 9, "a1", "a2")
		wb := record(t, b, 7, "b1")
		sa, sb := newShipper(t, a, dialer(open), 4), newShipper(t, b, dialer(open), 3)
		oa, _ := Origin(ctx, a)
		ob, _ := Origin(ctx, b)
		if oa == ob || oa == "" {
			t.Fatalf("origins %q and %q", oa, ob)
		}
		errs := make(chan error, 2)
		go func() { _, err := sa.Drain(ctx); errs <- err }()
		go func() { _, err := sb.Drain(ctx); errs <- err }()
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		sh := openShared(t, open)
		n, brk, err := sh.VerifyChain(ctx)
		if err != nil || brk != nil || n != 16 {
			t.Fatalf("shared chain: %d rows, %+v, %v", n, brk, err)
		}
		for sid, want := range map[string][]store.Event{"a1": pick(wa, "a1"), "a2": pick(wa, "a2"), "b1": wb} {
			got, err := sh.Events(ctx, store.Filter{SessionID: sid})
			if err != nil || len(got) != len(want) {
				t.Fatalf("session %s: %d events, want %d (%v)", sid, len(got), len(want), err)
			}
			for i := range want {
				if err := sameEvent(want[i], got[i]); err != nil {
					t.Fatalf("session %s event %d:%v", sid, i, err)
				}
			}
		}
	})
}

func pick(evs []store.Event, sid string) []store.Event {
	var out []store.Event
	for _, e := range evs {
		if e.SessionID == sid {
			out = append(out, e)
		}
	}
	return out
}
