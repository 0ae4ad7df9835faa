//go:build unix

package keeper

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// Past its idle time, a keeper whose Backlog says rows wait to be shipped
// stays and says so once; when the shipper's mark reaches the last row, it
// leaves after one more idle time. The backlog is the store's own
// (sqlite.Pin.HasUnshipped on the keeper's connection), the mark is moved
// by another connection as the shipper would.
func TestKeeperStaysWhileRowsWaitToBeShipped(t *testing.T) {
	db, lock := newStore(t)
	var log testenv.Buffer
	polled := make(chan struct{}, 1)
	done := runAsync(context.Background(), Options{DBPath: db, LockPath: lock,
		Poll: 10 * time.Millisecond, Idle: 100 * time.Millisecond, Quiet: 20 * time.Millisecond,
		Backlog: func(ctx context.Context, pin *sqlite.Pin) (bool, error) { return pin.HasUnshipped(ctx) },
		Log:     &log, polled: polled})
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(log.String(), "rows wait to be shipped"); {
		select {
		case err := <-done:
			t.Fatalf("the keeper left with an event not shipped (%v)", err)
		case <-polled:
		case <-time.After(time.Until(deadline)):
			t.Fatal("the keeper never said it stays for the backlog")
		}
	}
	// Still there: it polls on after the line.
	for range 3 {
		select {
		case err := <-done:
			t.Fatalf("the keeper left with an event not shipped (%v)", err)
		case <-polled:
		case <-time.After(10 * time.Second):
			t.Fatal("the keeper stopped polling")
		}
	}
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.SetSetting(context.Background(), store.SettingShipEvents, "1"); err != nil {
		t.Fatal(err)
	}
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(log.String(), "\n"); n != 1 {
		t.Errorf("the keeper logged %d lines for one stay:\n%s", n, log.String())
	}
}
