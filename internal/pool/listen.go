package pool

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
)

// Channel is the NOTIFY channel the PostgreSQL store signals when a task
// is queued (created or requeued).
const Channel = "warden_tasks"

// Listen holds a dedicated connection LISTENing on Channel and calls wake
// for every notification until ctx ends. A lost connection is opened
// again with backoff (100 ms doubling to 10 s); wake is also called on
// every (re)connect, since notifications sent while no one listened are
// gone and a task may be waiting. connected, when not nil, is told each
// time the LISTEN is in place (tests wait on it).
func Listen(ctx context.Context, url string, wake func(), connected func(), log *slog.Logger) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := listenOnce(ctx, url, wake, func() {
			backoff = 100 * time.Millisecond
			if connected != nil {
				connected()
			}
		})
		if ctx.Err() != nil {
			return
		}
		log.Warn("task queue LISTEN lost; reconnecting", "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 10*time.Second)
	}
}

func listenOnce(ctx context.Context, url string, wake, connected func()) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, err := pgx.Connect(cctx, url)
	cancel()
	if err != nil {
		return err
	}
	defer func() {
		c, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		conn.Close(c)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+Channel); err != nil {
		return err
	}
	connected()
	wake()
	for {
		// Wait at most idleCheck, then ping: a connection the network
		// dropped silently would otherwise be waited on forever. A
		// timed-out wait leaves a pgx connection usable.
		wctx, cancel := context.WithTimeout(ctx, idleCheck)
		_, err := conn.WaitForNotification(wctx)
		cancel()
		if err == nil {
			wake()
			continue
		}
		if ctx.Err() != nil || !errors.Is(wctx.Err(), context.DeadlineExceeded) {
			return err
		}
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = conn.Ping(pctx)
		cancel()
		if err != nil {
			return err
		}
	}
}

// idleCheck is how long a LISTEN waits before it checks its connection.
const idleCheck = 30 * time.Second
