package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/warden-dev/warden/internal/store"
)

// The usage cache (migrations 0003, 0008). "offset" is quoted: reserved
// in PostgreSQL.
const usageCols = `path, size, mtime_ns, "offset", prefix, data`

func scanUsageFiles(rows pgx.Rows) ([]store.UsageFile, error) {
	defer rows.Close()
	var out []store.UsageFile
	for rows.Next() {
		var f store.UsageFile
		if err := rows.Scan(&f.Path, &f.Size, &f.MtimeNs, &f.Offset, &f.Prefix, &f.Data); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// UsageFiles returns every cached file.
func (s *Store) UsageFiles(ctx context.Context) ([]store.UsageFile, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+usageCols+" FROM usage_files")
	if err != nil {
		return nil, err
	}
	return scanUsageFiles(rows)
}

// UsageFilesByPath returns the cached rows of the given paths (missing
// paths are left out).
func (s *Store) UsageFilesByPath(ctx context.Context, paths []string) ([]store.UsageFile, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, "SELECT "+usageCols+" FROM usage_files WHERE path = ANY($1)", paths)
	if err != nil {
		return nil, err
	}
	return scanUsageFiles(rows)
}

// SaveUsageFiles upserts files and deletes the rows of removed paths, in
// one transaction.
func (s *Store) SaveUsageFiles(ctx context.Context, upd []store.UsageFile, remove []string) error {
	return s.SaveUsage(ctx, upd, remove, nil)
}

// SaveUsage upserts files, deletes the rows of removed paths and stores
// report snapshots, in one transaction (one round trip: a batch).
func (s *Store) SaveUsage(ctx context.Context, upd []store.UsageFile, remove []string, snaps []store.UsageSnapshot) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		b := &pgx.Batch{}
		for _, f := range upd {
			prefix := f.Prefix
			if prefix == nil {
				prefix = []byte{}
			}
			b.Queue(`INSERT INTO usage_files (`+usageCols+`) VALUES ($1,$2,$3,$4,$5,$6)
				ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns, "offset" = excluded."offset",
				prefix = excluded.prefix, data = excluded.data`, f.Path, f.Size, f.MtimeNs, f.Offset, prefix, f.Data)
		}
		if len(remove) > 0 {
			b.Queue("DELETE FROM usage_files WHERE path = ANY($1)", remove)
		}
		for _, sn := range snaps {
			b.Queue(`INSERT INTO usage_report_cache (name, fingerprint, data) VALUES ($1,$2,$3)
				ON CONFLICT (name) DO UPDATE SET fingerprint = excluded.fingerprint, data = excluded.data`,
				sn.Name, sn.Fingerprint, sn.Data)
		}
		if b.Len() == 0 {
			return nil
		}
		return tx.SendBatch(ctx, b).Close()
	})
}

// ClearUsageFiles empties the usage cache.
func (s *Store) ClearUsageFiles(ctx context.Context) error {
	_, err := s.pool.Exec(ctx, "DELETE FROM usage_files; DELETE FROM usage_report_cache")
	return err
}

// UsageSnapshot returns a stored report snapshot (ok false when none).
func (s *Store) UsageSnapshot(ctx context.Context, name string) (fingerprint, data []byte, ok bool, err error) {
	err = s.pool.QueryRow(ctx, "SELECT fingerprint, data FROM usage_report_cache WHERE name = $1", name).Scan(&fingerprint, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, false, nil
	}
	return fingerprint, data, err == nil, err
}

// SaveUsageSnapshot stores a report snapshot.
func (s *Store) SaveUsageSnapshot(ctx context.Context, name string, fingerprint, data []byte) error {
	return s.SaveUsage(ctx, nil, nil, []store.UsageSnapshot{{Name: name, Fingerprint: fingerprint, Data: data}})
}
