package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A compose file outside the project defines services the user runs for
// themselves (~/homeassistant, /srv/media, /opt/stack): pulling, starting,
// stopping or removing them changes what the machine serves, not the
// project's development stack. Where the file lives is the model: -f,
// --project-directory, or the directory the command runs in.

// composeValueOpts are compose's options that take a value.
var composeValueOpts = map[string]bool{"-f": true, "--file": true, "-p": true, "--project-name": true, "--project-directory": true,
	"--env-file": true, "--profile": true, "--ansi": true, "--parallel": true, "--progress": true}

// composeChanges are the compose subcommands that change running services.
var composeChanges = map[string]bool{"up": true, "down": true, "pull": true, "restart": true, "stop": true, "rm": true, "kill": true,
	"start": true, "create": true, "pause": true, "scale": true, "watch": true}

// composeCall reads a compose invocation (docker compose …, podman
// compose …, docker-compose …): its subcommand and the files or the
// directory that define its services ("" when none is named).
func composeCall(c *Cmd) (sub string, where []string, ok bool) {
	args := c.Args
	switch c.Name {
	case "docker", "podman", "nerdctl":
		if len(c.Pos) == 0 || c.Pos[0] != "compose" {
			return "", nil, false
		}
		for i, a := range args {
			if a == "compose" {
				args = args[i+1:]
				break
			}
		}
	case "docker-compose", "podman-compose":
	default:
		return "", nil, false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		k, v, eq := strings.Cut(a, "=")
		switch {
		case composeValueOpts[a] && i+1 < len(args):
			if a == "-f" || a == "--file" || a == "--project-directory" {
				where = append(where, args[i+1])
			}
			i++
		case eq && (k == "--file" || k == "--project-directory"):
			where = append(where, v)
		case strings.HasPrefix(a, "-"):
		default:
			if sub == "" {
				sub = a
			}
		}
	}
	return sub, where, true
}

// composeOutsideRule: compose changing services defined outside the
// project (home, /srv, /opt).
func composeOutsideRule() Rule {
	return cmdRule("core.local:compose-outside", Ask, "docker/podman compose pulling, starting, stopping or removing services whose compose file lives outside the project (~/homeassistant, /srv/media): the user's own running services, not the project's stack", []string{"docker", "podman", "nerdctl", "docker-compose", "podman-compose"},
		func(e *Env, c *Cmd) string {
			sub, where, ok := composeCall(c)
			if !ok || !composeChanges[sub] || c.Has("--dry-run") {
				return ""
			}
			dir := c.Dir
			if dir == "" {
				dir = e.F.Cwd
			}
			places := []string{dir}
			if len(where) > 0 {
				places = nil
				for _, w := range where {
					if callfacts.UnknownValue(w) && !strings.HasPrefix(w, "$HOME") && !strings.HasPrefix(w, "${HOME}") {
						return ""
					}
					places = append(places, e.abs(c, w))
				}
			}
			for _, p := range places {
				switch callfacts.ZoneOf(p, e.F.Home, e.F.Project) {
				case callfacts.ZoneHomeData, callfacts.ZoneHomeConfig, callfacts.ZoneSystem, callfacts.ZoneElsewhere, callfacts.ZoneShared:
					return c.Name + " compose " + sub + " changes services defined outside the project (" + homeRel(path.Clean(p), e.F.Home) + ")"
				}
			}
			return ""
		},
		[]string{"docker compose -f ~/homeassistant/docker-compose.yml up -d", "cd /srv/media && docker compose pull", "docker compose --project-directory /opt/stack down", "podman compose -f $HOME/pihole/compose.yaml restart"},
		[]string{"docker compose up -d", "docker compose -f docker-compose.dev.yml up -d", "docker compose -f ~/homeassistant/docker-compose.yml ps", "docker compose -f ~/homeassistant/docker-compose.yml logs -f", "cd /tmp/x && docker compose up"})
}
