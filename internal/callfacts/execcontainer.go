package callfacts

import "strings"

// ExecContainer is the container a docker, podman or nerdctl exec
// command runs in (docker exec -u splunk -w /opt splunk-dev …:
// splunk-dev), the options and their values before it skipped; "" when
// c is no exec or names none. A position count (Pos[1]) reads the
// value of -u as the container.
func ExecContainer(c *Cmd) string {
	if c.Name != "docker" && c.Name != "podman" && c.Name != "nerdctl" {
		return ""
	}
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if a != "exec" {
			if strings.HasPrefix(a, "-") {
				if dockerArgOpt(a) && !strings.Contains(a, "=") {
					i++ // docker --context x exec …
				}
				continue
			}
			return "" // docker compose exec, docker container …: another form
		}
		for j := i + 1; j < len(c.Args); j++ {
			b := c.Args[j]
			switch {
			case b == "--":
				continue
			case strings.HasPrefix(b, "-"):
				if dockerArgOpt(b) && !strings.Contains(b, "=") {
					j++
				}
			default:
				return b
			}
		}
		return ""
	}
	return ""
}
