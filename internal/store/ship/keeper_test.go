//go:build unix

package ship

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// The keeper leaves after its idle time without commits. A shipper beside
// it writes to the local store only when it ships something (or its state
// changes): passes that find nothing must not keep the keeper alive, and
// the events of the last second are shipped before it goes.
func TestShipperLetsTheKeeperGoIdle(t *testing.T) {
	forEachTarget(t, func(t *testing.T, open func(context.Context) (sharedStore, error)) {
		dir := t.TempDir()
		db := filepath.Join(dir, "warden.db")
		sp, err := sqlite.Open(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		defer sp.Close()
		want := record(t, sp, 5, "a")
		done := make(chan error, 1)
		go func() {
			done <- keeper.Run(context.Background(), keeper.Options{
				DBPath: db, LockPath: filepath.Join(dir, "locks", "keeper.lock"),
				Poll: 20 * time.Millisecond, Quiet: 50 * time.Millisecond, Idle: 600 * time.Millisecond,
				Serve: func(ctx context.Context) error {
					_, wait, err := Start(ctx, Options{Spool: sp, Dial: dialer(open), Every: 20 * time.Millisecond})
					if err != nil {
						return err
					}
					<-ctx.Done()
					wait()
					return nil
				},
			})
		}()
		time.Sleep(100 * time.Millisecond)
		want = append(want, record(t, sp, 3, "b")...)
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the keeper never went idle: the shipper keeps writing the store")
		}
		checkArrived(t, openShared(t, open), want)
	})
}
