package policy

import "strings"

// localStoreTarget: every target an object-store client names is under
// an alias that is this machine. MinIO's client ships with the alias
// "local" set to http://localhost:9000 (the developer's own server), as
// firebase's "demo-" projects only ever reach the local emulator. A whole
// alias (mc rb local, local/ alone) is a wipe and still counts.
func localStoreTarget(c *Cmd) bool {
	switch c.Name {
	case "mc", "mcli":
		n := 0
		for _, p := range c.Pos[1:] {
			alias, rest, ok := strings.Cut(p, "/")
			if !ok || alias != "local" || strings.Trim(rest, "/") == "" || strings.ContainsAny(rest, "*") {
				return false
			}
			n++
		}
		return n > 0
	case "firebase":
		p := optValue(c, "--project")
		if p == "" {
			p = optValue(c, "-P")
		}
		return strings.HasPrefix(p, "demo-") && !c.Has("--all-collections")
	}
	return false
}
