package hook

import (
	"context"
	"io"
	"time"

	"github.com/warden-dev/warden/internal/store/sqlite"
)

// ServeOptions configure Serve.
type ServeOptions struct {
	// Socket is the unix socket to answer on (paths.HookSocket()).
	Socket string
	// DBPath is the store this keeper holds; a client whose warden home
	// resolves to another store is declined.
	DBPath string
	// Store is the open store every served hook writes to; Serve never
	// closes it.
	Store *sqlite.Store
	// EnvWait is how long a request may wait for the hook that holds the
	// process environment (a judge can hold it for seconds) before it is
	// declined and runs in its own process (default 30 ms).
	EnvWait time.Duration
	// Drain is how long Serve waits for running hooks once ctx ends
	// (default 5 s); hooks still running then are cut off and their
	// clients allow.
	Drain time.Duration
	// Log gets one line per problem the keeper meets (nil: discarded).
	Log io.Writer
}

func (o *ServeOptions) defaults() {
	if o.EnvWait <= 0 {
		o.EnvWait = 30 * time.Millisecond
	}
	if o.Drain <= 0 {
		o.Drain = 5 * time.Second
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// Serve answers hooks handed over by `warden hook` (internal/hookclient,
// protocol in internal/hookwire) until ctx ends. Each runs exactly as
// Main would in the client's process: with the client's arguments,
// working directory, environment and stdio, on the keeper's open store.
//
// The environment and working directory are process-wide, so one hook at
// a time has them: from its start until its output is written. The record
// (and a pacing sleep) happen after, side by side. A hook that cannot
// have them within EnvWait is declined and its client runs it itself, so
// a slow judge never queues every other hook behind it.
func Serve(ctx context.Context, o ServeOptions) error {
	o.defaults()
	return serve(ctx, o)
}
