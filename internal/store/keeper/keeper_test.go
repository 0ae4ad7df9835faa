//go:build unix

package keeper

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// newStore makes a real store file with one event, as a hook would leave it.
func newStore(t *testing.T) (db, lock string) {
	t.Helper()
	dir := t.TempDir()
	db, lock = filepath.Join(dir, "warden.db"), filepath.Join(dir, "locks", "keeper.lock")
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.RecordHook(context.Background(), &store.Event{Event: "SessionStart", SessionID: "s"}, nil); err != nil {
		t.Fatal(err)
	}
	return db, lock
}

// runAsync starts Run and returns a channel with its result.
func runAsync(ctx context.Context, o Options) <-chan error {
	done := make(chan error, 1)
	go func() { done <- Run(ctx, o) }()
	return done
}

func waitHeld(t *testing.T, lock string, want bool) {
	t.Helper()
	testenv.WaitFor(t, 10*time.Second, fmt.Sprintf("lock %s held = %v", lock, want), func() bool {
		got, err := Running(lock)
		return err == nil && got == want
	})
}

func wait(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("keeper did not return")
		return nil
	}
}

func TestKeeperHoldsTheStoreAndIsAlone(t *testing.T) {
	db, lock := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := runAsync(ctx, Options{DBPath: db, LockPath: lock, Poll: 20 * time.Millisecond})
	waitHeld(t, lock, true)

	// While it holds the store, the WAL stays: a hook closing its
	// connection is no longer the last one, so it does not checkpoint.
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.RecordHook(ctx, &store.Event{Event: "PreToolUse", SessionID: "s"}, nil); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := os.Stat(db + "-wal"); err != nil {
		t.Fatalf("WAL gone after a hook's close while the keeper holds the store: %v", err)
	}

	if err := Run(ctx, Options{DBPath: db, LockPath: lock}); !errors.Is(err, ErrRunning) {
		t.Fatalf("second keeper: got %v, want ErrRunning", err)
	}
	cancel()
	if err := wait(t, done); err != nil {
		t.Fatalf("keeper: %v", err)
	}
	waitHeld(t, lock, false)
	// The keeper was the last connection: closing it checkpointed and
	// removed the WAL, and the event is in the database file.
	if _, err := os.Stat(db + "-wal"); !os.IsNotExist(err) {
		t.Fatalf("WAL left after the keeper exited: %v", err)
	}
}

// A stop that lands while the keeper runs a statement on its connection
// must not interrupt that statement: SQLite keeps an interrupt until the
// connection's next statement, so the checkpoint that closing the last
// connection runs would stop at once and leave the WAL behind (seen under
// load in the test above). The Backlog call stands in for any statement: it
// runs on the pinned connection, under the context the keeper gives it.
func TestKeeperStopDoesNotInterruptAStatement(t *testing.T) {
	db, lock := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	written := make(chan struct{})
	var reached error
	done := runAsync(ctx, Options{DBPath: db, LockPath: lock, Poll: 10 * time.Millisecond,
		Idle: time.Nanosecond, Quiet: time.Hour, Busy: time.Hour,
		Backlog: func(sctx context.Context, pin *sqlite.Pin) (bool, error) {
			<-written
			cancel() // the stop, while the keeper is in a statement
			reached = sctx.Err()
			_, err := pin.DataVersion(sctx)
			return false, err
		}})
	waitHeld(t, lock, true)
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.RecordHook(context.Background(), &store.Event{Event: "PreToolUse", SessionID: "s"}, nil); err != nil {
		t.Fatal(err)
	}
	st.Close()
	close(written)
	if err := wait(t, done); err != nil {
		t.Fatalf("keeper: %v", err)
	}
	if reached != nil {
		t.Fatalf("the stop reached the keeper's statement in flight: %v", reached)
	}
	if _, err := os.Stat(db + "-wal"); !os.IsNotExist(err) {
		t.Fatalf("WAL left after the keeper exited: %v", err)
	}
}

