// Package version carries the build's version and commit, set by the
// Makefile with -ldflags "-X ...". A plain `go build` falls back to the
// module's build info.
package version

import "runtime/debug"

var (
	// Version is the release, e.g. "0.1.0"; "dev" for local builds.
	Version = "dev"
	// Commit is the git commit the binary was built from.
	Commit = ""
)

// String is "warden <version> (commit <sha>)".
func String() string {
	c := Commit
	if c == "" {
		c = "unknown"
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" && s.Value != "" {
					c = s.Value
				}
			}
		}
	}
	if len(c) > 12 {
		c = c[:12]
	}
	return "warden " + Version + " (commit " + c + ")"
}
