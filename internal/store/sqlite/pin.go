package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// Pin is one connection held for the store keeper (internal/store/keeper):
// SQLite's data_version only changes between reads of the same connection,
// and holding one open is what keeps the file's shared memory and page
// cache warm between hook processes.
type Pin struct{ conn *sql.Conn }

// Pin takes a connection out of the pool until Close.
func (s *Store) Pin(ctx context.Context) (*Pin, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return &Pin{conn: conn}, nil
}

// DataVersion is PRAGMA data_version: it changes when another connection
// (another process) committed since this one last looked.
func (p *Pin) DataVersion(ctx context.Context) (int64, error) {
	var v int64
	err := p.conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v)
	return v, err
}

// CheckpointPassive copies what it can of the WAL into the database file
// without waiting for or blocking a writer. complete says the whole WAL is
// in the database file now: the next write may start the WAL over.
func (p *Pin) CheckpointPassive(ctx context.Context) (complete bool, err error) {
	var busy, frames, copied int64
	err = p.conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied)
	return err == nil && busy == 0 && frames > 0 && copied == frames, err
}

// RestartWAL writes one small row (store.SettingWALRestart) so that this
// connection, not the next hook, starts the WAL over after a complete
// checkpoint. The first write after one rewrites the WAL's header and
// fsyncs it, even with synchronous=NORMAL: measured at 0.3–15 ms here,
// paid on a hook's path — and Claude Code's hooks often come after pauses
// longer than the keeper's Quiet, so that was most hooks of a session, not
// a rare one. A reader still on the old WAL keeps SQLite from starting it
// over; the row is then appended like any write, and the next writer after
// that reader starts it over (as before).
func (p *Pin) RestartWAL(ctx context.Context) error {
	_, err := p.conn.ExecContext(ctx,
		upsertSettingSQL,
		store.SettingWALRestart, strconv.FormatInt(time.Now().UnixMicro(), 10))
	return err
}

// HasUnshipped is Store.HasUnshipped on the pinned connection: the keeper
// asks it once idle, to stay while rows wait to be shipped.
func (p *Pin) HasUnshipped(ctx context.Context) (bool, error) {
	return hasUnshipped(ctx, p.conn)
}

// ShipStuck is whether the shipper's failure is one retrying cannot mend
// (store.SettingShipPermanent): the keeper does not stay past its idle
// time for a backlog that cannot drain; the next hook starts it again.
func (p *Pin) ShipStuck(ctx context.Context) (bool, error) {
	var v string
	err := p.conn.QueryRowContext(ctx, settingQuery, store.SettingShipPermanent).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return v == "1", err
}

// Close returns the connection to the pool.
func (p *Pin) Close() error { return p.conn.Close() }
