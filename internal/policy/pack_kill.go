package policy

import (
	"strings"
)

// killTools end processes by pid, name or port.
var killTools = []string{"kill", "pkill", "killall", "skill", "kill-port", "fuser", "taskkill", "taskkill.exe", "Stop-Process"}

// pidFinders print the pids that a kill in the same line ends:
// kill $(pgrep sshd), lsof -ti :3000 | xargs kill.
var pidFinders = []string{"pgrep", "pidof", "lsof", "fuser", "ps", "ss", "netstat", "docker", "jobs"}

// systemProcesses are processes the machine or the session depends on:
// ending one drops remote logins, the desktop, the container engine or
// the init system.
var systemProcesses = map[string]bool{"sshd": true, "ssh-agent": true, "systemd": true, "init": true, "launchd": true, "finder": true,
	"dock": true, "loginwindow": true, "windowserver": true, "systemuiserver": true, "explorer": true, "explorer.exe": true, "dbus-daemon": true,
	"networkmanager": true, "dockerd": true, "containerd": true, "kubelet": true, "xorg": true, "gnome-shell": true, "plasmashell": true,
	"gdm": true, "lightdm": true, "sddm": true, "cron": true, "crond": true, "rsyslogd": true, "systemd-journald": true, "polkitd": true,
	"wininit.exe": true, "winlogon.exe": true, "lsass.exe": true, "csrss.exe": true, "svchost.exe": true, "tmux": true, "screen": true,
	"claude": true, "code": true, "warden": true, "warden-core": true, "warden-helper": true, "postgres": true, "postgresql": true, "mysqld": true, "mariadbd": true, "redis-server": true, "mongod": true, "nginx": true, "httpd": true, "apache2": true, "kernel_task": true, "mds": true, "coreaudiod": true, "pulseaudio": true, "pipewire": true}

// killByName: ending processes chosen by name, pattern, port or a
// finder's output reaches processes the agent did not start (every node,
// the database on 5432); a pid or a job the agent holds is routine
// (risky.routine:kill records it). A system process, every process of a
// user, or a pattern matching everything is denied.
func killByName() []Rule {
	return []Rule{
		cmdRule("core.destroy:kill-system", Deny, "Ending a process the machine or the session depends on (sshd, systemd, launchd, Finder, dockerd, explorer.exe…), every process of a user (pkill -u, killall -u) or every process a pattern matches (pkill -f .)", killTools,
			func(e *Env, c *Cmd) string {
				if endsNothing(c) {
					return ""
				}
				if (c.Name == "pkill" || c.Name == "killall" || c.Name == "skill") && userOnly(c) {
					return c.Name + " ends every process of a user: " + c.String()
				}
				for _, n := range killNames(e, c) {
					l := strings.ToLower(n)
					if systemProcesses[l] || l == "." || l == ".*" || l == "^" {
						return c.Name + " ends " + n + ", which the machine or the session depends on: " + c.String()
					}
				}
				return ""
			},
			[]string{"killall Finder", "sudo kill -9 $(pgrep sshd)", "pkill -9 dockerd", "pkill -u dev", "pkill -f .", "taskkill /F /IM explorer.exe", "kill $(pidof systemd-journald)", "kill $(pgrep -f warden)", "powershell -c 'Stop-Process -Name explorer -Force'"},
			[]string{"kill -9 1234", "pkill -f vite", "killall python3", "kill %1", "kill -l", "pgrep sshd"}),
		cmdRule("core.destroy:kill-by-name", Ask, "Ending every process of a name (pkill node, killall python3) or what listens on a service's port (fuser -k 5432/tcp, kill $(lsof -t -i:6379)): it reaches processes the agent did not start; one command line (pkill -f 'vite dev') or a dev server's port is routine", killTools,
			func(e *Env, c *Cmd) string {
				if endsNothing(c) || c.Name == "fuser" && !c.Has("-k") || ownChildrenKill(c) {
					return "" // pkill -P $$: the shell's own children (kill_devrun.go)
				}
				if c.Has("-u", "--user") && len(c.Pos) > 0 {
					if u := optValue(c, "-u") + optValue(c, "--user"); !ownUser(e, u) {
						return c.Name + " ends " + u + "'s processes: " + c.String()
					}
					if !hasArg(c, "-f", "--full") && (c.Name != "killall" || !hasArg(c, "-r", "--regexp")) {
						return "" // one's own processes of one name
					}
					// -u self -f PATTERN: every own process whose command line
					// holds the pattern (pkill -u dev -f nextflow): judged below as
					// the pattern alone is
				}
				switch c.Name {
				case "kill":
					for _, a := range c.Pos {
						if strings.Contains(a, "$") && lineFinder(e) != "" && servicePortIn(e) != "" {
							return "kill ends what listens on " + servicePortIn(e) + ": " + c.String()
						}
					}
					return ""
				case "fuser", "kill-port":
					if p := servicePort(c.Args); p != "" {
						return c.Name + " ends what listens on " + p + ": " + c.String()
					}
					return ""
				case "pkill", "killall", "skill":
					if specificKill(c) || ownSpecificKill(e, c) {
						return "" // one program's own processes: pack_kill_devprocs.go
					}
					for _, n := range c.Pos {
						if u := optValue(c, "-u") + optValue(c, "--user"); n == u {
							continue // the user -u names, not a pattern
						}
						if hasArg(c, "-f", "--full") && strings.ContainsAny(n, " ./") {
							continue // one script or command line: pkill -f 'node server.js'
						}
						return c.Name + " ends every process named " + n + ": " + c.String()
					}
					return ""
				}
				return c.Name + " ends processes chosen by name: " + c.String()
			},
			[]string{"pkill node", "pkill -KILL -f postgres", "fuser -k 5432/tcp", "lsof -ti :6379 | xargs kill -9", "killall python3", "pkill -f java", "taskkill /F /IM node.exe", "kill $(lsof -t -i:5432)", "pkill -u $USER -f nextflow"},
			[]string{"pkill -f webpack", "killall -9 openocd", "kill -9 1234", "kill %1", "kill $PID", "kill -l", "fuser 8080/tcp", "pgrep node", "kill -9 $(lsof -t -i:3000)", "pkill -f 'vite dev'", "pkill -u dev node", "pkill -u $USER -f 'vite dev'", "fuser -k 3000/tcp"}),
	}
}

