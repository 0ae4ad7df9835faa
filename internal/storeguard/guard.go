// Package storeguard notices when the store stops taking writes — the disk
// is full, the file was removed or replaced under the daemon — and latches
// it: from then on the daemon refuses work (no task is claimed, no agent is
// started, a new task gets 503) and says why, instead of acknowledging
// writes that are lost or starting agents it cannot record. It has no
// dependency on a store: errors are told apart by their driver's codes
// through small interfaces (errors.go).
package storeguard

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/fileid"
)

// ErrFault is what every refused write wraps (errors.Is).
var ErrFault = errors.New("the store cannot take writes")

// Fault is why the store stopped taking writes.
type Fault struct {
	Since time.Time `json:"since"`
	// Store is the file (SQLite) or the server (PostgreSQL).
	Store string `json:"store"`
	// Reason is what failed, Fix what the operator does about it.
	Reason string `json:"reason"`
	Fix    string `json:"fix"`
	// Gone: the file was removed or replaced while the daemon ran.
	Gone bool `json:"gone,omitempty"`
}

// Message is the fault in one line, naming the store and the fix.
func (f Fault) Message() string {
	return fmt.Sprintf("the store %s cannot take writes since %s: %s; %s", f.Store, f.Since.UTC().Format(time.RFC3339), f.Reason, f.Fix)
}

// Error is a write refused (or failed) because of a Fault.
type Error struct {
	Fault Fault
	Err   error // the write's own error, when it failed (nil: refused)
}

func (e *Error) Error() string        { return e.Fault.Message() }
func (e *Error) Is(target error) bool { return target == ErrFault }
func (e *Error) Unwrap() error        { return e.Err }

// Guard latches the first Fault of one store.
type Guard struct {
	store string
	// OnFault hears of the fault once, when it is latched (the daemon
	// logs it and, for a file gone, stops).
	onFault func(Fault)
	now     func() time.Time

	mu    sync.Mutex
	fault *Fault
	// path and id are the file watched (WatchFile) and its identity
	// (device and inode) when the daemon opened it.
	path, id string
}

// New makes a guard for the store named store ("/home/me/.warden/warden.db",
// "postgres://db.example/warden"); onFault may be nil.
func New(store string, onFault func(Fault)) *Guard {
	return &Guard{store: store, onFault: onFault, now: time.Now}
}

// WatchFile takes note of the identity of the file at path (the store as
// opened), so CheckFile sees it removed or replaced.
func (g *Guard) WatchFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("store %s: %w", path, err)
	}
	g.mu.Lock()
	g.path, g.id = path, fileid.Of(fi)
	g.mu.Unlock()
	return nil
}

// Current is the latched fault (nil while writes go through).
func (g *Guard) Current() *Fault {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fault == nil {
		return nil
	}
	f := *g.fault
	return &f
}

// Refuse is nil while the store takes writes, else the fault as an *Error.
func (g *Guard) Refuse() error {
	if f := g.Current(); f != nil {
		return &Error{Fault: *f}
	}
	return nil
}

// RefuseGone is Refuse for writes about work already under way (a task
// finishing, an agent handed back): they are still tried while the store
// is merely failing — space freed meanwhile lets them through — and
// refused only once the file is gone (they would land in a file nobody
// opens again).
func (g *Guard) RefuseGone() error {
	if f := g.Current(); f != nil && f.Gone {
		return &Error{Fault: *f}
	}
	return nil
}

// Observe looks at a write's error: one the store itself cannot recover
// from (full, read-only, I/O, corrupt: IsStorageFault) latches a fault and
// comes back as an *Error wrapping it; any other comes back as it is.
func (g *Guard) Observe(err error) error { return g.ObserveStore("", err) }

// ObserveStore is Observe for a write to another store than the guard's
// own (store names it in the fault; "" is the guard's): a daemon's queue
// on a shared PostgreSQL server.
func (g *Guard) ObserveStore(store string, err error) error {
	if err == nil || g == nil || !IsStorageFault(err) {
		return err
	}
	// On the guard's own file, the fault is often the consequence of the
	// file being removed or replaced ("unable to open database file"):
	// that is the cause to latch and to tell, and it stops the daemon.
	if store == "" {
		if f := g.fileGone(); f != nil {
			return &Error{Fault: g.latch(*f), Err: err}
		}
	}
	f := g.latch(Fault{Store: store, Reason: err.Error(),
		Fix: "free space on its disk (or fix what the error names), then restart the daemon (warden serve, or systemctl --user restart warden); until then it takes no new work"})
	return &Error{Fault: f, Err: err}
}

// CheckFile compares the watched file with the one opened: when it is
// removed or replaced, every write since went to a file nobody will open
// again, so a fault is latched and returned as an *Error. Cheap (one
// stat): the daemon calls it every second and before it acknowledges a
// new task.
func (g *Guard) CheckFile() error {
	if g == nil {
		return nil
	}
	if f := g.fileGone(); f != nil {
		return &Error{Fault: g.latch(*f)}
	}
	return g.Refuse()
}

// fileGone is the fault of the watched file removed or replaced, nil
// while it is the one opened (or none is watched).
func (g *Guard) fileGone() *Fault {
	g.mu.Lock()
	path, id := g.path, g.id
	g.mu.Unlock()
	if path == "" {
		return nil
	}
	fi, err := os.Stat(path)
	switch {
	case err != nil && errors.Is(err, os.ErrNotExist):
		f := gone(path, "the file was removed while the daemon ran")
		return &f
	case err == nil && id != "" && fileid.Of(fi) != id:
		f := gone(path, "the file was replaced by another while the daemon ran")
		return &f
	}
	return nil
}

func gone(path, reason string) Fault {
	return Fault{Gone: true, Reason: reason,
		Fix: "the daemon stops; put the file back from a backup (or keep the new one) and start it again — `warden serve` says what it finds (see `warden serve --help`, --new-store)"}
}

// latch records f unless a fault is latched already (the first one is the
// cause; what follows is its consequence), and returns the one in force.
// The one exception: the file found gone after a lesser fault (a full
// disk, then the file removed) replaces it, since it changes what the
// daemon does (it stops; RefuseGone refuses).
func (g *Guard) latch(f Fault) Fault {
	g.mu.Lock()
	if g.fault != nil && (g.fault.Gone || !f.Gone) {
		cur := *g.fault
		g.mu.Unlock()
		return cur
	}
	f.Since = g.now().UTC()
	if f.Store == "" {
		f.Store = g.store
	}
	g.fault = &f
	g.mu.Unlock()
	if g.onFault != nil {
		g.onFault(f)
	}
	return f
}
