package sqlite

import (
	"context"
	"database/sql"
)

// UsageFile is one row of the usage cache (migration 0003): a transcript
// file's size and mtime when read, the offset parsed so far and the packed
// entries before it. The packing belongs to internal/usage; the store only
// keeps the bytes.
type UsageFile struct {
	Path    string
	Size    int64
	MtimeNs int64
	Offset  int64
	Data    []byte
}

// UsageFiles returns every cached file.
func (s *Store) UsageFiles(ctx context.Context) ([]UsageFile, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT path, size, mtime_ns, offset, data FROM usage_files")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []UsageFile
	for rows.Next() {
		var f UsageFile
		if err := rows.Scan(&f.Path, &f.Size, &f.MtimeNs, &f.Offset, &f.Data); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// SaveUsageFiles upserts files and deletes the rows of removed paths, in
// one transaction.
func (s *Store) SaveUsageFiles(ctx context.Context, upd []UsageFile, remove []string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if len(upd) > 0 {
		st, err := tx.PrepareContext(ctx, `INSERT INTO usage_files(path, size, mtime_ns, offset, data) VALUES(?,?,?,?,?)
			ON CONFLICT(path) DO UPDATE SET size=excluded.size, mtime_ns=excluded.mtime_ns, offset=excluded.offset, data=excluded.data`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, f := range upd {
			if _, err := st.ExecContext(ctx, f.Path, f.Size, f.MtimeNs, f.Offset, f.Data); err != nil {
				return err
			}
		}
	}
	for _, p := range remove {
		if _, err := tx.ExecContext(ctx, "DELETE FROM usage_files WHERE path = ?", p); err != nil {
			return err
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
	_, err := s.db.ExecContext(ctx, `INSERT INTO usage_report_cache(name, fingerprint, data) VALUES(?,?,?)
		ON CONFLICT(name) DO UPDATE SET fingerprint=excluded.fingerprint, data=excluded.data`, name, fingerprint, data)
	return err
}