// killNames are the process names a kill names or finds.
func killNames(e *Env, c *Cmd) []string {
	var out []string
	switch c.Name {
	case "pkill", "killall", "skill":
		out = append(out, c.Pos...)
	case "taskkill", "taskkill.exe":
		for i, a := range c.Args {
			if strings.EqualFold(a, "/IM") && i+1 < len(c.Args) {
				out = append(out, c.Args[i+1])
			}
		}
	case "kill":
		for i, a := range c.Args {
			if strings.EqualFold(a, "-Name") && i+1 < len(c.Args) {
				out = append(out, c.Args[i+1]) // PowerShell's Stop-Process -Name
			}
		}
		for i := range e.F.Commands {
			f := &e.F.Commands[i]
			if f.Name == "pgrep" || f.Name == "pidof" {
				out = append(out, f.Pos...)
			}
		}
	}
	return out
}

// lineFinder names a pid finder run in the same line, "" for none.
func lineFinder(e *Env) string {
	for i := range e.F.Commands {
		for _, n := range pidFinders {
			if e.F.Commands[i].Name == n {
				return n
			}
		}
	}
	return ""
}

func isNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// servicePorts are ports of shared services (databases, brokers, the
// system's own daemons), unlike a dev server's 3000 or 8080.
var servicePorts = map[string]bool{"22": true, "25": true, "53": true, "80": true, "443": true, "3306": true, "5432": true, "6379": true,
	"27017": true, "9200": true, "9300": true, "5672": true, "15672": true, "2181": true, "9092": true, "11211": true, "1433": true,
	"1521": true, "5984": true, "7687": true, "8086": true, "2375": true, "2376": true, "6443": true, "10250": true}

// servicePort finds a service's port among args (5432/tcp, :6379, -i:5432, tcp:443).
func servicePort(args []string) string {
	for _, a := range args {
		for _, f := range strings.FieldsFunc(a, func(r rune) bool { return r == ':' || r == '/' || r == '=' || r == '@' }) {
			f = strings.TrimPrefix(strings.TrimPrefix(f, "-i"), "-")
			if servicePorts[f] {
				return f
			}
		}
	}
	return ""
}

// servicePortIn is a service's port named by a pid finder of the line.
func servicePortIn(e *Env) string {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name == "lsof" || c.Name == "fuser" || c.Name == "ss" || c.Name == "netstat" {
			if p := servicePort(c.Args); p != "" {
				return p
			}
		}
	}
	return ""
}

// userOnly: pkill -u NAME with no pattern after the user (the positional
// is the -u value).
func userOnly(c *Cmd) bool {
	for i, a := range c.Args {
		if (a == "-u" || a == "--user") && i+1 < len(c.Args) && i+2 == len(c.Args) {
			return true
		}
	}
	return false
}

// endsNothing: c lists signal names (kill -l / -L; a bundle like -KILL
// is a signal, not -K -I -L -L) or sends signal 0, which only checks that
// the processes exist (kill -0 PID, pkill -0 -f NAME): it ends no process.
func endsNothing(c *Cmd) bool {
	if hasArg(c, "-l", "-L", "--list", "-0", "--signal=0", "-SIG0", "-s0") {
		return true
	}
	for i, a := range c.Args {
		if (a == "-s" || a == "--signal") && i+1 < len(c.Args) && c.Args[i+1] == "0" {
			return true
		}
	}
	return false
}

func hasArg(c *Cmd, xs ...string) bool {
	for _, a := range c.Args {
		for _, x := range xs {
			if a == x {
				return true
			}
		}
	}
	return false
}

// ownSpecificKill: pkill -u SELF -f PATTERN where every pattern is one
// program's own (a dev tool, pack_kill_devprocs.go): narrowing to one's own
// user keeps it specific.
func ownSpecificKill(e *Env, c *Cmd) bool {
	u := optValue(c, "-u") + optValue(c, "--user")
	if u == "" || !ownUser(e, u) || len(c.Wrappers) > 0 {
		return false
	}
	n := 0
	for _, p := range c.Pos {
		if p == u {
			continue
		}
		if strings.Contains(p, "$") || !specificProcPattern(p) {
			return false
		}
		n++
	}
	return n > 0
}
