package keeper

import (
	"os"
	"path/filepath"
	"time"
)

// respawnAfter limits how often hooks start a keeper: one that cannot start
// or dies at once must not cost every hook a process start.
const respawnAfter = 30 * time.Second

// Ensure starts a keeper with start when none holds lockPath and none was
// started in the last respawnAfter. It costs a hook one open and one flock
// when a keeper runs (tens of microseconds). The caller runs it after the
// hook's output and record are written.
func Ensure(lockPath string, start func() error) (started bool, err error) {
	running, err := Running(lockPath)
	if err != nil || running {
		return false, err
	}
	stamp := filepath.Join(filepath.Dir(lockPath), "keeper.started")
	if fi, err := os.Stat(stamp); err == nil && time.Since(fi.ModTime()) < respawnAfter {
		return false, nil
	}
	_ = os.MkdirAll(filepath.Dir(stamp), 0o700)
	if f, err := os.Create(stamp); err == nil {
		f.Close()
	}
	if err := start(); err != nil {
		return false, err
	}
	return true, nil
}
