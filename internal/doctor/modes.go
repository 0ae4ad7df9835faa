package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/warden-dev/warden/internal/install"
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
		fix = append(fix, fmt.Sprintf("chmod %s %s", want, install.ShellQuote(p)))
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
