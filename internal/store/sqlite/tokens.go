package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// API tokens (migration 0011) and webhook deliveries (0012).

const tokenCols = "id, name, hash, created_us, last_used_us, revoked_us, scope, expires_us"

// AddToken stores a new token (its hash only).
func (s *Store) AddToken(ctx context.Context, t *store.APIToken) error {
	_, err := s.execRetry(ctx, "INSERT INTO api_tokens (id, name, hash, created_us, scope, expires_us) VALUES (?,?,?,?,?,?)",
		t.ID, t.Name, t.Hash, t.Created.UnixMicro(), t.EffectiveScope(), expiresUS(t))
	if err != nil {
		return fmt.Errorf("store token: %w", err)
	}
	return nil
}

// TokenByHash finds the unrevoked token with hash (expired or not: the
// API says which it is); nil when none.
func (s *Store) TokenByHash(ctx context.Context, hash string) (*store.APIToken, error) {
	t, err := scanToken(cachedDB{s}.QueryRowContext(ctx,
		"SELECT "+tokenCols+" FROM api_tokens WHERE hash = ? AND revoked_us = 0", hash))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return t, err
}

// TouchToken records that token id was used at now (at most once a
// minute is worth a write; the caller decides).
func (s *Store) TouchToken(ctx context.Context, id string, now time.Time) error {
	_, err := s.execRetry(ctx, "UPDATE api_tokens SET last_used_us = ? WHERE id = ?", now.UnixMicro(), id)
	return err
}

// Tokens lists every token, revoked ones included, oldest first.
func (s *Store) Tokens(ctx context.Context) ([]store.APIToken, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+tokenCols+" FROM api_tokens ORDER BY created_us, id")
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	defer rows.Close()
	var out []store.APIToken
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *t)
	}
	return out, rows.Err()
}

// RevokeToken revokes the token whose id or name is idOrName; it reports
// how many it revoked (0: none matched or already revoked).
func (s *Store) RevokeToken(ctx context.Context, idOrName string, now time.Time) (int64, error) {
	res, err := s.execRetry(ctx, "UPDATE api_tokens SET revoked_us = ? WHERE (id = ? OR name = ?) AND revoked_us = 0",
		now.UnixMicro(), idOrName, idOrName)
	if err != nil {
		return 0, fmt.Errorf("revoke token: %w", err)
	}
	return res.RowsAffected()
}

// expiresUS is the stored expiry: 0 for never.
func expiresUS(t *store.APIToken) int64 {
	if t.Expires == nil {
		return 0
	}
	return t.Expires.UnixMicro()
}

func scanToken(sc interface{ Scan(...any) error }) (*store.APIToken, error) {
	var t store.APIToken
	var created, used, revoked, expires int64
	if err := sc.Scan(&t.ID, &t.Name, &t.Hash, &created, &used, &revoked, &t.Scope, &expires); err != nil {
		return nil, err
	}
	t.Created = time.UnixMicro(created).UTC()
	if used > 0 {
		u := time.UnixMicro(used).UTC()
		t.LastUsed = &u
	}
	if revoked > 0 {
		r := time.UnixMicro(revoked).UTC()
		t.Revoked = &r
	}
	if expires > 0 {
		e := time.UnixMicro(expires).UTC()
		t.Expires = &e
	}
	return &t, nil
}

// ClaimDelivery records webhook delivery id from source; first is false
// when it was recorded before (a replay: act on it no more).
func (s *Store) ClaimDelivery(ctx context.Context, source, id string, now time.Time) (first bool, err error) {
	return s.claimRetry(ctx, "INSERT INTO webhook_deliveries (source, delivery_id, time_us) VALUES (?,?,?) ON CONFLICT DO NOTHING",
		source, id, now.UnixMicro())
}

// SetDeliveryTask notes the task a delivery made.
func (s *Store) SetDeliveryTask(ctx context.Context, source, id, taskID string) error {
	_, err := s.execRetry(ctx, "UPDATE webhook_deliveries SET task_id = ? WHERE source = ? AND delivery_id = ?", taskID, source, id)
	return err
}
