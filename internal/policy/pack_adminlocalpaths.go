package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// adminLocalPathsOnly: c, an admin CLI's name with a verb no table
// knows, is given an option first and then only paths of the project or
// of a temporary directory (sf -csv tests/fixtures/: siegfried, a file
// identifier that shares Salesforce's name). A CLI acting on another
// host names its verb first; this one reads files here.
func adminLocalPathsOnly(e *Env, c *Cmd) bool {
	if len(c.Args) == 0 || !strings.HasPrefix(c.Args[0], "-") || len(c.Pos) == 0 || c.Payload != "" {
		return false
	}
	for _, p := range c.Pos {
		if !strings.Contains(p, "/") && p != "." || callfacts.UnknownValue(p) || strings.Contains(p, "://") || strings.Contains(p, "@") {
			return false
		}
		switch callfacts.ZoneOf(e.abs(c, p), e.F.Home, e.F.Project) {
		case callfacts.ZoneProject, callfacts.ZoneTemp:
		default:
			return false
		}
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") {
			o, v, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if callfacts.DestroyOrChangeWord(strings.ToLower(o)) || strings.Contains(v, "://") {
				return false
			}
		}
	}
	return true
}

// containerSelfRequest: c, a sender (curl, wget) run inside a container,
// names only loopback addresses (curl -XDELETE localhost:9200/logs): in
// the container that is its own server, so on a dev or test container
// (docker exec es-local …) it is the developer's throwaway state. A
// proxy, --resolve or --connect-to sends it elsewhere.
func containerSelfRequest(c *Cmd) bool {
	if c.Name != "curl" && c.Name != "wget" && c.Name != "http" && c.Name != "xh" {
		return false
	}
	n := 0
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-x") || strings.HasPrefix(a, "--proxy") || strings.HasPrefix(a, "--resolve") || strings.HasPrefix(a, "--connect-to") || strings.HasPrefix(a, "--preproxy") {
			return false
		}
	}
	for _, p := range c.Pos {
		u := strings.TrimPrefix(strings.TrimPrefix(strings.Trim(p, `"'`), "http://"), "https://")
		if !strings.Contains(u, ".") && !strings.Contains(u, ":") && !strings.Contains(u, "/") {
			continue // a method word (http DELETE …)
		}
		if !(strings.HasPrefix(u, "localhost") || strings.HasPrefix(u, "127.0.0.1") || strings.HasPrefix(u, "[::1]")) {
			return false
		}
		n++
	}
	return n > 0
}
