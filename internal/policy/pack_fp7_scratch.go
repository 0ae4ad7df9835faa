package policy

import "strings"

// remoteHomeScratch: a path a command run through ssh names under the
// remote user's home (~/…) that passes through a scratch folder
// (~/proj/tmp/run_0*, ~/scratch/x): the user's own scratch on that host.
func remoteHomeScratch(e *Env, c *Cmd, p string) bool {
	if !strings.HasPrefix(p, "~/") || remoteWrapper(c) != "ssh" {
		return false
	}
	parts := strings.Split(strings.TrimPrefix(p, "~/"), "/")
	for _, d := range parts[:len(parts)-1] {
		switch strings.ToLower(d) {
		case "tmp", "temp", ".tmp", "scratch", ".cache", "cache":
			return !strings.ContainsAny(strings.Join(parts[:len(parts)-1], "/"), "*?$`") && !strings.Contains(p, "..")
		}
	}
	return false
}
