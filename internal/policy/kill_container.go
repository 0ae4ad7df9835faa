package policy

import "strings"

// kill inside a container. Run through docker/podman/nerdctl exec,
// docker compose exec or kubectl/oc exec, kill works in the container's
// own process namespace: pid 1 there is the container's main process
// (the server the image runs), not the host's init. A reload signal to it (kill -HUP 1, kill
// -USR1 1: prometheus, nginx, haproxy reread their config) is the
// documented way to reload; any other signal stops the main process and
// with it the container (or the pod's container restarts): a service
// stopped, which asks, as stopping it from outside would — never the
// deny for signalling every process on this machine (core.destroy:kill-all).
// kill -1 (every process the caller may signal) stays that deny inside a
// container too: which namespace it reaches the line does not show.

// containerExec: c runs inside a container through an exec wrapper.
func containerExec(c *Cmd) bool {
	for _, w := range c.Wrappers {
		for _, p := range []string{"docker exec", "podman exec", "nerdctl exec", "docker compose exec", "docker-compose exec", "podman compose exec", "podman-compose exec", "kubectl exec", "oc exec"} {
			if strings.HasPrefix(w, p) {
				return true
			}
		}
	}
	return false
}

// reloadSignals: the signals daemons take as "reread the configuration"
// or "reopen the logs", by name or number (HUP 1, USR1 10, USR2 12).
var reloadSignals = map[string]bool{"HUP": true, "1": true, "USR1": true, "10": true, "USR2": true, "12": true, "0": true}

// killSigTargets reads kill's arguments as the signal (upper case, no
// SIG prefix, "" when none is given: TERM) and the pids it is sent to.
func killSigTargets(c *Cmd) (sig string, pids []string) {
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case (a == "-s" || a == "-n" || a == "--signal") && i+1 < len(c.Args):
			sig = c.Args[i+1]
			i++
		case strings.HasPrefix(a, "--signal="):
			sig = strings.TrimPrefix(a, "--signal=")
		case a == "--":
			pids = append(pids, c.Args[i+1:]...)
			i = len(c.Args)
		case strings.HasPrefix(a, "-") && len(a) > 1 && sig == "" && len(pids) == 0 && i+1 < len(c.Args):
			sig = a[1:] // kill -HUP 1, kill -9 1, kill -1 1 (signal 1 to pid 1)
		default:
			pids = append(pids, a)
		}
	}
	return strings.TrimPrefix(strings.ToUpper(sig), "SIG"), pids
}

// containerMainKill says how kill run inside a container ends its main
// process ("" when it does not, or when the signal only asks for a
// reload).
func containerMainKill(c *Cmd) string {
	if c.Name != "kill" || !containerExec(c) {
		return ""
	}
	sig, pids := killSigTargets(c)
	if reloadSignals[sig] {
		return ""
	}
	for _, p := range pids {
		if p == "1" {
			return "kill " + strings.Join(c.Args, " ") + " inside a container ends its main process: the container stops (or its pod's container restarts)"
		}
	}
	return ""
}

// containerKillRules: the ask for stopping a container's main process
// from inside it.
func containerKillRules() []Rule {
	return []Rule{
		cmdRule("core.destroy:container-main-stop", Ask, "Ending a container's main process from inside it (docker exec web kill 1, kubectl exec pod -- kill -9 1): the service the container runs stops; a reload signal to it (kill -HUP 1, kill -USR1 1) is routine",
			[]string{"kill"},
			func(e *Env, c *Cmd) string { return containerMainKill(c) },
			[]string{"docker exec web kill 1", "kubectl exec web-0 -- kill -9 1", "podman exec db kill -TERM 1", "docker compose exec worker kill -s KILL 1"},
			[]string{"docker compose exec prometheus kill -HUP 1", "kubectl exec web-0 -- kill -USR1 1", "docker exec web kill -9 57", "kill -9 1234"}),
	}
}
