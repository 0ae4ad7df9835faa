package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/pace/quota"
)

// The pacing ledger (migration 0002), shared by every worker: one poll
// lease, one list of snapshots and decisions. *Store implements
// quota.Store.
var _ quota.Store = (*Store)(nil)

// AddSnapshot implements quota.Store.
func (s *Store) AddSnapshot(ctx context.Context, snap *quota.Snapshot) (int64, error) {
	var id int64
	err := s.pool.QueryRow(ctx, `INSERT INTO usage_snapshots
		(ts_us, source, session_id, five_util, five_reset, seven_util, seven_reset) VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING id`,
		snap.Time.UnixMicro(), snap.Source, snap.SessionID,
		snap.FiveHour.Util, unixOf(snap.FiveHour.ResetsAt),
		snap.SevenDay.Util, unixOf(snap.SevenDay.ResetsAt)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("record usage snapshot: %w", err)
	}
	snap.ID = id
	return id, nil
}

const snapshotCols = "id, ts_us, source, session_id, five_util, five_reset, seven_util, seven_reset"

func scanSnapshot(sc pgx.Row) (*quota.Snapshot, error) {
	var snap quota.Snapshot
	var ts int64
	var fu, su *float64
	var fr, sr *int64
	if err := sc.Scan(&snap.ID, &ts, &snap.Source, &snap.SessionID, &fu, &fr, &su, &sr); err != nil {
		return nil, err
	}
	snap.Time = micros(ts)
	snap.FiveHour = quota.Window{Util: fu, ResetsAt: unixPtr(fr)}
	snap.SevenDay = quota.Window{Util: su, ResetsAt: unixPtr(sr)}
	return &snap, nil
}

// LatestSnapshot implements quota.Store.
func (s *Store) LatestSnapshot(ctx context.Context, source string) (*quota.Snapshot, error) {
	q := "SELECT " + snapshotCols + " FROM usage_snapshots ORDER BY ts_us DESC, id DESC LIMIT 1"
	var args []any
	if source != "" {
		q = "SELECT " + snapshotCols + " FROM usage_snapshots WHERE source = $1 ORDER BY ts_us DESC, id DESC LIMIT 1"
		args = append(args, source)
	}
	snap, err := scanSnapshot(s.pool.QueryRow(ctx, q, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read usage snapshot: %w", err)
	}
	return snap, nil
}

// SnapshotsSince implements quota.Store.
func (s *Store) SnapshotsSince(ctx context.Context, since time.Time) ([]quota.Snapshot, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+snapshotCols+" FROM usage_snapshots WHERE ts_us > $1 ORDER BY ts_us, id",
		since.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("read usage snapshots: %w", err)
	}
	defer rows.Close()
	var out []quota.Snapshot
	for rows.Next() {
		snap, err := scanSnapshot(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *snap)
	}
	return out, rows.Err()
}

// SaveDecision implements quota.Store.
func (s *Store) SaveDecision(ctx context.Context, d *quota.Decision) (int64, error) {
	detail := string(d.Detail)
	if detail == "" {
		detail = "{}"
	}
	var id int64
	err := s.pool.QueryRow(ctx, `INSERT INTO pace_decisions
		(ts_us, snapshot_id, sessions, delay_s, algo_delay_s, "window", strategy, detail) VALUES ($1,$2,$3,$4,$5,$6,$7,$8) RETURNING id`,
		d.Time.UnixMicro(), d.SnapshotID, d.Sessions, d.DelaySeconds, d.AlgorithmDelay, d.Window, d.Strategy, detail).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("record pacing decision: %w", err)
	}
	d.ID = id
	return id, nil
}

// LatestDecision implements quota.Store.
func (s *Store) LatestDecision(ctx context.Context) (*quota.Decision, error) {
	var d quota.Decision
	var ts int64
	var detail string
	err := s.pool.QueryRow(ctx, `SELECT id, ts_us, snapshot_id, sessions, delay_s, algo_delay_s, "window", strategy, detail
		FROM pace_decisions ORDER BY id DESC LIMIT 1`).
		Scan(&d.ID, &ts, &d.SnapshotID, &d.Sessions, &d.DelaySeconds, &d.AlgorithmDelay, &d.Window, &d.Strategy, &detail)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read pacing decision: %w", err)
	}
	d.Time, d.Detail = micros(ts), []byte(detail)
	return &d, nil
}

