package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
)

// The pacing tables (migration 0002): *Store implements quota.Store.
var _ quota.Store = (*Store)(nil)

// AddSnapshot implements quota.Store.
func (s *Store) AddSnapshot(ctx context.Context, snap *quota.Snapshot) (int64, error) {
	id, err := s.insertRetry(ctx, `INSERT INTO usage_snapshots
		(ts_us, source, session_id, five_util, five_reset, seven_util, seven_reset) VALUES (?,?,?,?,?,?,?)`,
		snap.Time.UnixMicro(), snap.Source, snap.SessionID,
		nullFloat(snap.FiveHour.Util), nullUnix(snap.FiveHour.ResetsAt),
		nullFloat(snap.SevenDay.Util), nullUnix(snap.SevenDay.ResetsAt))
	if err != nil {
		return 0, fmt.Errorf("record usage snapshot: %w", err)
	}
	snap.ID = id
	return id, nil
}

// insertRetry is execRetry for an INSERT: it returns the new row's id.
func (s *Store) insertRetry(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := s.execRetry(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// claimRetry is execRetry for a statement that changes one row or none: it
// reports whether it changed one.
func (s *Store) claimRetry(ctx context.Context, query string, args ...any) (bool, error) {
	res, err := s.execRetry(ctx, query, args...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

const snapshotCols = "id, ts_us, source, session_id, five_util, five_reset, seven_util, seven_reset"

func scanSnapshot(sc interface{ Scan(...any) error }) (*quota.Snapshot, error) {
	var snap quota.Snapshot
	var ts int64
	var fu, su sql.NullFloat64
	var fr, sr sql.NullInt64
	if err := sc.Scan(&snap.ID, &ts, &snap.Source, &snap.SessionID, &fu, &fr, &su, &sr); err != nil {
		return nil, err
	}
	snap.Time = time.UnixMicro(ts).UTC()
	snap.FiveHour = quota.Window{Util: floatPtr(fu), ResetsAt: unixPtr(fr)}
	snap.SevenDay = quota.Window{Util: floatPtr(su), ResetsAt: unixPtr(sr)}
	return &snap, nil
}

// LatestSnapshot implements quota.Store.
func (s *Store) LatestSnapshot(ctx context.Context, source string) (*quota.Snapshot, error) {
	q := "SELECT " + snapshotCols + " FROM usage_snapshots ORDER BY ts_us DESC, id DESC LIMIT 1"
	args := []any{}
	if source != "" {
		q = "SELECT " + snapshotCols + " FROM usage_snapshots WHERE source = ? ORDER BY ts_us DESC, id DESC LIMIT 1"
		args = append(args, source)
	}
	snap, err := scanSnapshot(cachedDB{s}.QueryRowContext(ctx, q, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read usage snapshot: %w", err)
	}
	return snap, nil
}

// SnapshotsSince implements quota.Store.
func (s *Store) SnapshotsSince(ctx context.Context, since time.Time) ([]quota.Snapshot, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+snapshotCols+" FROM usage_snapshots WHERE ts_us > ? ORDER BY ts_us, id",
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
	id, err := s.insertRetry(ctx, `INSERT INTO pace_decisions
		(ts_us, snapshot_id, sessions, delay_s, algo_delay_s, window, strategy, detail) VALUES (?,?,?,?,?,?,?,?)`,
		d.Time.UnixMicro(), d.SnapshotID, d.Sessions, d.DelaySeconds, d.AlgorithmDelay, d.Window, d.Strategy, detail)
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
	err := cachedDB{s}.QueryRowContext(ctx, `SELECT id, ts_us, snapshot_id, sessions, delay_s, algo_delay_s, window, strategy, detail
		FROM pace_decisions ORDER BY id DESC LIMIT 1`).
		Scan(&d.ID, &ts, &d.SnapshotID, &d.Sessions, &d.DelaySeconds, &d.AlgorithmDelay, &d.Window, &d.Strategy, &detail)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read pacing decision: %w", err)
	}
	d.Time, d.Detail = time.UnixMicro(ts).UTC(), []byte(detail)
	return &d, nil
}

// ActiveSessions implements quota.Store.
func (s *Store) ActiveSessions(ctx context.Context, since time.Time) ([]string, error) {
	// A session whose latest event is its SessionEnd has ended: it shares
	// nothing any more (a resumed session records events after it and
	// counts again). The latest event is the one with the highest id.
	rows, err := s.db.QueryContext(ctx, `SELECT e.session_id FROM events e
		JOIN (SELECT session_id, MAX(id) AS last FROM events
		      WHERE ts_us >= ? AND session_id != '' GROUP BY session_id) l ON e.id = l.last
		WHERE e.event != 'SessionEnd' ORDER BY e.session_id`, since.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("list active sessions: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// TryLease implements quota.Store. One UPSERT statement under SQLite's
// write lock: the conflict branch only updates when next_us has passed, so
// of any number of concurrent callers exactly one changes a row.
func (s *Store) TryLease(ctx context.Context, name, holder string, now time.Time, hold time.Duration) (bool, error) {
	got, err := s.claimRetry(ctx, `INSERT INTO pace_leases (name, holder, next_us, last_us, polls) VALUES (?1, ?2, ?3, ?4, 1)
		ON CONFLICT(name) DO UPDATE SET holder = excluded.holder, next_us = excluded.next_us,
			last_us = excluded.last_us, polls = pace_leases.polls + 1
		WHERE pace_leases.next_us <= ?4`,
		name, holder, now.Add(hold).UnixMicro(), now.UnixMicro())
	if err != nil {
		return false, fmt.Errorf("take lease %s: %w", name, err)
	}
	return got, nil
}

// FinishLease implements quota.Store. It changes nothing when holder no
// longer holds the lease.
func (s *Store) FinishLease(ctx context.Context, name, holder string, now, next time.Time, failures int, status string) error {
	_, err := s.execRetry(ctx, `UPDATE pace_leases SET next_us = ?, failures = ?, last_status = ?, last_us = ?
		WHERE name = ? AND holder = ?`, next.UnixMicro(), failures, status, now.UnixMicro(), name, holder)
	return err
}

// LeaseState implements quota.Store.
func (s *Store) LeaseState(ctx context.Context, name string) (quota.Lease, error) {
	l := quota.Lease{Name: name}
	var next, last int64
	err := s.db.QueryRowContext(ctx, `SELECT holder, next_us, failures, last_us, last_status, polls FROM pace_leases WHERE name = ?`, name).
		Scan(&l.Holder, &next, &l.Failures, &last, &l.LastStatus, &l.Polls)
	if errors.Is(err, sql.ErrNoRows) {
		return l, nil
	}
	if err != nil {
		return l, fmt.Errorf("read lease %s: %w", name, err)
	}
	if next > 0 {
		l.Next = time.UnixMicro(next).UTC()
	}
	if last > 0 {
		l.Last = time.UnixMicro(last).UTC()
	}
	return l, nil
}

// ClaimNotice implements quota.Store. Reset times are rounded to 10
// minutes: sources report the same reset a few seconds apart.
func (s *Store) ClaimNotice(ctx context.Context, window string, reset time.Time, level int, now time.Time) (bool, error) {
	key := reset.Round(10 * time.Minute).Unix()
	got, err := s.claimRetry(ctx, `INSERT OR IGNORE INTO pace_notices (window, reset_s, level, ts_us) VALUES (?,?,?,?)`,
		window, key, level, now.UnixMicro())
	if err != nil {
		return false, fmt.Errorf("record pacing notice: %w", err)
	}
	return got, nil
}

// PrunePacing implements quota.Store.
func (s *Store) PrunePacing(ctx context.Context, before time.Time) (int64, error) {
	var total int64
	err := retryLocked(ctx, func() error {
		total = 0
		for _, q := range []string{
			"DELETE FROM usage_snapshots WHERE ts_us < ?",
			"DELETE FROM pace_decisions WHERE ts_us < ?",
			"DELETE FROM pace_notices WHERE ts_us < ?",
		} {
			res, err := s.db.ExecContext(ctx, q, before.UnixMicro())
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			total += n
		}
		return nil
	})
	return total, err
}

func nullFloat(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

func nullUnix(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.Unix()
}

func floatPtr(n sql.NullFloat64) *float64 {
	if !n.Valid {
		return nil
	}
	v := n.Float64
	return &v
}

func unixPtr(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := time.Unix(n.Int64, 0).UTC()
	return &t
}
