package policy

import "strings"

// pidFileKillRules: kill "$(cat /run/icecast2/icecast.pid)" ends the
// process a service's pid file names. A pid file under /run or /var/run
// is written by a system service (its init script, systemd, the daemon
// itself), so the signal stops that service, as systemctl stop would; a
// pid file in the project or /tmp is the developer's own server.
func pidFileKillRules() []Rule {
	return []Rule{cmdRule("core.destroy:kill-service-pidfile", Ask, "Ending the process a system service's pid file names (kill $(cat /run/nginx.pid), PID=$(cat /var/run/gunicorn.pid); kill $PID, os.kill(int(open('/run/x.pid').read()), …)): it stops a service as systemctl stop does; a pid file in the project or /tmp is the developer's own process", killTools,
		func(e *Env, c *Cmd) string {
			if !signalsSubstitutedPid(c) {
				return ""
			}
			for _, p := range e.F.Paths {
				if servicePidFile(p.Path) {
					return c.Name + " ends the process " + p.Path + " names, a system service's: " + c.String()
				}
			}
			return ""
		},
		[]string{"kill $(cat /run/nginx.pid)", "PID=$(cat /var/run/gunicorn.pid); kill \"$PID\"", "kill -HUP $(cat /run/icecast2/icecast.pid)", "kill -9 `cat /var/run/postgresql/14-main.pid`"},
		[]string{"kill $(cat /tmp/server.pid)", "kill $(cat .dev.pid)", "kill -9 1234", "kill $PID", "cat /run/nginx.pid", "kill -0 $(cat /run/nginx.pid)"})}
}

// servicePidFile: a pid file a system service keeps (/run/NAME.pid,
// /var/run/NAME/NAME.pid).
func servicePidFile(p string) bool {
	return strings.HasSuffix(p, ".pid") && (strings.HasPrefix(p, "/run/") || strings.HasPrefix(p, "/var/run/"))
}

// signalsSubstitutedPid: c sends a signal (not kill -0, which only asks
// whether the process is there, nor a signal listing) to a pid the line
// substitutes ($(cat F), "$PID") — the shape both pid-file rules read.
func signalsSubstitutedPid(c *Cmd) bool {
	if endsNothing(c) {
		return false
	}
	for _, a := range c.Args {
		if strings.Contains(a, "$") {
			return true
		}
	}
	return false
}
