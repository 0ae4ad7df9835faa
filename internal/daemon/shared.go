package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/pool"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/task"
)

// SharedStore is what the daemon keeps where every worker of a pool sees
// it: the task queue, the API's tokens, webhook deliveries, the pacing
// ledger and its poll leases. Each part is the interface its consumer
// declares (task.Store for the scheduler and the API, quota.Store for
// pacing, the token and delivery methods server.TokenStore and
// server.DeliveryStore ask for). Alone, it is the local SQLite store;
// with [store] url / WARDEN_DATABASE_URL, the PostgreSQL one. Hooks,
// session state, events, agents (tmux windows on this machine), the usage
// cache and the quota hold stay in the local store either way: the hook
// path never waits on the network.
type SharedStore interface {
	task.Store
	quota.Store
	TokenByHash(ctx context.Context, hash string) (*store.APIToken, error)
	TouchToken(ctx context.Context, id string, now time.Time) error
	AddToken(ctx context.Context, t *store.APIToken) error
	ClaimDelivery(ctx context.Context, source, id string, now time.Time) (first bool, err error)
	SetDeliveryTask(ctx context.Context, source, id, taskID string) error
	DeliveryTask(ctx context.Context, source, id string) (taskID string, seen bool, err error)
	PruneDeliveries(ctx context.Context, before time.Time) (int64, error)
	pool.SystemStore
	TaskPruner // prune.go
	Check(ctx context.Context) error
	Close() error
}

// pgShared is a PostgreSQL shared store: the store, where it is (for
// messages, no password) and its LISTEN.
type pgShared struct {
	SharedStore
	where string
	// reads is the record as every machine shipped it (the dashboard
	// and the API's event routes, eventReads).
	reads recordReader
	// listen wakes the scheduler on the queue's NOTIFY until ctx ends.
	listen func(ctx context.Context, wake func(id string)) error
}

// openShared opens the PostgreSQL store at url; its errors are one line
// naming store.url / WARDEN_DATABASE_URL and the fix.
func openShared(ctx context.Context, url string) (*pgShared, error) {
	st, err := postgres.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	return &pgShared{SharedStore: st, where: st.Where(), reads: st, listen: st.ListenTasks}, nil
}

// checkURL refuses a URL that can never work (not a PostgreSQL URL):
// retrying would not help, so warden serve exits with the fix.
func checkURL(url string) error {
	if _, err := pgxpool.ParseConfig(url); err != nil {
		return fmt.Errorf("store.url / WARDEN_DATABASE_URL: not a PostgreSQL URL (%v); fix: postgres://USER:PASSWORD@HOST:5432/DATABASE", err)
	}
	return nil
}

// waitShared opens the shared store, retrying with backoff (1 s doubling
// to 30 s) while the server is unreachable, refuses the password or lacks
// the database: meanwhile the hook server, the API and the dashboard
// serve the local store, and wait shows why. The first failure is one
// line on stderr, each one a log record.
func waitShared(ctx context.Context, url string, stderr io.Writer, log *slog.Logger, wait *sharedWait) (*pgShared, error) {
	backoff := time.Second
	for tries := 1; ; tries++ {
		octx, cancel := context.WithTimeout(ctx, 30*time.Second)
		st, err := openShared(octx, url)
		cancel()
		if err == nil {
			if tries > 1 {
				fmt.Fprintf(stderr, "warden serve: shared store %s is up; the task queue and the scheduler start\n", st.where)
			}
			log.Info("shared store open", "where", st.where, "tries", tries)
			return st, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		wait.failed(err)
		if tries == 1 {
			log.Warn("shared store not reachable yet: serving hooks, the API and the dashboard from the local store", "where", wait.State().Where, "waiting", waitingFor)
			fmt.Fprintf(stderr, "warden serve: shared store: %v — hooks, the API and the dashboard serve the local store; the task queue and the scheduler wait; retrying until it answers\n", err)
			if wait.State().Permanent {
				fmt.Fprintln(stderr, "warden serve: retrying will not mend this: fix store.url / WARDEN_DATABASE_URL or the server (warden serve keeps trying every 30 s)")
			}
		}
		log.Error("shared store unreachable", "err", err, "retry_in", backoff.String())
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 30*time.Second)
	}
}

// databaseURL is the shared store's URL: WARDEN_DATABASE_URL wins over
// store.url; "" when neither is set (the local store alone).
func databaseURL(cfg *config.Config) string {
	u, _ := cfg.StoreURL()
	return u
}
