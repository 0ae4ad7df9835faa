//go:build unix

package hook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// lockSession serialises the hooks of one session: Claude Code fires hooks
// for parallel tool calls in parallel, and each loads the session state,
// changes it and saves it, so without the lock one process's update would
// overwrite another's. Hooks of other sessions are not affected. The lock is
// an flock on a file under $WARDEN_HOME/locks, released by unlock or when
// the process exits, whatever happens. If it cannot be had before ctx ends,
// the hook goes on without it (fail open) and says so.
func lockSession(ctx context.Context, home, sessionID string) (unlock func(), err error) {
	// Hooks of one session in this process (a resident server) queue on
	// a channel first, so the next one starts the moment the previous
	// releases instead of polling the flock; the flock then orders them
	// with hooks in other processes.
	leave, err := sessions.enter(ctx, home+"\x00"+sessionID)
	if err != nil {
		return func() {}, err
	}
	unlockFile, err := lockSessionFile(ctx, home, sessionID)
	if err != nil {
		leave()
		return func() {}, err
	}
	return func() { unlockFile(); leave() }, nil
}

// lockSessionFile takes the flock on the session's lock file. The file is
// opened as a bare descriptor, not an os.File: on Linux os.OpenFile offers
// every file to the runtime's poller, and for a regular file that is five
// wasted system calls (two fcntl to make it non-blocking, an epoll_ctl
// that fails, two fcntl to undo it) on every hook.
func lockSessionFile(ctx context.Context, home, sessionID string) (unlock func(), err error) {
	sum := sha256.Sum256([]byte(sessionID))
	dir := filepath.Join(home, "locks")
	path := filepath.Join(dir, hex.EncodeToString(sum[:8])+".lock")
	fd, err := openLock(path)
	if errors.Is(err, syscall.ENOENT) {
		if err = os.MkdirAll(dir, 0o700); err == nil {
			fd, err = openLock(path)
		}
	}
	if err != nil {
		return func() {}, &os.PathError{Op: "open", Path: path, Err: err}
	}
	for wait := 500 * time.Microsecond; ; wait = min(wait*2, 10*time.Millisecond) {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { syscall.Close(fd) }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			syscall.Close(fd)
			return func() {}, err
		}
		select {
		case <-ctx.Done():
			syscall.Close(fd)
			return func() {}, errors.New("another hook of this session held its lock past the deadline")
		case <-time.After(wait):
		}
	}
}

// openLock opens (or makes) a lock file, closed in children.
func openLock(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDWR|syscall.O_CREAT|syscall.O_CLOEXEC, 0o600)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
