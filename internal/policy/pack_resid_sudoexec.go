package policy

import (
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// containerExecInner is the command a container engine's exec runs
// (sudo lxc exec web -- tail -n 50 /var/log/app.log, sudo docker exec
// db cat /etc/hosts, sudo incus exec c1 -- journalctl -u x): root is
// needed only to reach the container, so what runs there is what a
// sudo query is judged by; nil when args are no container exec.
func containerExecInner(name string, args []string) []string {
	var vals []string
	switch name {
	case "docker", "podman", "nerdctl":
		vals = []string{"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys"}
	case "lxc", "incus":
		vals = []string{"--env", "--mode", "--user", "--group", "--cwd", "--project"}
	default:
		return nil
	}
	if len(args) < 3 || args[0] != "exec" {
		return nil
	}
	rest := args[1:]
	if name == "lxc" || name == "incus" {
		if i := slices.Index(rest, "--"); i >= 0 {
			if i+1 < len(rest) {
				return rest[i+1:]
			}
			return nil
		}
	}
	seenContainer := false
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && slices.Contains(vals, a) {
				i++
			}
			continue
		}
		if !seenContainer {
			seenContainer = true
			continue
		}
		return rest[i:]
	}
	return nil
}

// rootExecQuery: a sudo'd container exec whose command only reads
// ("" otherwise); the inner command is judged as rootQuery judges one.
func rootExecQuery(c *Cmd, name string, args []string) string {
	inner := containerExecInner(name, args)
	if len(inner) == 0 || callfacts.ProgramName(inner[0]) == name {
		return ""
	}
	sub := &Cmd{Name: c.Name, Args: append([]string{inner[0]}, inner[1:]...)}
	if q := rootQuery(sub); q != "" {
		return name + " exec: " + q
	}
	return ""
}
