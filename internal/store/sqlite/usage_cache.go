package sqlite

import (
	"context"
	"database/sql"
	"strings"

	"github.com/warden-dev/warden/internal/store"
)

// UsageFile is one row of the usage cache (store.UsageFile).
type UsageFile = store.UsageFile

// UsageSnapshot is one row of usage_report_cache (store.UsageSnapshot).
type UsageSnapshot = store.UsageSnapshot

const usageCols = "path, size, mtime_ns, offset, prefix, data"

func scanUsageFiles(rows *sql.Rows) ([]UsageFile, error) {
	defer rows.Close()
	var out []UsageFile
	for rows.Next() {
		var f UsageFile
		if err := rows.Scan(&f.Path, &f.Size, &f.MtimeNs, &f.Offset, &f.Prefix, &f.Data); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// UsageFiles returns every cached file.
func (s *Store) UsageFiles(ctx context.Context) ([]UsageFile, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+usageCols+" FROM usage_files")
	if err != nil {
		return nil, err
	}
	return scanUsageFiles(rows)
}

// UsageFilesByPath returns the cached rows of the given paths (missing
// paths are left out).
func (s *Store) UsageFilesByPath(ctx context.Context, paths []string) ([]UsageFile, error) {
	var out []UsageFile
	for len(paths) > 0 {
		n := min(len(paths), 500) // stay below SQLite's bound-variable limit
		args := make([]any, n)
		for i, p := range paths[:n] {
			args[i] = p
		}
		q := "SELECT " + usageCols + " FROM usage_files WHERE path IN (?" + strings.Repeat(",?", n-1) + ")"
		rows, err := s.db.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, err
		}
		part, err := scanUsageFiles(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, part...)
		paths = paths[n:]
	}
	return out, nil
}

// SaveUsageFiles upserts files and deletes the rows of removed paths, in
// one transaction.
func (s *Store) SaveUsageFiles(ctx context.Context, upd []UsageFile, remove []string) error {
	return s.SaveUsage(ctx, upd, remove, nil)
}

// SaveUsage upserts files, deletes the rows of removed paths and stores
// report snapshots, in one transaction.
func (s *Store) SaveUsage(ctx context.Context, upd []UsageFile, remove []string, snaps []UsageSnapshot) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if len(upd) > 0 {
		st, err := tx.PrepareContext(ctx, `INSERT INTO usage_files(`+usageCols+`) VALUES(?,?,?,?,?,?)
			ON CONFLICT(path) DO UPDATE SET size=excluded.size, mtime_ns=excluded.mtime_ns, offset=excluded.offset,
			prefix=excluded.prefix, data=excluded.data`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, f := range upd {
			prefix := f.Prefix
			if prefix == nil {
				prefix = []byte{}
			}
			if _, err := st.ExecContext(ctx, f.Path, f.Size, f.MtimeNs, f.Offset, prefix, f.Data); err != nil {
				return err
			}
		}
	}
	for _, p := range remove {
		if _, err := tx.ExecContext(ctx, "DELETE FROM usage_files WHERE path = ?", p); err != nil {
			return err
		}
	}
	if len(snaps) > 0 {
		// One statement for all (the blocks state is 258 rows: compiling
		// the statement per row was most of writing them).
		st, err := tx.PrepareContext(ctx, `INSERT INTO usage_report_cache(name, fingerprint, data) VALUES(?,?,?)
			ON CONFLICT(name) DO UPDATE SET fingerprint=excluded.fingerprint, data=excluded.data`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, sn := range snaps {
			if _, err := st.ExecContext(ctx, sn.Name, sn.Fingerprint, sn.Data); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

// ClearUsageFiles empties the usage cache.
func (s *Store) ClearUsageFiles(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM usage_files; DELETE FROM usage_report_cache")
	return err
}

// UsageSnapshot returns a stored report snapshot (ok false when none).
func (s *Store) UsageSnapshot(ctx context.Context, name string) (fingerprint, data []byte, ok bool, err error) {
	err = s.db.QueryRowContext(ctx, "SELECT fingerprint, data FROM usage_report_cache WHERE name = ?", name).Scan(&fingerprint, &data)
	if err == sql.ErrNoRows {
		return nil, nil, false, nil
	}
	return fingerprint, data, err == nil, err
}

// SaveUsageSnapshot stores a report snapshot.
func (s *Store) SaveUsageSnapshot(ctx context.Context, name string, fingerprint, data []byte) error {
	return s.SaveUsage(ctx, nil, nil, []UsageSnapshot{{Name: name, Fingerprint: fingerprint, Data: data}})
}
