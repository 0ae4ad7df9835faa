package policy

import "strings"

// killByPatternRules: a kill whose targets are chosen by a pattern — pkill -f
// PATTERN, kill $(pgrep -f PATTERN), kill $(pidof NAME), Stop-Process
// -Name NAME — reaches every process the pattern matches, started by the
// agent or not (a Spark history server, a game server, a colleague's
// kernel). Whatever the program, one pattern is routine: the command line
// of a dev server the agent runs (a "server"/"serve" word, --reload,
// --port, localhost, a dev config), which is what agents restart.
func killByPatternRules() []Rule {
	return []Rule{cmdRule("core.destroy:kill-by-pattern", Ask, "Ending the processes a pattern or a name finder picks (pkill -f 'java.*tika', kill -9 $(pgrep -f HistoryServer), kill $(pidof ncview), Stop-Process -Name devenv): it reaches processes the agent did not start; a dev server's command line (pkill -f 'vite --port 5173', 'uvicorn app:app --reload', 'hugo server') is routine", killTools,
		func(e *Env, c *Cmd) string {
			if endsNothing(c) || c.Has("-u", "--user") || ownChildrenKill(c) {
				return "" // one user's own processes: core.destroy:kill-system judges the rest
			}
			var pats []string
			switch c.Name {
			case "pkill", "killall", "skill":
				if !hasArg(c, "-f", "--full") {
					return "" // a bare name: core.destroy:kill-by-name
				}
				if specificKill(c) {
					return "" // one program's own processes: pack_kill_devprocs.go
				}
				pats = c.Pos
			case "kill":
				subst := false
				for _, a := range c.Args {
					subst = subst || strings.Contains(a, "$") || strings.EqualFold(a, "-Name")
				}
				if !subst {
					return "" // a pid or a job the agent holds
				}
				pats = killNames(e, c)
			}
			for _, p := range pats {
				if !devCommandLine(p) && !(c.Name == "kill" && specificProcPattern(p)) { // kill $(pgrep -f anvil): a dev tool's own processes, as pkill -f anvil
					return c.Name + " ends every process matching " + p + ", which the agent may not have started: " + c.String()
				}
			}
			return ""
		},
		[]string{"kill -9 $(pgrep -f 'org.apache.spark.deploy.history.HistoryServer')", "kill -9 $(pgrep -x ncview)", "kill $(pgrep -f 'borg create')",
			"sudo kill -9 $(pgrep -f 'Microsoft Teams')", "pkill -f 'python3 -m'", "pkill -f '^no'", "pkill -f 'java.*tika-server'", "powershell.exe -Command \"Stop-Process -Name devenv -Force\"", "kill $(pidof mpv)"},
		[]string{"pkill -f 'hardhat node'", "pkill -f anvil", "pkill -f 'vite --port 5173'", "kill $(pgrep -f 'node server.js')", "pkill -f 'uvicorn app.main:app --reload --port 8000'", "pkill -f 'hugo server'",
			"pkill -f 'odoo-bin -c dev.conf --http-port=8069'", "kill -9 1234", "kill $(cat /tmp/devserver.pid)", "kill %1", "pgrep -f ncview", "kill -l"})}
}

// devCommandLine: a process pattern naming a dev server's command line —
// a server/serve word (hugo server, node server.js, --server), a reload or
// watch mode, a port option (--port 3000, not kubectl port-forward: a
// tunnel the user may hold), localhost, or a dev config or folder.
func devCommandLine(p string) bool {
	if projectFileCommandLine(p) || devLocalCommandLine(p) || devRunCommandLine(p) {
		return true // a program with this project's config or script: kill_projectfile.go; a runtime running the project's script, a loopback bind, a data server on a project folder: kill_devlocal.go; the project run by its build tool: kill_devrun.go
	}
	for _, tok := range strings.Fields(strings.ToLower(p)) {
		t := strings.TrimLeft(tok, "-")
		if t == "server" || t == "serve" || t == "runserver" || strings.HasPrefix(t, "server.") || strings.HasPrefix(t, "port") && (t != tok || t == "port" || strings.HasPrefix(t, "port=")) || strings.HasPrefix(t, "http-port") {
			return true
		}
		for _, w := range strings.FieldsFunc(t, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
			switch w {
			case "dev", "localhost", "reload", "watch", "vite", "webpack", "nodemon":
				return true
			}
		}
	}
	return false
}
