package policy

import (
	"slices"
	"strings"
)

// A container list narrowed by a filter (docker ps -aq --filter
// name=azurite, podman ps -q -f label=com.docker.compose.project=shop,
// --filter ancestor=redis, status=exited) names the containers of that
// name, label, image or state, not every container: removing them is
// removing named containers. An unfiltered list (docker ps -aq) is still
// every container, and a filter named for production (name=prod-db)
// stays what it was.

// containerListers are the engines whose ps lists containers.
var containerListers = []string{"docker", "podman", "nerdctl", "docker-compose", "podman-compose"}

// filteredContainers: every container list of the line is narrowed by
// filters, none of them naming production; false when a list is
// unfiltered or there is none.
func filteredContainers(e *Env) bool {
	n := 0
	for _, c := range e.F.Cmds(containerListers...) {
		p := c.Pos
		if len(p) > 0 && p[0] == "container" {
			p = p[1:]
		}
		if strings.HasSuffix(c.Name, "-compose") || len(p) > 0 && p[0] == "compose" {
			if !slices.Contains(p, "ps") {
				continue
			}
			if slices.ContainsFunc(c.Args, prodWord.MatchString) {
				return false // docker compose -f prod/docker-compose.yml ps -q
			}
			n++
			continue // docker compose ps -q: the containers of this project's stack
		}
		if len(p) == 0 || p[0] != "ps" && p[0] != "ls" && p[0] != "list" {
			continue
		}
		n++
		filters := append(optValues(c, "--filter"), optValues(c, "-f")...)
		for i, a := range c.Args {
			if len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "f") && i+1 < len(c.Args) {
				filters = append(filters, c.Args[i+1]) // -aqf name=kafka
			}
		}
		if len(filters) == 0 {
			return false
		}
		for _, f := range filters {
			if _, v, _ := strings.Cut(f, "="); v == "" || prodConnName(v) || prodWord.MatchString(f) {
				return false
			}
		}
	}
	return n > 0
}
