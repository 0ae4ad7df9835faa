package policy

import (
	"fmt"
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// systemRules extend core.destroy with what breaks the machine or the
// project without deleting a directory tree: the whole project wiped,
// kernel switches, system binaries moved, privilege grants, firewall
// lock-outs, volumes, shell history wiped, cloud metadata credentials.
func systemRules() []Rule {
	return []Rule{
		{
			ID: "core.destroy:project-wipe", Mode: Ask, Tools: shellTools,
			Desc: "Deleting the whole project or its .git (rm -rf ., rm -rf *, rm -rf .git, code that deletes every file of the directory)",
			Match: func(e *Env) string {
				for _, p := range e.F.Paths {
					if p.Op != OpDelete || e.F.Project == "" {
						continue
					}
					q := strings.TrimSuffix(strings.TrimSuffix(p.Path, "/*"), "/.*")
					switch {
					case q == e.F.Project || strings.HasSuffix(p.Path, "/*") && q == e.F.Project || p.Path == e.F.Project+"/*":
						return fmt.Sprintf("%s deletes the whole project %s", p.Via, homeRel(e.F.Project, e.F.Home))
					case q == path.Join(e.F.Project, ".git"):
						return p.Via + " deletes the project's .git: its whole history"
					}
				}
				if why := wholeTreeDelete(e); why != "" {
					return why
				}
				for _, c := range e.F.Cmds("rm") {
					if !recursive(c) {
						continue
					}
					for _, a := range c.Pos {
						if a == "*" || a == ".*" || a == "./*" || a == "./.*" || a == "." || a == "./" {
							if d := c.Dir; d == e.F.Project || d == "" && e.F.Cwd == e.F.Project {
								return "rm -r " + a + " deletes the whole project"
							}
						}
					}
				}
				return ""
			},
			Catch: []string{"rm -rf ./*", "rm -rf .git", "rm -rf /home/dev/proj", "ls | xargs rm -rf", "python3 -c \"import os; [os.remove(f) for f in os.listdir('.')]\"",
				"find . -type f -delete", "find . -mindepth 1 -exec rm -rf {} +", "git ls-files | xargs rm", "rm -f $(git ls-files)", "git ls-files -z | xargs -0 rm -f"},
			Allow: []string{"rm -rf ./build", "rm -rf .git/hooks/pre-commit.sample", "rm -rf node_modules", "cd build && rm -rf *", "find . -name '*.pyc' -delete",
				"find ./build -type f -delete", "git ls-files '*.orig' | xargs rm", "git ls-files --deleted | xargs git rm"},
		},
		cmdRule("core.destroy:disable-security", Deny, "Switching off the host's protection: firewall (ufw disable, iptables -F, -P INPUT ACCEPT, nft flush ruleset), SELinux/AppArmor (setenforce 0), auditing, Gatekeeper and SIP (spctl --master-disable, csrutil disable); the list is data (callfacts/hostsec.txt)", callfacts.HostSecTools(),
			func(e *Env, c *Cmd) string {
				if projectOwnFiles(e, c) {
					return "" // xattr -d com.apple.quarantine build/Release/App.app: the project's own build
				}
				return c.DisablesSecurity()
			},
			[]string{"sudo ufw disable", "setenforce 0", "sudo systemctl stop firewalld", "systemctl disable --now apparmor.service", "sudo iptables -P INPUT ACCEPT", "iptables -F", "sudo spctl --master-disable", "csrutil disable", "sudo nft flush ruleset"},
			[]string{"sudo ufw status", "sudo ufw allow 22/tcp", "getenforce", "systemctl status firewalld", "sudo iptables -L -n", "iptables -A INPUT -p tcp --dport 22 -j ACCEPT", "spctl --status", "csrutil status", "systemctl stop nginx"}),
		{
			ID: "core.destroy:kernel-write", Mode: Deny, Tools: shellTools,
			Desc: "Writes to /proc and /sys (sysrq, kernel parameters) and sysctl -w",
			Match: func(e *Env) string {
				for _, p := range writes(e.F) {
					if under(p.Path, "/proc") && !under(p.Path, "/proc/self/fd") || under(p.Path, "/sys") {
						return fmt.Sprintf("%s writes %s (kernel state)", p.Via, p.Path)
					}
				}
				for _, c := range e.F.Cmds("sysctl") {
					if c.Has("-w", "--write", "-p", "--load") || len(c.Pos) > 0 && strings.Contains(c.Pos[0], "=") {
						return "sysctl changes kernel parameters: " + c.String()
					}
				}
				return ""
			},
			Catch: []string{"echo b > /proc/sysrq-trigger", "echo 0 | sudo tee /proc/sys/kernel/randomize_va_space", "sysctl -w vm.swappiness=0", "echo 1 > /sys/class/leds/x/brightness"},
			Allow: []string{"cat /proc/cpuinfo", "sysctl -a", "cat /sys/class/net/eth0/address", "echo hi > /tmp/x"},
		},
		cmdRule("core.destroy:system-file", Deny, "Removing, moving or linking over single files in system directories (mv /bin/bash …, rm /usr/bin/python3, ln -sf … /usr/bin/x)", []string{"rm", "mv", "ln", "unlink"},
			func(e *Env, c *Cmd) string {
				srcs := c.Pos
				if (c.Name == "mv" || c.Name == "ln") && len(c.Pos) > 1 {
					if c.Name == "ln" {
						srcs = c.Pos[len(c.Pos)-1:] // ln replaces the link name
					} else {
						srcs = c.Pos[:len(c.Pos)-1]
					}
				} else if c.Name == "ln" {
					return ""
				}
				for _, a := range srcs {
					p := e.abs(c, a)
					if why := systemPath(p, e.F.Home); why != "" && !under(p, "/etc") && !e.F.SandboxOwn(c, p) {
						return fmt.Sprintf("%s changes %s inside %s", c.Name, p, why)
					}
				}
				return ""
			},
			[]string{"sudo mv /bin/bash /bin/bash.bak", "rm /usr/bin/python3", "sudo ln -sf /bin/false /usr/bin/git", "unlink /usr/local/bin/node"},
			[]string{"mv a b", "ln -s /usr/bin/python3 ./py", "rm ~/bin/tool", "sudo rm -rf /var/lib/apt/lists/*"}),
		cmdRule("core.destroy:privilege", Ask, "Granting admin rights (usermod -aG sudo/wheel/docker, adding sudoers entries is core.paths:etc)", []string{"usermod", "gpasswd", "adduser", "dseditgroup"},
			func(e *Env, c *Cmd) string {
				a := " " + strings.Join(c.Args, " ") + " "
				for _, g := range []string{"sudo", "wheel", "admin", "root", "docker", "disk", "shadow"} {
					if strings.Contains(a, " "+g+" ") || strings.Contains(a, ","+g) || strings.Contains(a, g+",") {
						if c.Name == "usermod" && !c.Has("-G", "-g", "-aG", "--groups", "--append") && !strings.Contains(a, "-aG") {
							continue
						}
						if c.Name == "dseditgroup" && !c.Has("-a") {
							continue // -o checkmember, -o read: only asks
						}
						return c.Name + " grants the " + g + " group: " + c.String()
					}
				}
				return ""
			},
			[]string{"sudo usermod -aG sudo bob", "usermod -a -G wheel eve", "gpasswd -a mallory docker", "adduser eve sudo"},
			[]string{"usermod -c 'Bob B' bob", "groups", "id -Gn", "adduser --disabled-password svc"}),
		cmdRule("core.destroy:volumes", Deny, "Deleting container volumes (docker volume rm/prune, system prune --volumes; compose down -v of a stack outside the project): their data is gone", []string{"docker", "podman", "nerdctl", "docker-compose", "podman-compose"},
			func(e *Env, c *Cmd) string {
				p := " " + strings.Join(c.Pos, " ") + " "
				switch {
				case strings.Contains(p, " volume prune"):
					if devComposePrune(e, c) {
						return "" // --filter label=com.docker.compose.project=payments-dev: the developer's own stack's volumes
					}
					return "prunes every unused volume with its data: " + c.String()
				case strings.Contains(p, " down") && c.Has("-v", "--volumes"):
					if f := foreignCompose(e, c); f != "" {
						return "compose down -v deletes the volumes of a stack outside the project (" + f + "): " + c.String()
					}
					return "" // the project's own stack: its volumes are scratch state it recreates
				case (strings.Contains(p, " volume rm ") || strings.Contains(p, " volume remove ")) && (optValue(c, "--context") != "" || optValue(c, "-H") != "" || optValue(c, "--host") != ""):
					return "deletes volumes and their data on another Docker host: " + c.String()
				case strings.Contains(p, " volume rm ") || strings.Contains(p, " volume remove "):
					// Volumes named on the line are the developer's own
					// (a compose project's pgdata); a list the line does
					// not show could be any.
					for _, v := range c.Pos[2:] {
						if callfacts.UnknownValue(v) || strings.ContainsAny(v, "*?$`") {
							return "deletes container volumes the line does not name, with their data: " + c.String()
						}
					}
				case strings.Contains(p, " system prune") && c.Has("--volumes"):
					return "prunes every unused volume with its data: " + c.String()
				}
				return ""
			},
			[]string{"docker volume rm $(docker volume ls -q)", "docker system prune -af --volumes", "docker volume prune -f", "podman volume prune -f", "docker compose -f ~/code/infra/docker-compose.yml down -v", "docker --context prod volume rm data"},
			[]string{"docker volume ls", "docker system prune -f", "docker compose down", "docker volume create x", "docker volume rm proj_pgdata", "docker compose down -v"}),
		cmdRule("core.destroy:containers-all", Deny, "Force-removing or killing every container (docker rm -f $(docker ps -aq), docker kill $(docker ps -q)), removing a stack or service, leaving a swarm by force: running services stop and their containers' files are gone", []string{"docker", "podman", "nerdctl"},
			func(e *Env, c *Cmd) string {
				p := c.Pos
				if len(p) > 0 && p[0] == "container" {
					p = p[1:]
				}
				switch {
				case len(p) > 1 && (p[0] == "stack" && (p[1] == "rm" || p[1] == "remove" || p[1] == "down") || p[0] == "service" && (p[1] == "rm" || p[1] == "remove")):
					return c.Name + " " + p[0] + " " + p[1] + " removes running services: " + c.String()
				case len(p) > 1 && p[0] == "swarm" && p[1] == "leave" && c.Has("-f", "--force"):
					return "docker swarm leave --force takes the node out of the swarm with its services: " + c.String()
				}
				if len(p) < 2 || !(p[0] == "rm" && c.Has("-f", "--force") || p[0] == "kill" || p[0] == "stop") {
					return ""
				}
				for _, a := range p[1:] {
					if (a == "$(…)" || a == "$INPUT") && filteredContainers(e) {
						continue // $(docker ps -aq --filter name=azurite): the containers of that name (pack_containers_filtered.go)
					}
					if strings.Contains(a, "$(…)") || callfacts.UnknownValue(a) {
						return c.Name + " " + p[0] + " acts on a list of containers the command does not show (every container, as written): " + c.String()
					}
				}
				return ""
			},
			[]string{"docker rm -f $(docker ps -aq)", "docker kill $(docker ps -q)", "podman container rm -f $(podman ps -aq)", "docker stop $(docker ps -q)", "docker stack rm prod", "docker service rm api", "docker swarm leave --force"},
			[]string{"docker rm -f web", "docker rm $(docker ps -aq -f status=exited)", "docker ps -aq", "docker kill web", "docker rm -f $(docker ps -aq --filter name=azurite)"}),
		{
			ID: "core.destroy:history-wipe", Mode: Ask, Tools: shellTools,
			Desc: "Wiping shell history (history -c, deleting or emptying ~/.bash_history, unset HISTFILE, export HISTSIZE=0)",
			Match: func(e *Env) string {
				if strings.Contains(e.F.Command, "HIST") { // the regexp only when a history variable is named
					if m := histOff.FindString(e.F.Command); m != "" {
						return strings.TrimLeft(m, ";&|(\n \t") + " stops the shell history being kept"
					}
				}
				for _, c := range e.F.Cmds("history", "unset") {
					if c.Name == "history" && c.Has("-c", "-w") && (c.Has("-c") || anyPos(c, "/dev/null")) || c.Name == "unset" && anyPos(c, "HISTFILE") {
						return c.String() + " wipes the shell history"
					}
				}
				return historyFileWiped(e)
			},
			Catch: []string{"history -c", "rm ~/.bash_history", "unset HISTFILE", "ln -sf /dev/null ~/.zsh_history", "export HISTSIZE=0", "HISTFILE=/dev/null bash"},
			Allow: []string{"history | tail", "cat ~/.bash_history", "echo $HISTFILE", "history 20", "export HISTSIZE=10000", "grep HISTSIZE=0 ~/.bashrc"},
		},
		{
			ID: "core.destroy:history-file-wipe", Mode: Deny, Tools: shellTools,
			Desc:  "The saved shell history file itself deleted, emptied or pointed at /dev/null (rm ~/.bash_history, cat /dev/null > ~/.zsh_history, ln -sf /dev/null …): the user's record of every past session is gone for good, not only this shell's (history -c and unset HISTFILE ask)",
			Match: historyFileWiped,
			Catch: []string{"rm ~/.bash_history", "history -c && cat /dev/null > ~/.bash_history", "ln -sf /dev/null ~/.zsh_history", "truncate -s 0 ~/.bash_history"},
			Allow: []string{"history -c", "unset HISTFILE", "cat ~/.bash_history", "cp ~/.bash_history /tmp/h.bak", "wc -l ~/.zsh_history"},
		},
	}
}

// historyFileWiped: a write that deletes, empties or links away a saved
// shell history file ("" for none).
func historyFileWiped(e *Env) string {
	for _, p := range writes(e.F) {
		if b := path.Base(p.Path); b == ".bash_history" || b == ".zsh_history" || b == ".history" || b == ".python_history" {
			if p.Op == OpDelete || p.Via == ">" || p.Via == "ln" || p.Via == "truncate" {
				return fmt.Sprintf("%s %s %s", p.Via, opVerb(p.Op), homeRel(p.Path, e.F.Home))
			}
		}
	}
	return ""
}

// metadataRule joins core.secrets.
func metadataRule() Rule {
	return readsOnly(cmdRule("core.secrets:cloud-metadata", Ask, "Reading cloud instance credentials from the metadata service (169.254.169.254, metadata.google.internal)", []string{"curl", "wget", "http", "xh"},
		func(e *Env, c *Cmd) string {
			for _, a := range c.Args {
				if strings.Contains(a, "169.254.169.254") || strings.Contains(a, "metadata.google.internal") || strings.Contains(a, "169.254.170.2") || strings.Contains(a, "[fd00:ec2::254]") {
					return c.Name + " reads the cloud metadata service (instance credentials): " + a
				}
			}
			return ""
		},
		[]string{"curl http://169.254.169.254/latest/meta-data/iam/security-credentials/", "wget -qO- http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token", "curl -s 169.254.169.254/latest/user-data", "curl $AWS_CONTAINER_CREDENTIALS_FULL_URI http://169.254.170.2/v2/credentials"},
		[]string{"curl https://api.example.com", "curl http://localhost:8080", "wget https://x.io/f.tgz", "curl 127.0.0.1:9000/health"}))
}

// publishRule joins external.systems.
func publishRule() Rule {
	return cmdRule("external.systems:publish", Deny, "Publishing a package or release to a public registry (npm/yarn/pnpm publish, cargo publish, twine upload, gem push): hard to take back", []string{"npm", "yarn", "pnpm", "bun", "cargo", "twine", "gem", "poetry", "flit", "hatch", "uv", "dotnet", "mvn", "gradle", "gradlew"},
		func(e *Env, c *Cmd) string {
			s := sub(c)
			switch {
			case (c.Name == "npm" || c.Name == "yarn" || c.Name == "pnpm" || c.Name == "bun" || c.Name == "cargo" || c.Name == "poetry" || c.Name == "flit" || c.Name == "hatch" || c.Name == "uv") && s == "publish",
				c.Name == "twine" && s == "upload", c.Name == "gem" && s == "push", c.Name == "dotnet" && s == "nuget" && c.Sub(1) == "push",
				(c.Name == "mvn" || c.Name == "gradle" || c.Name == "gradlew") && anyPos(c, "deploy", "publish"):
				if c.Has("--dry-run", "-n") && c.Name != "mvn" || localRegistry(c) {
					return "" // a dry run; a feed that is a folder on this machine (dotnet nuget push --source ./local-feed)
				}
				return c.Name + " publishes to a public registry: " + c.String()
			}
			return ""
		},
		[]string{"npm publish", "cargo publish", "twine upload dist/*", "gem push x-1.0.gem", "pnpm publish --access public"},
		[]string{"npm publish --dry-run", "npm pack", "cargo build", "twine check dist/*", "npm run publish-docs", "dotnet nuget push bin/x.nupkg --source ./local-feed", "mvn deploy -DaltDeploymentRepository=local::file:./target/repo"})
}

// histOff matches an assignment that stops the shell keeping history
// (export HISTSIZE=0, HISTFILE=/dev/null).
var histOff = re(`(?:^|[;&|(\n]\s*|\b(?:export|declare|typeset|readonly)\s+(?:-\w+\s+)*)(?:(?:HISTSIZE|HISTFILESIZE|SAVEHIST)=0\b|HISTFILE=/dev/null\b)`)

// wholeTreeDelete says how the line deletes every file of the project:
// find on its root with no test that picks some files (-type f selects
// them all), or rm fed the whole list of git ls-files.
func wholeTreeDelete(e *Env) string {
	for _, c := range e.F.Cmds("find") {
		del := c.Has("-delete")
		for _, x := range callfacts.FindExecs(c.Args) {
			n := callfacts.ProgramName(x[0])
			del = del || n == "rm" || n == "shred" || n == "unlink"
		}
		if !del || callfacts.FindFilters(c.Args) && !onlyTypeFile(c.Args) {
			continue
		}
		for _, a := range c.Args {
			if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
				break
			}
			if e.abs(c, a) == e.F.Project {
				return "find " + a + " deletes every file of the project"
			}
		}
	}
	for _, g := range e.F.Cmds("git") {
		if sub(g) != "ls-files" || len(g.Pos) > 1 || g.Has("-d", "--deleted", "-k", "--killed") {
			continue
		}
		for _, c := range e.F.Cmds("rm", "shred", "unlink") {
			fed := contains(c.Upstream, "git") && c.Wrappers != nil
			for _, a := range c.Args {
				fed = fed || strings.Contains(a, "$(…)")
			}
			if fed {
				return c.Name + " deletes every file git ls-files lists: the whole project"
			}
		}
	}
	return ""
}

