package daemon

import (
	"context"
	"log/slog"
	"time"
)

// stateCheckEvery is how often the daemon checks that its serve.json is
// still there.
const stateCheckEvery = 2 * time.Second

// keepState writes serve.json again when it is removed (or replaced by
// another daemon's, which cannot run beside this one: it holds the
// keeper lock) while the daemon runs: the CLI finds the daemon through
// it, and a second `warden serve` refuses to start either way (the lock
// names its holder a daemon). It stops with ctx.
func keepState(ctx context.Context, path string, s State, log *slog.Logger) {
	t := time.NewTicker(stateCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if cur, err := ReadState(path); err == nil && cur.PID == s.PID {
			continue
		}
		if ctx.Err() != nil {
			return // stopping: the file goes with the daemon
		}
		if err := writeState(path, s); err != nil {
			log.Error("serve.json is gone and could not be written again", "path", path, "err", err)
			continue
		}
		log.Warn("serve.json was removed or changed while the daemon ran: written again", "path", path)
	}
}
