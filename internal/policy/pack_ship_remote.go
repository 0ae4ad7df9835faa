package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Shipping by other roads: a container engine driven on another host
// (docker -H ssh://web1 compose up, DOCKER_HOST=tcp://…), a script named
// for deploying run where its text is not on disk to read (./deploy.sh
// prod), a build or deploy hook POSTed.

// remoteDockerHost: the host a docker command drives when it is not this
// machine (-H ssh://…, --host tcp://…, DOCKER_HOST=ssh://… on the line).
func remoteDockerHost(e *Env, c *Cmd) string {
	h := ""
	if k, v, ok := strings.Cut(c.Remote, "="); ok && (k == "-H" || k == "--host") {
		h = v // docker -H tcp://h stop api: set aside before the subcommand
	}
	for i, a := range c.Args {
		if a == "exec" || a == "run" {
			break // docker compose exec svc python3 x.py --host 10.50.0.10: the inner program's option, not docker's
		}
		switch {
		case (a == "-H" || a == "--host") && i+1 < len(c.Args):
			h = c.Args[i+1]
		case strings.HasPrefix(a, "--host="):
			h = strings.TrimPrefix(a, "--host=")
		}
	}
	if h == "" {
		for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
			if m[1] == "DOCKER_HOST" {
				h = strings.Trim(m[2], `"'`)
			}
		}
	}
	if h == "" || strings.HasPrefix(h, "unix://") || strings.HasPrefix(h, "npipe://") || isLocalEndpoint(strings.TrimPrefix(strings.TrimPrefix(h, "tcp://"), "ssh://")) {
		return ""
	}
	return h
}

// deployScript: a script run by path whose name says it deploys,
// releases or publishes (deploy.sh, scripts/release-prod.sh), or changes
// what runs elsewhere (restart-workers.sh, flash-all.sh: change-script).
func deployScript(c *Cmd) string {
	p := c.Raw
	if callfacts.IsShell(c.Name) && len(c.Pos) > 0 && c.Payload == "" {
		p = c.Pos[0] // bash scripts/deploy.sh (not bash -c '…': its commands are read on their own)
		if strings.ContainsAny(p, " \t;|&") {
			return ""
		}
	} else if s := interpScriptOperand(c); s != "" {
		p = s // python3 tools/uplink_fsw.py, ssh bench 'python3 /opt/t/run_flash.py' (lan_device_call.go)
	} else if s := interpShipScript(c); s != "" {
		return interpShipName(s) // python3 tools/upload.py, node scripts/deploy-commands.js (pack_ship_interp.go)
	} else if !strings.Contains(p, "/") {
		return ""
	}
	base := strings.ToLower(p[strings.LastIndexByte(p, '/')+1:])
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	ship, stay := opsList("deploy-task"), opsList("local-task")
	hit := ""
	for _, w := range wordsOf(base) {
		if stay[w] {
			return ""
		}
		if ship[w] || opsList("change-script")[w] {
			hit = p
		}
	}
	return hit
}

func remoteShipRules() []Rule {
	return []Rule{
		cmdRule("external.systems:remote-docker", Ask, "A container engine driven on another host (docker -H ssh://deploy@web1 compose up -d, DOCKER_HOST=tcp://10.0.0.5:2376 docker run …): what runs on that host changes; reads (ps, logs, inspect) stay allowed; the reads are data (policy/remoteops.txt docker-read)", []string{"docker", "docker-compose", "podman"},
			func(e *Env, c *Cmd) string {
				h := remoteDockerHost(e, c)
				if h == "" || onlyHelp(c) {
					return ""
				}
				s := c.Sub(0)
				if s == "compose" || s == "container" {
					s = c.Sub(1)
				}
				if s == "" || opsList("docker-read")[s] {
					return ""
				}
				return c.Name + " " + s + " changes what runs on " + h + ": " + c.String()
			},
			[]string{"docker compose -H ssh://deploy@web1 up -d --build", "DOCKER_HOST=ssh://root@10.0.0.7 docker run -d -p 80:80 nginx", "docker -H tcp://203.0.113.4:2375 stop api", "docker --host=ssh://ops@box restart worker"},
			[]string{"docker -H ssh://deploy@web1 ps", "DOCKER_HOST=ssh://root@web1 docker logs api --tail 100", "docker compose up -d", "DOCKER_HOST=unix:///var/run/docker.sock docker run --rm hello-world", "docker -H tcp://localhost:2375 run --rm alpine true"}),
		{
			ID: "external.systems:deploy-script", Mode: Ask, Tools: shellTools,
			Desc: "A script named for deploying, releasing or publishing (./deploy.sh prod, bash scripts/release.sh) whose text is not on disk to read: it ships by its name; scripts on disk are read and judged by what they run; the words are data (policy/remoteops.txt deploy-task, local-task)",
			Match: func(e *Env) string {
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					p := deployScript(c)
					if p == "" || onlyHelp(c) || c.Has("--dry-run", "-n") || e.dryRun(c) || fileExists(e.abs(c, p)) {
						continue // a script on disk: its text is read where it runs, and judged
					}
					return p + " ships by its name, and its text is not on disk to read: " + c.String()
				}
				return ""
			},
			Catch: []string{"./deploy.sh prod", "bash scripts/deploy.sh production", "sh ./release-prod.sh", "scripts/publish.sh --tag latest"},
			Allow: []string{"./build.sh", "bash scripts/test.sh", "./deploy-check.sh", "cat deploy.sh", "./scripts/lint.sh", "bash -n scripts/deploy.sh"},
		},
		cmdRule("external.systems:deploy-hook", Ask, "A build or deploy hook called (curl -X POST https://api.netlify.com/build_hooks/…, a Render or Vercel deploy hook): the site is rebuilt and shipped from whatever its branch holds; the hooks are data (policy/remoteops.txt deploy-hook)", []string{"curl", "wget", "http", "https", "xh"},
			func(e *Env, c *Cmd) string {
				if !strings.Contains(e.F.Command, "hook") && !strings.Contains(e.F.Command, "deploy") {
					return "" // no hook on the line
				}
				for _, a := range c.Args {
					if !strings.Contains(a, "://") {
						continue
					}
					l := strings.ToLower(a)
					for _, h := range opsWords("deploy-hook") {
						if strings.Contains(l, h) {
							return c.Name + " calls a deploy hook (" + a + "): the site is rebuilt and shipped"
						}
					}
				}
				return ""
			},
			[]string{"curl -X POST https://api.netlify.com/build_hooks/abc123", "curl -X POST https://api.render.com/deploy/srv-xyz?key=k", "curl -s -X POST https://api.vercel.com/v1/integrations/deploy/prj_1/abc"},
			[]string{"curl https://api.netlify.com/api/v1/sites", "curl -s https://example.com/deploy-docs", "curl https://api.render.com/v1/services"}),
	}
}
