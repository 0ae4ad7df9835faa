package install

import (
	"fmt"
	"io"
	"os"
	"runtime"
)

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
