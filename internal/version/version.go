// Package version carries the build's version, commit and date, set by the
// Makefile and .goreleaser.yaml with -ldflags "-X ...". A plain `go build`
// or `go install …@version` falls back to the module's build info (the
// module version, vcs.revision and vcs.time).
package version

import "runtime/debug"

var (
	// Version is the release, e.g. "0.1.0"; "dev" for local builds.
	Version = "dev"
	// Commit is the git commit the binary was built from.
	Commit = ""
	// Date is when it was built (RFC 3339), or the commit's time.
	Date = ""
)

// Info is the build's identity, filled from the linker flags and, where
// they are empty, from the build info.
type Info struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Date    string `json:"date"`
	Go      string `json:"go"`
}

// Get returns the build's Info.
func Get() Info {
	i := Info{Version: Version, Commit: Commit, Date: Date}
	bi, ok := debug.ReadBuildInfo()
	if ok {
		i.Go = bi.GoVersion
		if i.Version == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.Version = bi.Main.Version // go install …@v0.1.0
		}
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && i.Commit == "":
				i.Commit = s.Value
			case s.Key == "vcs.time" && i.Date == "":
				i.Date = s.Value
			}
		}
	}
	return i
}

// String is "warden <version> (commit <sha>, <date>)".
func String() string {
	i := Get()
	c := i.Commit
	if c == "" {
		c = "unknown"
	}
	if len(c) > 12 {
		c = c[:12]
	}
	s := "warden " + i.Version + " (commit " + c
	if i.Date != "" {
		s += ", " + i.Date
	}
	return s + ")"
}
