package policy

import (
	"strings"
)

// gitPushDeploys: the remote a git push names deploys what it receives
// (git push heroku main, git push dokku@host:app, git push production):
// the words are data (policy/remoteops.txt deploy-remote).
func gitPushDeploys(c *Cmd) string {
	if sub(c) != "push" || c.DryRun() || len(c.Pos) < 2 {
		return ""
	}
	r := strings.ToLower(c.Pos[1])
	for _, w := range opsWords("deploy-remote") {
		if r == w || strings.Contains(w, ".") || strings.Contains(w, "@") {
			if r == w || strings.Contains(r, w) {
				return c.Pos[1]
			}
		}
	}
	return ""
}

// dockerRemote: the Docker endpoint a docker/podman command talks to when
// it is another machine (-H ssh://web1, DOCKER_HOST=tcp://10.0.0.5:2376,
// CONTAINER_HOST=ssh://…); "" for this machine's.
func dockerRemote(e *Env, c *Cmd) string {
	ep := ""
	if k, v, ok := strings.Cut(c.Remote, "="); ok && (k == "-H" || k == "--host" || k == "--url") {
		ep = v
	}
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if m[1] == "DOCKER_HOST" || m[1] == "CONTAINER_HOST" {
			ep = strings.Trim(m[2], `"'`)
		}
	}
	l := strings.ToLower(ep)
	if ep == "" || strings.HasPrefix(l, "unix://") || strings.HasPrefix(l, "npipe://") || strings.Contains(l, "localhost") || strings.Contains(l, "127.0.0.1") {
		return ""
	}
	return ep
}

// dockerDestroys: subcommand words that remove containers, images,
// volumes or networks, or stop what runs.
var dockerDestroys = map[string]bool{"rm": true, "rmi": true, "prune": true, "kill": true, "down": true, "remove": true}

func pushDeployRules() []Rule {
	return []Rule{
		cmdRule("external.systems:push-deploys", Ask, "A git push to a remote that deploys what it receives (heroku, dokku, production, a platform's git URL): the branch goes live; the remotes are data (policy/remoteops.txt deploy-remote)", []string{"git"},
			func(e *Env, c *Cmd) string {
				if r := gitPushDeploys(c); r != "" {
					return "git push to " + r + " deploys the branch: " + c.String()
				}
				return ""
			},
			[]string{"git push heroku main", "git push dokku@apps.acme.io:shop main", "git push production HEAD:master", "git push https://git.heroku.com/shop-api.git main"},
			[]string{"git push origin main", "git push -u origin feature/x", "git push --dry-run heroku main", "git push upstream deploy-docs"}),
		cmdRule("external.systems:docker-remote-destroy", Deny, "A docker or podman command aimed at another machine's engine (-H ssh://…, DOCKER_HOST=tcp://…) that removes containers, images, volumes or networks (rm, rmi, volume rm, system prune, compose down): the data goes on that host", []string{"docker", "podman", "docker-compose"},
			func(e *Env, c *Cmd) string {
				ep := dockerRemote(e, c)
				if ep == "" || onlyHelp(c) {
					return ""
				}
				for _, p := range c.Pos[:min(3, len(c.Pos))] {
					if dockerDestroys[strings.ToLower(p)] {
						return c.Name + " " + p + " on " + ep + ", another machine's engine: " + c.String()
					}
				}
				return ""
			},
			[]string{"DOCKER_HOST=ssh://deploy@web1 docker volume rm pgdata", "docker -H tcp://10.0.0.5:2376 rm -f api", "CONTAINER_HOST=ssh://core@box podman system prune -af", "DOCKER_HOST=ssh://ops@db1 docker compose down -v"},
			[]string{"DOCKER_HOST=ssh://deploy@web1 docker ps", "docker -H unix:///var/run/docker.sock rm -f old", "docker volume rm scratch", "DOCKER_HOST=tcp://localhost:2375 docker rm -f x"}),
	}
}
