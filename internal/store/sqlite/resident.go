package sqlite

import (
	"context"
	"strconv"
)

// residentCheckpointPages is the WAL size (in pages) at which a resident
// server's own connections still checkpoint by themselves: only a
// backstop, for a WAL nobody checkpoints in the background.
const residentCheckpointPages = 10000

// OpenResident opens the store for a resident server answering hooks (the
// keeper's hook server, the daemon). Its connections leave checkpoints
// to the background (the keeper's loop, internal/store/keeper): SQLite's
// automatic checkpoint runs inside the commit that crosses the threshold
// (1000 pages, about every 250 hooks), so one hook in ~250 would pay for
// copying the WAL and two fsyncs — tens of milliseconds, most of a
// served hook's p99. Past residentCheckpointPages they still checkpoint,
// so the WAL stays bounded if nothing else does it.
//
// Its pool keeps its connections (residentConns, open and idle alike;
// SetMaxOpenConns lowers both): database/sql keeps only 2 idle by
// default, and a new connection parses the whole schema and prepares its
// statements again — at the daemon's API rates that was a tenth of its CPU.
func OpenResident(ctx context.Context, path string) (*Store, error) {
	s, err := openWith(ctx, path, "&_pragma=wal_autocheckpoint("+strconv.Itoa(residentCheckpointPages)+")")
	if err != nil {
		return nil, err
	}
	s.db.SetMaxOpenConns(residentConns)
	s.db.SetMaxIdleConns(residentConns)
	return s, nil
}

// residentConns is a resident server's connection pool: hooks, the API
// and the scheduler side by side (SQLite still lets one writer in).
const residentConns = 16