func TestKeeperExitsWhenIdle(t *testing.T) {
	db, lock := newStore(t)
	err := wait(t, runAsync(context.Background(), Options{DBPath: db, LockPath: lock,
		Poll: 10 * time.Millisecond, Idle: 200 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
}

func TestKeeperStaysWhileWritesCome(t *testing.T) {
	db, lock := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	polled := make(chan struct{}, 1)
	// Idle is well above a write's worst stall on a loaded machine: the
	// keeper may leave when no write came for Idle, and a 300 ms Idle
	// failed once when a write stalled that long under load.
	idle := 1500 * time.Millisecond
	done := runAsync(ctx, Options{DBPath: db, LockPath: lock, Poll: 10 * time.Millisecond,
		Idle: idle, Quiet: 20 * time.Millisecond, polled: polled})
	waitHeld(t, lock, true)
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// Write, then wait for a poll after the write, for three idle
	// periods: each poll sees a change, so the keeper must stay.
	for start := time.Now(); time.Since(start) < 3*idle; {
		if err := st.RecordHook(ctx, &store.Event{Event: "PostToolUse", SessionID: "s"}, nil); err != nil {
			t.Fatal(err)
		}
		select {
		case <-polled: // drain a poll from before the write
		default:
		}
		select {
		case <-polled:
		case err := <-done:
			t.Fatalf("keeper left while events kept coming (%v)", err)
		case <-time.After(10 * time.Second):
			t.Fatal("the keeper stopped polling")
		}
	}
	if err := wait(t, done); err != nil { // and leaves once they stop
		t.Fatal(err)
	}
}

// The keeper leaves when its store is removed, and says so: in its log,
// and by ErrStoreGone naming the file (warden serve stops with it).
func TestKeeperLeavesWhenTheStoreIsRemoved(t *testing.T) {
	db, lock := newStore(t)
	var said testenv.Buffer
	done := runAsync(context.Background(), Options{DBPath: db, LockPath: lock, Poll: 10 * time.Millisecond, Log: &said})
	waitHeld(t, lock, true)
	for _, p := range []string{db, db + "-wal", db + "-shm"} {
		os.Remove(p)
	}
	if err := wait(t, done); !errors.Is(err, ErrStoreGone) || !strings.Contains(err.Error(), db) {
		t.Fatalf("Run returned %v, want ErrStoreGone naming %s", err, db)
	}
	if !strings.Contains(said.String(), "the store "+db+" was removed or replaced") {
		t.Errorf("the keeper's log says %q", said.String())
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("keeper recreated the removed store: %v", err)
	}
}

// A store removed after the keeper looked at it and before it opened it
// stays removed: the keeper leaves saying so, and SQLite is not let make
// a new empty store at the path (CI caught one: the file was there after
// the keeper left).
func TestKeeperDoesNotRecreateAStoreRemovedBeforeItsOpen(t *testing.T) {
	db, lock := newStore(t)
	var said testenv.Buffer
	removeAll := func() {
		for _, p := range []string{db, db + "-wal", db + "-shm"} {
			os.Remove(p)
		}
	}
	done := runAsync(context.Background(), Options{DBPath: db, LockPath: lock, Poll: 10 * time.Millisecond, Log: &said, opening: removeAll})
	if err := wait(t, done); !errors.Is(err, ErrStoreGone) || !strings.Contains(err.Error(), db) {
		t.Fatalf("Run returned %v, want ErrStoreGone naming %s", err, db)
	}
	if !strings.Contains(said.String(), "the store "+db+" was removed or replaced") {
		t.Errorf("the keeper's log says %q", said.String())
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("keeper recreated the removed store: %v", err)
	}
}

// TestKeeperLeavesWhenItsBinaryIsReplaced: a rebuild or reinstall that
// did not stop the keeper must not leave hooks answered by old code; and
// Serve is stopped and waited for before Run returns.
func TestKeeperLeavesWhenItsBinaryIsReplaced(t *testing.T) {
	db, lock := newStore(t)
	bin := filepath.Join(t.TempDir(), "warden-core")
	if err := os.WriteFile(bin, []byte("old"), 0o755); err != nil {
		t.Fatal(err)
	}
	served := make(chan struct{})
	serve := func(ctx context.Context) error {
		<-ctx.Done()
		close(served)
		return nil
	}
	polled := make(chan struct{}, 1)
	done := runAsync(context.Background(), Options{DBPath: db, LockPath: lock, Binary: bin, Poll: 10 * time.Millisecond,
		Serve: serve, polled: polled})
	waitHeld(t, lock, true)
	for i := 0; i < 3; i++ { // three polls, each of which looked at the binary: unchanged, it stays
		select {
		case <-polled:
		case err := <-done:
			t.Fatalf("keeper left with its binary unchanged: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatal("the keeper stopped polling")
		}
	}
	tmp := bin + ".new"
	if err := os.WriteFile(tmp, []byte("new"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, bin); err != nil { // how install replaces it
		t.Fatal(err)
	}
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	select {
	case <-served:
	default:
		t.Fatal("Run returned before Serve was stopped")
	}
}

func TestKeeperNeverCreatesAStore(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "warden.db")
	err := Run(context.Background(), Options{DBPath: db, LockPath: filepath.Join(dir, "keeper.lock")})
	if err == nil {
		t.Fatal("keeper ran without a store")
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("keeper created %s", db)
	}
}

// A keeper started after warden's home was removed (an uninstall, a
// test's home cleaned up while a hook's detached keeper was starting)
// fails and makes nothing: the lock's folder is made only inside a home
// that exists, so no stray home comes back around a lock file.
func TestKeeperMakesNoHomeAgain(t *testing.T) {
	home := filepath.Join(t.TempDir(), "wh")
	err := Run(context.Background(), Options{DBPath: filepath.Join(home, "warden.db"), LockPath: filepath.Join(home, "locks", "keeper.lock")})
	if err == nil || !strings.Contains(err.Error(), "keeper lock") {
		t.Fatalf("Run in a removed home = %v, want an error naming the lock", err)
	}
	if _, err := os.Stat(home); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the removed home was made again: stat = %v", err)
	}
}

func TestEnsureStartsOnceAndNotBesideAKeeper(t *testing.T) {
	db, lock := newStore(t)
	starts := 0
	start := func() error { starts++; return nil }
	if ok, err := Ensure(lock, start); err != nil || !ok || starts != 1 {
		t.Fatalf("first Ensure: started=%v err=%v starts=%d", ok, err, starts)
	}
	// The start "failed" (nothing took the lock): no new start within
	// respawnAfter, so a broken keeper cannot cost every hook a process.
	if ok, _ := Ensure(lock, start); ok || starts != 1 {
		t.Fatalf("second Ensure within %v started again", respawnAfter)
	}
	os.Remove(filepath.Join(filepath.Dir(lock), "keeper.started"))

	ctx, cancel := context.WithCancel(context.Background())
	done := runAsync(ctx, Options{DBPath: db, LockPath: lock, Poll: 10 * time.Millisecond})
	waitHeld(t, lock, true)
	if ok, err := Ensure(lock, start); ok || err != nil || starts != 1 {
		t.Fatalf("Ensure beside a running keeper: started=%v err=%v", ok, err)
	}
	cancel()
	wait(t, done)
}

func TestStopEndsTheKeeperProcess(t *testing.T) {
	db, lock := newStore(t)
	done := runAsync(context.Background(), Options{DBPath: db, LockPath: lock, Poll: 10 * time.Millisecond})
	waitHeld(t, lock, true)
	b, _ := os.ReadFile(lock)
	if len(b) == 0 {
		t.Fatal("keeper wrote no pid into its lock file")
	}
	// Stop signals the pid in the file; here that is this test process, so
	// catch SIGTERM instead of dying and check it came.
	sig := notifyTerm(t)
	go func() { _ = Stop(lock, 2*time.Second) }()
	select {
	case <-sig:
	case <-time.After(10 * time.Second):
		t.Fatal("Stop sent no SIGTERM to the pid in the lock file")
	}
	os.Remove(db) // let the in-process keeper go
	wait(t, done)
}

// A resident hook server's connections leave checkpoints to the keeper
// (sqlite.OpenResident), so the keeper must checkpoint while writes go on,
// not only once they stop: with Quiet out of reach, Busy makes it copy the
// WAL into the database file (which nothing else writes here) while a
// writer keeps committing.
func TestKeeperCheckpointsWhileWritesGoOn(t *testing.T) {
	db, lock := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := runAsync(ctx, Options{DBPath: db, LockPath: lock, Poll: 20 * time.Millisecond, Quiet: time.Hour, Busy: 100 * time.Millisecond})
	waitHeld(t, lock, true)
	w, err := sqlite.OpenResident(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	before, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	// One commit every 10 ms for at most 10 s stays far below the
	// writer's own backstop (sqlite.OpenResident: 10,000 WAL pages, ~2,500
	// commits like these), so only the keeper can have checkpointed.
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	checkpointed := false
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !checkpointed; <-tick.C {
		if err := w.RecordHook(context.Background(), &store.Event{Event: "PreToolUse", SessionID: "s", Reason: "a row"}, nil); err != nil {
			t.Fatal(err)
		}
		now, err := os.Stat(db)
		checkpointed = err == nil && (now.Size() != before.Size() || !now.ModTime().Equal(before.ModTime()))
	}
	if !checkpointed {
		t.Fatal("the database file never changed while writes went on: the keeper did not checkpoint")
	}
	cancel()
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
}