// ActiveSessions implements quota.Store: sessions with an event since
// since whose latest event is not their SessionEnd.
func (s *Store) ActiveSessions(ctx context.Context, since time.Time) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT e.session_id FROM events e
		JOIN (SELECT session_id, max(id) AS last FROM events
		      WHERE ts_us >= $1 AND session_id <> '' GROUP BY session_id) l ON e.id = l.last
		WHERE e.event <> 'SessionEnd' ORDER BY e.session_id`, since.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("list active sessions: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// TryLease implements quota.Store. One UPSERT: the conflict branch only
// updates when next_us has passed; a racing caller's ON CONFLICT waits for
// the winner's row lock and then sees next_us in the future, so exactly
// one of any number of concurrent callers (on any machine) gets it.
func (s *Store) TryLease(ctx context.Context, name, holder string, now time.Time, hold time.Duration) (bool, error) {
	tag, err := s.pool.Exec(ctx, `INSERT INTO pace_leases (name, holder, next_us, last_us, polls) VALUES ($1, $2, $3, $4, 1)
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, next_us = excluded.next_us,
			last_us = excluded.last_us, polls = pace_leases.polls + 1
		WHERE pace_leases.next_us <= $4`,
		name, holder, now.Add(hold).UnixMicro(), now.UnixMicro())
	if err != nil {
		return false, fmt.Errorf("take lease %s: %w", name, err)
	}
	return tag.RowsAffected() == 1, nil
}

// FinishLease implements quota.Store. It changes nothing when holder no
// longer holds the lease.
func (s *Store) FinishLease(ctx context.Context, name, holder string, now, next time.Time, failures int, status string) error {
	_, err := s.pool.Exec(ctx, `UPDATE pace_leases SET next_us = $1, failures = $2, last_status = $3, last_us = $4
		WHERE name = $5 AND holder = $6`, next.UnixMicro(), failures, status, now.UnixMicro(), name, holder)
	return err
}

// LeaseState implements quota.Store.
func (s *Store) LeaseState(ctx context.Context, name string) (quota.Lease, error) {
	l := quota.Lease{Name: name}
	var next, last int64
	err := s.pool.QueryRow(ctx, `SELECT holder, next_us, failures, last_us, last_status, polls FROM pace_leases WHERE name = $1`, name).
		Scan(&l.Holder, &next, &l.Failures, &last, &l.LastStatus, &l.Polls)
	if errors.Is(err, pgx.ErrNoRows) {
		return l, nil
	}
	if err != nil {
		return l, fmt.Errorf("read lease %s: %w", name, err)
	}
	if next > 0 {
		l.Next = micros(next)
	}
	if last > 0 {
		l.Last = micros(last)
	}
	return l, nil
}

// ClaimNotice implements quota.Store. Reset times are rounded to 10
// minutes: sources report the same reset a few seconds apart.
func (s *Store) ClaimNotice(ctx context.Context, window string, reset time.Time, level int, now time.Time) (bool, error) {
	key := reset.Round(10 * time.Minute).Unix()
	tag, err := s.pool.Exec(ctx, `INSERT INTO pace_notices ("window", reset_s, level, ts_us) VALUES ($1,$2,$3,$4) ON CONFLICT DO NOTHING`,
		window, key, level, now.UnixMicro())
	if err != nil {
		return false, fmt.Errorf("record pacing notice: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// PrunePacing implements quota.Store.
func (s *Store) PrunePacing(ctx context.Context, before time.Time) (int64, error) {
	var total int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		total = 0
		for _, q := range []string{
			"DELETE FROM usage_snapshots WHERE ts_us < $1",
			"DELETE FROM pace_decisions WHERE ts_us < $1",
			"DELETE FROM pace_notices WHERE ts_us < $1",
		} {
			tag, err := tx.Exec(ctx, q, before.UnixMicro())
			if err != nil {
				return err
			}
			total += tag.RowsAffected()
		}
		return nil
	})
	return total, err
}

func unixOf(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	u := t.Unix()
	return &u
}

func unixPtr(n *int64) *time.Time {
	if n == nil {
		return nil
	}
	t := time.Unix(*n, 0).UTC()
	return &t
}