// onlyTypeFile reports whether find's only test is -type f (every file).
func onlyTypeFile(args []string) bool {
	for i, a := range args {
		if a == "-type" && i+1 < len(args) && args[i+1] == "f" {
			continue
		}
		if i > 0 && args[i-1] == "-type" {
			continue
		}
		switch a {
		case "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer", "-size", "-mtime", "-mmin", "-user", "-group", "-perm", "-empty", "-links", "-wholename", "-lname", "-samefile", "-inum", "-atime", "-ctime", "-cmin", "-amin":
			return false
		}
	}
	return true
}

// devComposeLabel: a prune filter naming a compose project that is a
// developer's own (dev, test, local, ci, e2e, sandbox in its name), or
// any label key or value named for a test run (label=com.acme.e2e-test,
// label=env=ci): that run's volumes. label!= prunes everything else.
var devComposeLabel = re(`(?i)^label=com\.docker\.compose\.project=(?:[\w.-]*[_.-])?(dev|develop|development|local|test|tests|testing|ci|e2e|sandbox|scratch)(?:[_.-][\w.-]*)?$|^label=(?:[\w./=-]*[_./=-])?(test|tests|testing|ci|e2e|scratch)(?:[_./=-][\w./=-]*)?$`)

// devComposePrune: docker volume prune is scoped by --filter to one
// compose project, the workspace's own (its directory's name) or one
// named for development or tests, and to nothing that names production:
// the unused volumes of the developer's own stack, as compose down -v.
func devComposePrune(e *Env, c *Cmd) bool {
	fs := c.OptValues(map[string]bool{"--filter": true})
	if len(fs) == 0 {
		return false
	}
	own := ""
	if e.F.Project != "" {
		own = "label=com.docker.compose.project=" + strings.ToLower(path.Base(e.F.Project))
	}
	scoped := false
	for _, f := range fs {
		f = strings.Trim(f, `"'`)
		if prodWord.MatchString(f) || callfacts.UnknownValue(f) {
			return false
		}
		if devComposeLabel.MatchString(f) || own != "" && strings.EqualFold(f, own) {
			scoped = true
		}
	}
	return scoped
}
