package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// ListenTasks calls wake with the id of every task announced on
// TaskChannel (created queued, or moved back to queued) until ctx ends,
// and then returns ctx's error. LISTEN needs a session of its own, so it
// takes one connection out of the pool for as long as it runs. After every
// (re)connection, the first included, it calls wake("") once: notices sent
// while it was not listening are lost, so the caller looks at the queue.
// A lost connection is reopened, waiting 100 ms doubling to 5 s between
// attempts.
func (s *Store) ListenTasks(ctx context.Context, wake func(id string)) error {
	backoff := 100 * time.Millisecond
	for {
		conn, err := s.listen(ctx)
		if err == nil {
			backoff = 100 * time.Millisecond
			wake("")
			err = waitNotices(ctx, conn, wake)
			conn.Close(context.Background())
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// listen takes a connection out of the pool (it is closed, not returned:
// a session left LISTENing must not serve other queries) and LISTENs.
func (s *Store) listen(ctx context.Context) (*pgx.Conn, error) {
	pc, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	conn := pc.Hijack()
	if _, err := conn.Exec(ctx, "LISTEN "+TaskChannel); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	return conn, nil
}

func waitNotices(ctx context.Context, conn *pgx.Conn, wake func(string)) error {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		wake(n.Payload)
	}
}
