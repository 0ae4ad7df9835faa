//go:build unix

package keeper

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// tryLock takes the keeper lock, or returns ErrRunning. The lock file
// then holds the pid, and the role after it when there is one (Holder).
func tryLock(path, role string) (unlock func(), err error) {
	// Only the lock's own folder is made: a keeper or daemon starting
	// after warden's home was removed (an uninstall, a test's home
	// cleaned up) must not make the home again around a lock file.
	if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("keeper lock %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	// A hook checking for a keeper holds a shared lock for microseconds;
	// a few short retries tell that apart from a keeper holding it.
	for try := 0; ; try++ {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			// The pid lets Stop (tests, uninstall) find the holder.
			_ = f.Truncate(0)
			line := strconv.Itoa(os.Getpid())
			if role != "" {
				line += " " + role
			}
			_, _ = f.WriteAt([]byte(line+"\n"), 0)
			return func() { f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || try == 20 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	f.Close()
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, ErrRunning
	}
	return nil, err
}

// Running reports whether a keeper holds the lock at path. A missing lock file
// means none ever ran here.
func Running(path string) (bool, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	// We got it, so nobody holds it; closing releases it at once.
	return false, nil
}

// Stop asks the keeper holding path to exit (SIGTERM) and waits until the
// lock is free or timeout passes. No keeper: nothing to do.
func Stop(path string, timeout time.Duration) error {
	running, err := Running(path)
	if err != nil || !running {
		return err
	}
	pid, _, err := Holder(path)
	if err != nil {
		return err
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if running, err := Running(path); err != nil || !running {
			return err
		}
	}
	return fmt.Errorf("keeper (pid %d) still holds %s after %v", pid, path, timeout)
}

// Holder reads who holds the lock at path, as tryLock wrote it: the pid
// and the role (RoleServe for the daemon, "" for an on-demand keeper).
func Holder(path string) (pid int, role string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, "", err
	}
	f := strings.Fields(string(b))
	if len(f) > 0 {
		pid, _ = strconv.Atoi(f[0])
	}
	if pid <= 1 {
		return 0, "", fmt.Errorf("keeper lock %s holds no pid", path)
	}
	if len(f) > 1 {
		role = f[1]
	}
	return pid, role, nil
}
