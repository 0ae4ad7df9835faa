package keeper

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/warden-dev/warden/internal/store/sqlite"
)

// RoleServe marks the lock of warden serve (Options.Role).
const RoleServe = "serve"

// ErrRunning is returned by Run when another keeper holds the store.
var ErrRunning = errors.New("a keeper already holds this store")

// ErrStoreGone is returned (wrapped, naming the file) by Run when the
// store's file was removed or replaced while it held it: what was written
// since went to a file nobody opens again. An on-demand keeper just
// leaves (the next hook makes or opens the new file); warden serve stops
// with an error.
var ErrStoreGone = errors.New("the store file was removed or replaced while the keeper held it")

// Options configure Run; zero durations take the defaults.
type Options struct {
	DBPath   string
	LockPath string
	// Idle: exit after this long without a commit (default 30 min), unless
	// Backlog holds the keeper.
	Idle time.Duration
	// Poll: how often to look at the store (default 2 s).
	Poll time.Duration
	// Quiet: checkpoint once writes have stopped for this long (default 5 s).
	Quiet time.Duration
	// Busy: while writes go on, checkpoint at least this often (default
	// 10 s). The hook server's connections leave checkpoints to this loop
	// (sqlite.OpenResident), so the WAL must not wait for a quiet moment
	// that a busy daemon never has.
	Busy time.Duration
	// Binary, when set, is the keeper's own executable: when the file there
	// is replaced (a reinstall or rebuild the installer did not stop the
	// keeper for), the keeper leaves, so hooks are not answered by old code
	// for up to Idle; the next hook starts the new one.
	Binary string
	// Serve, when set, runs beside the keeper from the moment it holds the
	// store until it stops (it answers hooks: internal/hookserve); Run
	// cancels its context and waits for it before returning.
	Serve func(ctx context.Context) error
	// Backlog, when set, is asked on each poll once the keeper has been
	// idle for Idle: while it says rows wait to be shipped to a shared
	// store (its shipper child runs beside it: internal/store/ship), the
	// keeper stays, so an outage longer than Idle is drained when the
	// shared store answers again, not at the next hook. Once drained and
	// idle for another Idle, it leaves. It runs under a deadline of its
	// own on the keeper's pinned connection (sqlite.Pin.HasUnshipped): the
	// store's pool has no other. An error counts as no backlog.
	Backlog func(ctx context.Context, pin *sqlite.Pin) (bool, error)
	// Log gets a line when the keeper stays for a backlog (nil: none).
	Log io.Writer
	// Role is written after the pid in the lock file (Holder): RoleServe
	// for warden serve, so a second one tells the daemon from an
	// on-demand keeper it may stop, even when serve.json is gone.
	Role string

	// polled, set only by tests, hears of every poll the keeper stayed
	// through (non-blocking: give it a buffer), so a test can wait for
	// polls instead of sleeping and hoping they happened.
	polled chan<- struct{}
	// opening, set only by tests, runs between the keeper's first look
	// at the store and its open.
	opening func()
}

func (o *Options) defaults() {
	if o.Idle <= 0 {
		o.Idle = 30 * time.Minute
	}
	if o.Poll <= 0 {
		o.Poll = 2 * time.Second
	}
	if o.Quiet <= 0 {
		o.Quiet = 5 * time.Second
	}
	if o.Busy <= 0 {
		o.Busy = 10 * time.Second
	}
}

