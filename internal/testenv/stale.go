package testenv

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// homePrefix names the homes Isolate makes under the temp directory.
const homePrefix = "warden-test-home-"

// ownerFile, in a home's root (beside home/, not in it), holds the pid of
// the process that made it.
const ownerFile = "owner.pid"

// orphanAge is how old a home with no owner file must be before a sweep
// takes it: the window between MkdirTemp and writing the file is
// microseconds, but homes made by an older checkout of this package (a
// worktree's tests running beside this one) have no owner file and may be
// in use for the length of a test run.
const orphanAge = 24 * time.Hour

// sweepStaleHomes removes the homes in dir whose process is gone. A test
// process that panics or times out, or is killed, never reaches its
// clean-up, so its home would stay in the temp directory for good; the
// next test process to start takes it away. Nothing else is touched: only
// folders with this package's prefix, and only when the pid in their owner
// file names no live process (or, without one, when older than
// orphanAge). Errors are ignored: a sweep is hygiene, never a reason for a
// test run to fail.
func sweepStaleHomes(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), homePrefix) {
			continue
		}
		root := filepath.Join(dir, e.Name())
		if staleHome(root, now) {
			os.RemoveAll(root)
		}
	}
}

// staleHome reports whether the home at root belongs to no live process.
func staleHome(root string, now time.Time) bool {
	b, err := os.ReadFile(filepath.Join(root, ownerFile))
	if err != nil {
		info, err := os.Stat(root)
		return err == nil && now.Sub(info.ModTime()) > orphanAge
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return false // not a file this package wrote: leave it
	}
	return !processAlive(pid)
}

// writeOwner records this process as the home's owner.
func writeOwner(root string) error {
	return os.WriteFile(filepath.Join(root, ownerFile), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600)
}
