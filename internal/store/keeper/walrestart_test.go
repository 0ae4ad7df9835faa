//go:build unix

package keeper

import (
	"context"
	"encoding/binary"
	"os"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// walRestarts is the WAL header's salt-1: SQLite adds one to it each time
// a writer starts the WAL over after a complete checkpoint (and writes the
// header, with an fsync, before its first frame). The checkpoint sequence
// number beside it counts per connection, so it cannot tell.
func walRestarts(t *testing.T, db string) uint32 {
	t.Helper()
	f, err := os.Open(db + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var hdr [20]byte
	if _, err := f.ReadAt(hdr[:], 0); err != nil {
		t.Fatalf("read the WAL header: %v", err)
	}
	return binary.BigEndian.Uint32(hdr[16:20])
}

// hookWrite is what a served hook commits: one event and its session.
func hookWrite(t *testing.T, w *sqlite.Store) {
	t.Helper()
	err := w.RecordHook(context.Background(), &store.Event{Event: "PreToolUse", SessionID: "s"},
		&store.Session{ID: "s", State: []byte(`{"tool_count":1}`)})
	if err != nil {
		t.Fatal(err)
	}
}

// After a complete checkpoint, the first write starts the WAL over and
// fsyncs its new header. Hooks often come after a pause longer than Quiet,
// so the keeper takes that write itself once writes went quiet: the hook
// after the pause appends to a WAL already started over.
func TestHookAfterAPauseFindsTheWALStartedOver(t *testing.T) {
	db, lock := newStore(t)
	w, err := sqlite.OpenResident(context.Background(), db) // the hook server's store
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	t.Run("without the keeper the hook starts it over", func(t *testing.T) {
		// The control: a complete checkpoint by another connection, then
		// a hook's write — the count moves in the hook's write.
		hookWrite(t, w)
		pin, err := w.Pin(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		complete, err := pin.CheckpointPassive(context.Background())
		pin.Close()
		if err != nil || !complete {
			t.Fatalf("checkpoint: complete %v, %v", complete, err)
		}
		before := walRestarts(t, db)
		hookWrite(t, w)
		if after := walRestarts(t, db); after != before+1 {
			t.Fatalf("WAL restarts %d → %d: the hook's write did not start the WAL over", before, after)
		}
	})

	t.Run("with the keeper the hook appends", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		polled := make(chan struct{}, 1)
		done := runAsync(ctx, Options{DBPath: db, LockPath: lock, Poll: 10 * time.Millisecond, Quiet: 50 * time.Millisecond, polled: polled})
		waitHeld(t, lock, true)
		// The keeper reads its first data_version after taking the lock:
		// a write before that is not a change it can see.
		select {
		case <-polled:
		case <-time.After(10 * time.Second):
			t.Fatal("the keeper never polled")
		}
		hookWrite(t, w)
		start := walRestarts(t, db)
		restarted := func() bool {
			v, ok, err := w.Setting(context.Background(), store.SettingWALRestart)
			return err == nil && ok && v != ""
		}
		for deadline := time.Now().Add(10 * time.Second); !restarted(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the keeper never started the WAL over after writes went quiet")
			}
		}
		before := walRestarts(t, db)
		if before != start+1 {
			t.Fatalf("WAL restarts %d → %d: the keeper's write did not start the WAL over", start, before)
		}
		hookWrite(t, w)
		if after := walRestarts(t, db); after != before {
			t.Fatalf("WAL restarts %d → %d: the hook after the pause started the WAL over (and paid its fsync)", before, after)
		}
		cancel()
		if err := wait(t, done); err != nil {
			t.Fatal(err)
		}
	})
}
