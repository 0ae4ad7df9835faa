package policy

import "strings"

// serviceContainerRule: a container that serves a whole household or
// team from this machine (pihole, homeassistant, jellyfin, vaultwarden:
// remoteops.txt service-containers) stopped, killed, restarted, paused or
// removed by force: everyone on the network loses the service, unlike a
// project's dev container.
func serviceContainerRule() Rule {
	return cmdRule("core.local:service-container", Ask, "A container serving the whole network from this machine (Pi-hole, Home Assistant, Jellyfin, Vaultwarden…; the names are data: policy/remoteops.txt service-containers) stopped, killed, restarted, paused or force-removed: the household's or team's service goes down",
		[]string{"docker", "podman", "nerdctl"},
		func(e *Env, c *Cmd) string {
			s, at := containerSub(c)
			switch s {
			case "stop", "kill", "restart", "pause":
			case "rm":
				if !c.Has("-f", "--force") {
					return "" // a stopped container removed: the service was already down
				}
			default:
				return ""
			}
			names := opsList("service-containers")
			for _, n := range c.Pos[min(at, len(c.Pos)):] {
				for _, w := range strings.FieldsFunc(strings.ToLower(n), func(r rune) bool { return r == '_' || r == '.' || r == '/' || r == ':' }) {
					if names[w] || names[strings.TrimRight(w, "-0123456789")] {
						return c.Name + " " + s + " " + n + ": a service the whole network uses goes down: " + c.String()
					}
				}
			}
			return ""
		},
		[]string{"docker rm -f pihole", "docker stop homeassistant", "podman restart jellyfin", "docker container kill vaultwarden", "docker stop adguardhome-1"},
		[]string{"docker stop myapp-db-1", "docker rm pihole", "docker logs pihole", "docker restart api-dev", "docker rm -f test-runner"})
}

// containerSub is a container CLI's lifecycle subcommand and the index of
// its first operand, read past the management group (docker container
// stop X is docker stop X).
func containerSub(c *Cmd) (string, int) {
	if s := c.Sub(0); s != "container" {
		return s, 1
	}
	return c.Sub(1), 2
}
