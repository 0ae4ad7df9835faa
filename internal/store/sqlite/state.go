package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// Session implements store.Store.
func (s *Store) Session(ctx context.Context, id string) (*store.Session, error) {
	ctx = lookupCtx(ctx)
	var sess store.Session
	var started, updated int64
	var state string
	err := cachedDB{s}.QueryRowContext(ctx, "SELECT id, cwd, started_us, updated_us, state, sig FROM sessions WHERE id = ?", id).
		Scan(&sess.ID, &sess.Cwd, &started, &updated, &state, &sess.Sig)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	sess.Started, sess.Updated = time.UnixMicro(started).UTC(), time.UnixMicro(updated).UTC()
	sess.State = []byte(state)
	return &sess, nil
}

// settingQuery reads one setting and upsertSettingSQL writes one;
// chainTipQuery reads the newest event's id and hash (the chain's tip).
const (
	settingQuery     = "SELECT value FROM settings WHERE key = ?"
	upsertSettingSQL = "INSERT INTO settings(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
	chainTipQuery    = "SELECT id, hash FROM events ORDER BY id DESC LIMIT 1"
)

// Setting implements store.Store.
func (s *Store) Setting(ctx context.Context, key string) (string, bool, error) {
	if v, ok, held := store.SnapshotSetting(ctx, key); held {
		return v, ok, nil
	}
	ctx = lookupCtx(ctx)
	var v string
	err := cachedDB{s}.QueryRowContext(ctx, settingQuery, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read setting %s: %w", key, err)
	}
	return v, true, nil
}

// SetSetting implements store.Store.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	_, err := s.execRetry(ctx,
		upsertSettingSQL,
		key, value)
	store.ForgetSetting(ctx, key)
	return err
}

// Settings reads several settings in one query (one read transaction):
// the values of the keys that are set.
func (s *Store) Settings(ctx context.Context, keys []string) (map[string]string, error) {
	out := make(map[string]string, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	rows, err := cachedDB{s}.QueryContext(lookupCtx(ctx), settingsQuery(len(keys)), args...)
	if err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("read settings: %w", err)
		}
		out[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	return out, nil
}

// settingsQuery is the query for n keys; hooks ask for 1 or 3, so the
// statement cache holds a couple of them. Point lookups joined by UNION
// ALL: "key IN (…)" builds a temporary index of the list first and cost
// 1.7× as much (31 µs against 18 µs for three keys).
func settingsQuery(n int) string {
	const one = "SELECT key, value FROM settings WHERE key = ?"
	return one + strings.Repeat(" UNION ALL "+one, n-1)
}

// lookupCtx is ctx without its cancellation (its values stay) for a point
// lookup by key: in WAL mode a reader never waits for a writer, so the
// lookup ends in microseconds anyway, while a cancellable context costs a
// goroutine per statement in database/sql and another in the driver to
// watch it — as much as the lookup itself (18 µs against 45 µs for the
// three settings a hook reads).
func lookupCtx(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// ClaimSetting sets key to value only when it is absent or empty, in one
// statement, and reports whether this call set it: of callers racing for
// the same key exactly one gets true.
func (s *Store) ClaimSetting(ctx context.Context, key, value string) (bool, error) {
	res, err := s.execRetry(ctx,
		"INSERT INTO settings(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE settings.value = ''",
		key, value)
	store.ForgetSetting(ctx, key)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// DeleteSetting removes key (absent is fine).
func (s *Store) DeleteSetting(ctx context.Context, key string) error {
	_, err := s.execRetry(ctx, "DELETE FROM settings WHERE key = ?", key)
	store.ForgetSetting(ctx, key)
	return err
}

// Check implements store.Store: a quick integrity check and the schema
// version this binary expects.
func (s *Store) Check(ctx context.Context) error {
	if err := s.quickCheck(ctx); err != nil {
		return err
	}
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if want := LatestVersion(); v != want {
		return fmt.Errorf("store %s has schema version %d, this warden expects %d", s.path, v, want)
	}
	var mode string
	if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if mode != "wal" {
		return fmt.Errorf("store %s is in %s journal mode, expected wal", s.path, mode)
	}
	return nil
}

// The SQLite store plays both roles: the machine's own store, and the
// shared one of a daemon alone (internal/store/roles.go).
var (
	_ store.Local  = (*Store)(nil)
	_ store.Shared = (*Store)(nil)
)
