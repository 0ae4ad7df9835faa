package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// storeOptWords are the words of an option that points a program at the
// store it works on (calibredb --with-library, --library-path, --data-dir,
// --store, --db-path, --state-dir): what its verbs change is
// that store.
// --data-dir is left out: to a hosted CLI it is often the files it
// uploads (csdx cm:stacks:import --data-dir ./content), not its store.
// --home is a node's or a tool's home directory, its whole state: a
// Cosmos SDK daemon's chain data and keys (gaiad tendermint
// unsafe-reset-all --home /tmp/gaia-localnet wipes a throwaway local
// net's, not a validator's).
var storeOptWords = []string{"library", "library-path", "store", "db-path", "dbpath", "state-dir", "statedir", "basedir", "home"}

// storeOptShort are programs' short options naming their store: a
// package repository's base directory (reprepro -b /tmp/testrepo
// includedeb …: a throwaway repository, not one others pull from).
var storeOptShort = map[string]string{"reprepro": "-b"}

// storeOptScratch: c's store option names a directory or file in a
// scratch or project place (calibredb --with-library /tmp/test-library
// remove 1-50, mytool --store ./testdata/db purge): a program with no
// table removing or changing things there changes the user's throwaway
// copy, not a remote resource. The trigger is the option itself: a line
// with no such option costs one scan of its arguments. A URL value
// (--with-library http://host:8080/#lib, a content server) is not a path
// and does not count; nor does any other endpoint on c.
func storeOptScratch(e *Env, c *Cmd) bool {
	if opsList("remote-cli")[c.Name] || opsList("hosted-cli")[c.Name] {
		return false // a hosted service's CLI: its verbs act on the service, whatever local path it reads
	}
	found := false
	for i, a := range c.Args {
		short := storeOptShort[c.Name] == a
		if !strings.HasPrefix(a, "--") && !short {
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		store := short
		for _, w := range storeOptWords {
			if strings.HasSuffix(name, w) || strings.Contains(name, "-"+w+"-") || strings.HasPrefix(name, "--"+w+"-") {
				store = true
				break
			}
		}
		if !store {
			continue
		}
		if !hasVal {
			if i+1 >= len(c.Args) {
				return false
			}
			val = c.Args[i+1]
		}
		val = strings.Trim(val, `"'`)
		if val == "" || strings.Contains(val, "://") || strings.Contains(val, "$") || !(strings.HasPrefix(val, "/") || strings.HasPrefix(val, ".") || strings.HasPrefix(val, "~")) {
			return false
		}
		if !e.scratchPath(c, val) {
			return false
		}
		found = true
	}
	if !found {
		return false
	}
	for _, a := range c.Args {
		if strings.Contains(a, "://") {
			return false // an endpoint besides the store: judged as anywhere
		}
	}
	return true
}

// scratchPath reports whether path (~ read as the home) lies in temp or
// the project: a store or output kept there is the developer's scratch.
func (e *Env) scratchPath(c *Cmd, path string) bool {
	if rest, ok := strings.CutPrefix(path, "~"); ok {
		path = e.F.Home + rest
	}
	switch callfacts.ZoneOf(e.abs(c, path), e.F.Home, e.F.Project) {
	case callfacts.ZoneTemp, callfacts.ZoneProject:
		return true
	}
	return false
}
