package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Setting implements store.Store.
func (s *Store) Setting(ctx context.Context, key string) (string, bool, error) {
	var v string
	err := s.pool.QueryRow(ctx, "SELECT value FROM settings WHERE key = $1", key).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read setting %s: %w", key, err)
	}
	return v, true, nil
}

// SetSetting implements store.Store.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	return setSetting(ctx, s.pool, key, value)
}

func setSetting(ctx context.Context, q querier, key, value string) error {
	_, err := q.Exec(ctx, "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
		key, value)
	if err != nil {
		return fmt.Errorf("write setting %s: %w", key, err)
	}
	return nil
}

// ClaimSetting sets key to value only when it is absent or empty, in one
// statement, and reports whether this call set it: of callers racing for
// the same key exactly one gets true (the loser's ON CONFLICT waits for the
// winner's row and then finds it not empty).
func (s *Store) ClaimSetting(ctx context.Context, key, value string) (bool, error) {
	tag, err := s.pool.Exec(ctx,
		"INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE settings.value = ''",
		key, value)
	if err != nil {
		return false, fmt.Errorf("claim setting %s: %w", key, err)
	}
	return tag.RowsAffected() == 1, nil
}

// DeleteSetting removes key (absent is fine).
func (s *Store) DeleteSetting(ctx context.Context, key string) error {
	_, err := s.pool.Exec(ctx, "DELETE FROM settings WHERE key = $1", key)
	return err
}
