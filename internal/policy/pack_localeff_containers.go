package policy

import "strings"

// Containers reached without being named one by one: a compose project
// picked by -p NAME (docker compose -p chirpstack restart acts on that
// stack wherever it was started from), or what docker ps --filter
// name=X lists inside a substitution (docker kill $(docker ps -q
// --filter name=elasticsearch): every container whose name holds X, of
// any project). When the name is a service the network or team uses
// (remoteops.txt service-containers) or a shared server's (a database,
// a search engine, a broker: broadProcNames, systemProcesses), stopping
// it stops others' work, as serviceContainerRule says for a named one.

// containerStops are the verbs that take a container's service down.
var containerStops = map[string]bool{"stop": true, "kill": true, "restart": true, "pause": true, "down": true, "rm": true}

// sharedContainerName: n names a household or team service, or a
// shared server, and no dev or test word.
func sharedContainerName(n string) bool {
	n = strings.ToLower(strings.Trim(n, `'"^$`))
	if n == "" || devName(n) {
		return false
	}
	names := opsList("service-containers")
	for _, w := range strings.FieldsFunc(n, func(r rune) bool { return r == '_' || r == '.' || r == '/' || r == ':' || r == '-' }) {
		w = strings.TrimRight(w, "0123456789")
		if names[w] || w == "elasticsearch" || w == "opensearch" || systemProcesses[w] || broadProcNames[w] && sharedServerWords[w] {
			return true
		}
	}
	return names[n]
}

// sharedServerWords are the broadProcNames that are servers others use.
var sharedServerWords = map[string]bool{"redis": true, "mysql": true, "mongo": true, "kafka": true, "elasticsearch": true, "rabbitmq": true, "memcached": true, "postmaster": true}

// psFilterNames are the name= values of docker ps filters in the line.
func psFilterNames(e *Env) []string {
	var out []string
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name != "docker" && c.Name != "podman" || c.Sub(0) != "ps" && !(c.Sub(0) == "container" && c.Sub(1) == "ls") {
			continue
		}
		for j, a := range c.Args {
			v := ""
			switch {
			case (a == "--filter" || a == "-f") && j+1 < len(c.Args):
				v = c.Args[j+1]
			case strings.HasPrefix(a, "--filter="):
				v = strings.TrimPrefix(a, "--filter=")
			}
			if n, ok := strings.CutPrefix(v, "name="); ok {
				out = append(out, n)
			}
		}
	}
	return out
}

func pickedServiceContainerRule() Rule {
	return cmdRule("core.local:service-container-picked", Ask, "A shared service's containers stopped, killed or restarted by a pick rather than by name: a compose project chosen by -p (docker compose -p chirpstack restart) or what docker ps --filter name=… lists (docker kill $(docker ps -q --filter name=elasticsearch)), where the name is a team's or network's service or a shared server: every such container goes down, whoever started it; a dev-named project stays routine",
		[]string{"docker", "podman", "docker-compose", "podman-compose"},
		func(e *Env, c *Cmd) string {
			pos := c.Pos
			if c.Sub(0) == "compose" {
				pos = pos[1:]
			}
			if c.Sub(0) == "compose" || c.Name == "docker-compose" || c.Name == "podman-compose" {
				p := optValue(c, "-p") + optValue(c, "--project-name")
				if len(pos) > 0 && pos[0] == p {
					pos = pos[1:] // the -p value, read as a positional
				}
				if p != "" && len(pos) > 0 && containerStops[pos[0]] && sharedContainerName(p) {
					return c.Name + " " + pos[0] + " takes down the compose project " + p + ", a service others use: " + c.String()
				}
				return ""
			}
			s := c.Sub(0)
			if s == "container" {
				s = c.Sub(1)
			}
			if !containerStops[s] || s == "rm" && !c.Has("-f", "--force") || !strings.Contains(strings.Join(c.Args, " "), "$") {
				return ""
			}
			for _, n := range psFilterNames(e) {
				if sharedContainerName(n) {
					return c.Name + " " + s + " ends every container whose name holds " + n + ", a service others use: " + c.String()
				}
			}
			return ""
		},
		[]string{"docker compose -p chirpstack restart", "docker compose -p mattermost stop", "docker compose --project-name keycloak down", "docker stop $(docker ps -q --filter name=redis)",
			"podman kill $(podman ps -q --filter name=postgres)", "docker rm -f $(docker ps -aq -f name=opensearch)", "docker restart $(docker ps -q --filter=name=zulip)"},
		[]string{"docker compose -p myapp-dev down", "docker compose -p chirpstack ps", "docker compose -p chirpstack logs -f", "docker stop $(docker ps -q --filter name=api-dev)",
			"docker ps -q --filter name=redis", "docker restart $(docker ps -q --filter name=webapp)", "docker compose -p test-redis down"})
}