// Run holds the store open until ctx ends, the store goes idle, or its file
// is removed or replaced. It returns ErrRunning at once when another keeper
// has the lock, and an error when the store does not exist (a keeper never
// creates one).
func Run(ctx context.Context, o Options) error {
	o.defaults()
	unlock, err := tryLock(o.LockPath, o.Role)
	if err != nil {
		return err
	}
	defer unlock()
	before, err := os.Stat(o.DBPath)
	if err != nil {
		return fmt.Errorf("keeper: no store to keep: %w", err)
	}
	var binary os.FileInfo
	if o.Binary != "" {
		binary, _ = os.Stat(o.Binary)
	}
	// Opening is not cut short by a stop either (see statement): a keeper
	// stopped meanwhile opens, then leaves at the loop's first look.
	octx, cancelOpen := context.WithTimeout(context.WithoutCancel(ctx), openTimeout)
	defer cancelOpen()
	// Never creates: a store removed between the look above and this open
	// stays removed (SQLite would make a new empty file at the path).
	if o.opening != nil {
		o.opening()
	}
	st, err := sqlite.OpenExisting(octx, o.DBPath)
	if err != nil {
		if gone(o.DBPath, before) {
			return o.storeGone() // removed or replaced while opening: nothing to keep
		}
		return fmt.Errorf("keeper: %w", err)
	}
	defer st.Close()
	// One pinned connection: data_version is only meaningful on the same
	// connection, and holding it is the keeper's whole point.
	pin, err := st.Pin(octx)
	if err != nil {
		return fmt.Errorf("keeper: %w", err)
	}
	defer pin.Close()
	version := func() (int64, error) {
		sctx, cancel := statement(ctx)
		defer cancel()
		return pin.DataVersion(sctx)
	}
	last, err := version()
	if err != nil {
		return fmt.Errorf("keeper: %w", err)
	}
	if ctx.Err() != nil {
		return nil // stopped while opening
	}
	if o.Serve != nil {
		sctx, cancel := context.WithCancel(ctx)
		served := make(chan struct{})
		go func() {
			defer close(served)
			_ = o.Serve(sctx) // a keeper that cannot serve still keeps the store
		}()
		defer func() { cancel(); <-served }()
	}
	lastChange, lastCheckpoint, dirty := time.Now(), time.Now(), false
	holding := false // staying past Idle for a backlog (logged once per stay)
	tick := time.NewTicker(o.Poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if gone(o.DBPath, before) {
			return o.storeGone() // removed or replaced: this connection keeps nothing useful
		}
		if binary != nil {
			if b, err := os.Stat(o.Binary); err != nil || !os.SameFile(binary, b) || !b.ModTime().Equal(binary.ModTime()) {
				return nil // replaced: leave the answering to the new binary
			}
		}
		v, err := version()
		if err != nil {
			return fmt.Errorf("keeper: %w", err)
		}
		changed := v != last
		if changed {
			last, lastChange, dirty = v, time.Now(), true
		}
		quiet := time.Since(lastChange)
		if dirty && (quiet >= o.Quiet || time.Since(lastCheckpoint) >= o.Busy) {
			// PASSIVE never waits for or blocks a writer; a hook that
			// commits meanwhile just leaves the rest for next time.
			cctx, cancel := statement(ctx)
			complete, _ := pin.CheckpointPassive(cctx)
			if complete && quiet >= o.Quiet {
				// Start the WAL over here, not in the next hook (see
				// RestartWAL). Only when writes went quiet: under a
				// stream of hooks this write would meet one on the lock.
				_ = pin.RestartWAL(cctx)
			}
			cancel()
			lastCheckpoint, dirty = time.Now(), false
		}
		if changed {
			holding = false
			o.notePoll()
			continue
		}
		if quiet >= o.Idle {
			if !o.backlog(ctx, pin) {
				return nil
			}
			if !holding && o.Log != nil {
				fmt.Fprintf(o.Log, "warden keeper: idle for %v, but rows wait to be shipped to the shared store; staying until they are\n", quiet.Round(time.Second))
			}
			holding = true
		}
		o.notePoll()
	}
}

// openTimeout bounds opening the store (its migrations included: the hook
// that started the keeper has normally run them already).
const openTimeout = 2 * time.Minute

// statementTimeout bounds one statement on the pinned connection (and one
// Backlog call): a keeper must not hang on it.
const statementTimeout = 5 * time.Second

// statement is the context for one statement on the pinned connection: it
// ends at statementTimeout, but not when Run is stopped. A stop that
// cancelled a statement midway would interrupt the connection
// (sqlite3_interrupt), and SQLite keeps that flag until the connection's
// next statement; there is none before Run closes it, so the checkpoint
// that closing the last connection runs would stop at its first page and
// leave the WAL, every frame since the last checkpoint, for the next hook
// to recover. The statements are short; the loop sees the stop right after.
func statement(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), statementTimeout)
}

// backlog asks Options.Backlog, under a deadline (statement: a stop does
// not interrupt it either).
func (o *Options) backlog(ctx context.Context, pin *sqlite.Pin) bool {
	if o.Backlog == nil {
		return false
	}
	cctx, cancel := statement(ctx)
	defer cancel()
	has, err := o.Backlog(cctx, pin)
	return err == nil && has
}

func (o *Options) notePoll() {
	if o.polled != nil {
		select {
		case o.polled <- struct{}{}:
		default:
		}
	}
}

// gone reports whether the file at path is no longer the one stat'ed as
// before (removed, or replaced by another).
func gone(path string, before os.FileInfo) bool {
	now, err := os.Stat(path)
	return err != nil || !os.SameFile(before, now)
}

// storeGone says, and returns, that the store file was removed or
// replaced under the keeper.
func (o *Options) storeGone() error {
	if o.Log != nil {
		fmt.Fprintf(o.Log, "warden keeper: the store %s was removed or replaced; leaving (the next hook opens what is there now)\n", o.DBPath)
	}
	return fmt.Errorf("%w: %s", ErrStoreGone, o.DBPath)
}
