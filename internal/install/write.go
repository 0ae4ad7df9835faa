package install

import (
	"errors"
	"fmt"
	"github.com/warden-dev/warden/internal/atomicfile"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// backupSuffix is followed by a local timestamp, YYYYMMDD-HHMMSS.
const backupSuffix = ".warden-backup-"

// checkWritable fails early, before anything is touched, when the settings
// file or its directory cannot be written. A read-only settings file is
// the user saying "do not edit": renaming over it would succeed in a
// writable directory, so warden asks for write access to the file itself.
func checkWritable(s *Settings) error {
	if s.Exists {
		f, err := os.OpenFile(s.Path, os.O_WRONLY, 0)
		if err != nil {
			return NewFSError("write", s.Path, err)
		}
		f.Close()
	}
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return NewFSError("create directory for", s.Path, err)
	}
	f, err := os.CreateTemp(dir, ".warden-probe-*")
	if err != nil {
		return NewFSError("write", s.Path, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// backup copies the current file next to itself and returns the copy's
// path. Never overwrites an earlier backup: a second one in the same second
// gets a -2, -3 … suffix.
func backup(s *Settings, now time.Time) (string, error) {
	base := s.Path + backupSuffix + now.Format("20060102-150405")
	name := base
	for i := 2; ; i++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, s.Mode)
		if errors.Is(err, fs.ErrExist) {
			name = fmt.Sprintf("%s-%d", base, i)
			continue
		}
		if err != nil {
			return "", NewFSError("back up", s.Path, err)
		}
		_, werr := f.Write(s.Raw)
		if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
			os.Remove(name)
			return "", NewFSError("back up", s.Path, err)
		}
		return name, nil
	}
}

// writeSettings replaces the file atomically with data, keeping its mode.
// A settings path that is a symlink (dotfile managers do this) is followed,
// so the link stays a link and its target gets the new content.
func writeSettings(s *Settings, data []byte) error {
	target := s.Path
	if resolved, err := filepath.EvalSymlinks(s.Path); err == nil {
		target = resolved
	}
	if err := writeAtomic(target, data, s.Mode); err != nil {
		return NewFSError("write", s.Path, err)
	}
	return nil
}

// writeAtomic writes through atomicfile: a reader (Claude Code, another
// warden) sees the old file or the new one, never half of one.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	return atomicfile.Write(path, data, mode)
}

// FSError is a file operation that failed, with what to do about it.
type FSError struct {
	Op, Path string
	Err      error
}

func (e *FSError) Error() string {
	return fmt.Sprintf("cannot %s %s: %v; %s", e.Op, e.Path, e.Err, e.Fix())
}

func (e *FSError) Unwrap() error { return e.Err }

// Fix says what to do, by cause.
func (e *FSError) Fix() string {
	dir := filepath.Dir(e.Path)
	switch {
	case errors.Is(e.Err, fs.ErrPermission):
		return fmt.Sprintf("make it writable (chmod u+w %s %s) or run as the user who owns it", e.Path, dir)
	case errors.Is(e.Err, syscall.ENOTDIR):
		return "a parent of that path is a file, not a directory; move the file aside"
	case errors.Is(e.Err, syscall.EROFS):
		return "the file system is read-only; choose another --scope or remount it writable"
	case errors.Is(e.Err, syscall.ENOSPC):
		return "the disk is full; free some space"
	}
	return "check the path and its permissions"
}

func NewFSError(op, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is already in the message
	}
	return &FSError{Op: op, Path: path, Err: err}
}
