package install

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/warden-dev/warden/internal/paths"
)

// privateFiles are the files in warden's home that hold what other users
// must not read: prompts and events (the store and its WAL), token hashes
// and webhook secrets (the store, config.toml), the daemon's token.
var privateFiles = []string{"warden.db", "warden.db-wal", "warden.db-shm", "config.toml"}

// privateDirs are warden's home and the directories in it whose files
// carry the same (sockets, the daemon's state and token, session state).
var privateDirs = []string{".", "run", "state", "locks"}

// modes checks that warden's home and its files are the user's alone
// (0700 and 0600): a home made by hand with 0755, or a store an older
// warden created with the umask's 0644, lets every user on the machine
// read prompts, events, token hashes and webhook secrets.
func (d *doctor) modes() {
	if runtime.GOOS == "windows" {
		return
	}
	home := paths.Home()
	var loose []string
	var fix []string
	look := func(p string, dir bool) {
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() != dir || fi.Mode().Perm()&0o077 == 0 {
			return
		}
		loose = append(loose, fmt.Sprintf("%s is %#o", p, fi.Mode().Perm()))
		want := "600"
		if dir {
			want = "700"
		}
		fix = append(fix, fmt.Sprintf("chmod %s %s", want, shellQuote(p)))
	}
	for _, d := range privateDirs {
		look(filepath.Join(home, d), true)
	}
	for _, f := range privateFiles {
		look(filepath.Join(home, f), false)
	}
	if entries, err := os.ReadDir(filepath.Join(home, "run")); err == nil {
		for _, e := range entries {
			if e.Type().IsRegular() {
				look(filepath.Join(home, "run", e.Name()), false)
			}
		}
	}
	if len(loose) == 0 {
		d.ok("modes", home+" and its files are yours alone (0700, 0600)")
		return
	}
	d.warn("modes", "other users can read warden's prompts, events, token hashes or secrets: "+strings.Join(loose, ", "),
		strings.Join(fix, " && "))
}

// privateHome creates warden's home as the user's alone (0700), or makes
// an existing one so: it holds the store, the config and the daemon's
// token, and a home made by hand (or by an older install, through the
// binary's directory) is often 0755.
func privateHome(w io.Writer, home string) error {
	if runtime.GOOS == "windows" {
		return os.MkdirAll(home, 0o700)
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", home, err)
	}
	fi, err := os.Stat(home)
	if err != nil {
		return err
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		if err := os.Chmod(home, 0o700); err != nil {
			return fmt.Errorf("make %s private (chmod 700): %w", home, err)
		}
		fmt.Fprintf(w, "✓ made %s private (it was %#o: other users could read prompts and events)\n", home, perm)
	}
	return nil
}
