package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/warden-dev/warden/internal/hookwire"
	"github.com/warden-dev/warden/internal/hookwire/settle"
)

// pacedOnFigures checks that the PostToolUse runs decided from the stored
// figures (a decision tied to a snapshot, no delay): otherwise the variant
// measured "no subscription limits known", not the cached decision.
func (b *bench) pacedOnFigures(conn *sql.Conn) error {
	conn, done, err := b.useConn(conn)
	if err != nil {
		return err
	}
	defer done()
	var n, delayed int
	err = conn.QueryRowContext(context.Background(),
		`SELECT count(*), coalesce(sum(delay_s > 0), 0) FROM pace_decisions WHERE snapshot_id > 0`).Scan(&n, &delayed)
	switch {
	case err != nil:
		return err
	case n == 0:
		return errors.New("no pacing decision was made from the stored figures")
	case delayed > 0:
		return fmt.Errorf("%d pacing decisions throttle; the figures should not", delayed)
	}
	return nil
}

// hookWork lists the in-process times (ms) of one event's measured runs,
// from the rows' latency_us.
func (b *bench) hookWork(conn *sql.Conn, ev string, firstSeq int) ([]float64, error) {
	conn, done, err := b.useConn(conn)
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := conn.QueryContext(context.Background(), `SELECT latency_us FROM events WHERE event = ? AND tool_use_id >= ?`,
		ev, fmt.Sprintf("toolu_bench_%08d", firstSeq))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []float64
	for rows.Next() {
		var us int64
		if err := rows.Scan(&us); err != nil {
			return nil, err
		}
		out = append(out, float64(us)/1000)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no %s rows to read the in-process time from", ev)
	}
	return out, nil
}

// countRows counts all events and those that are not a clean allow (a
// pacing sleep included), once the keeper recorded every hook it had
// answered (a settle request: it answers a hook before it records it, so
// without one the count taken as a phase's baseline could miss the row
// of the hook run just before — the keeper phase's first — and the phase
// would then count it as one of its own, one row too many; more likely
// the slower the keeper, say with a tracer on it). Without a keeper the
// settle returns at once. Without a held conn it opens and closes its
// own, outside any timed run.
func (b *bench) countRows(conn *sql.Conn) (total, bad int, err error) {
	settle.Wait(filepath.Dir(b.db), hookwire.SettleWait)
	conn, done, err := b.useConn(conn)
	if err != nil {
		return 0, 0, err
	}
	defer done()
	err = conn.QueryRowContext(context.Background(),
		`SELECT count(*), coalesce(sum(decision <> 'allow' OR error <> '' OR slept_ms > 0), 0) FROM events`).Scan(&total, &bad)
	return total, bad, err
}

// settledRows is countRows once the store holds want rows, or after 2 s
// (then the counts say what is missing). The keeper records an event
// after the hook's caller was answered, so the last row can land a
// fraction of a millisecond after the last process ended.
func (b *bench) settledRows(conn *sql.Conn, want int) (total, bad int, err error) {
	for end := time.Now().Add(2 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		total, bad, err = b.countRows(conn)
		if err != nil || total >= want || time.Now().After(end) {
			return total, bad, err
		}
	}
}

// useConn returns conn, or without one (nil) a connection of its own that
// done closes.
func (b *bench) useConn(conn *sql.Conn) (_ *sql.Conn, done func(), _ error) {
	if conn != nil {
		return conn, func() {}, nil
	}
	db, c, err := openDB(b.db)
	if err != nil {
		return nil, nil, err
	}
	return c, func() { c.Close(); db.Close() }, nil
}

// openDB opens one real connection (database/sql alone opens lazily).
func openDB(path string) (*sql.DB, *sql.Conn, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, nil, err
	}
	conn, err := db.Conn(context.Background())
	if err == nil {
		err = conn.PingContext(context.Background())
	}
	if err != nil {
		db.Close()
		return nil, nil, errors.Join(errors.New("open store"), err)
	}
	return db, conn, nil
}
