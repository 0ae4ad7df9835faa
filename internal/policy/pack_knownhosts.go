package policy

import "strings"

// ssh-keygen -R HOST forgets a host's key in known_hosts. For a machine
// of this network (a private address, a short name, .local, .lan,
// .internal: a lab or home server that was reinstalled) that is routine
// after a rebuild; for a public service (github.com) a changed key is
// what a man in the middle shows, and forgetting it asks.

// forgetsLocalHostKey: c is ssh-keygen -R of a host on this network.
func forgetsLocalHostKey(c *Cmd) bool {
	if c.Name != "ssh-keygen" {
		return false
	}
	h := optValue(c, "-R")
	if h == "" {
		return false
	}
	// [host]:port, the form known_hosts keeps for a port other than 22
	if strings.HasPrefix(h, "[") {
		if i := strings.Index(h, "]"); i > 0 {
			h = h[1:i]
		}
	}
	return hostKind(h) == "private"
}
