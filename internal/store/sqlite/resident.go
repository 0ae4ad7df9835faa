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
func OpenResident(ctx context.Context, path string) (*Store, error) {
	return openWith(ctx, path, "&_pragma=wal_autocheckpoint("+strconv.Itoa(residentCheckpointPages)+")")
}
