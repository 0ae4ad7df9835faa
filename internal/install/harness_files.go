package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// fileChange is one file a harness install or uninstall edits.
type fileChange struct {
	// s is the file as read: path, whether it existed, its mode and bytes.
	s *Settings
	// data is its new content.
	data []byte
	// remove deletes it instead: warden made it and nothing else is left
	// in it, so the CLI's configuration is again what it was.
	remove bool
	// what the change is, for the summary ("register 5 hook events").
	what string
	// own: the file is warden's alone (Copilot's hooks/warden.json): no
	// backup, which would sit in the CLI's hooks directory.
	own bool
}

// rawFile reads a file that is not a JSON settings file (Codex's
// config.toml) for a fileChange: its bytes and mode, or an empty file
// that does not exist yet.
func rawFile(path string) (*Settings, error) {
	s := &Settings{Path: path, Mode: 0o644}
	raw, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, nil
	case err != nil:
		return nil, NewFSError("read", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, NewFSError("read", path, err)
	}
	s.Exists, s.Mode, s.Raw = true, fi.Mode().Perm(), raw
	return s, nil
}

// diff is the change as a unified diff.
func (c fileChange) diff() string {
	if c.remove {
		return Diff(c.s.Path, c.s.Exists, c.s.Raw, nil)
	}
	return Diff(c.s.Path, c.s.Exists, c.s.Raw, c.data)
}

// apply backs the file up and writes (or removes) it, after checking it
// is still what was read.
func (c fileChange) apply(o Options) (backup string, err error) {
	if !c.remove {
		if err := checkWritable(c.s); err != nil {
			return "", err
		}
		if c.own {
			return "", writeSettings(c.s, c.data)
		}
		return apply(c.s, c.data, o)
	}
	cur, err := os.ReadFile(c.s.Path)
	if err != nil || !bytes.Equal(cur, c.s.Raw) {
		return "", fmt.Errorf("%s changed while warden was preparing its edit; nothing was changed there, run the command again", c.s.Path)
	}
	if !c.own {
		if backup, err = backupFile(c.s, o); err != nil {
			return "", err
		}
	}
	if err := os.Remove(c.s.Path); err != nil {
		return backup, NewFSError("remove", c.s.Path, err)
	}
	return backup, nil
}

// backupFile copies the file next to itself (as install does before every
// edit).
func backupFile(s *Settings, o Options) (string, error) { return backup(s, o.Now()) }

// jsonChange is the change to a JSON settings file after an edit of
// s.Root: nil when nothing changed; a removal when the edit left an
// empty object in a file that held nothing else before warden (or did
// not exist).
func jsonChange(s *Settings, changed bool, what string) *fileChange {
	if !changed {
		return nil
	}
	if s.Root.Len() == 0 {
		if !s.Exists {
			return nil
		}
		return &fileChange{s: s, remove: true, what: what}
	}
	return &fileChange{s: s, data: s.Encode(), what: what}
}
