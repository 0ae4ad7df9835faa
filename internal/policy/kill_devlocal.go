package policy

import "strings"

// A pkill -f pattern that can only match what the developer started from
// this project or on this machine's loopback, whatever the program:
//
//   - a server bound to the loopback address (gunicorn app:app --bind
//     127.0.0.1:8000, socat TCP-LISTEN:9000,bind=127.0.0.1): no one else
//     reaches it, it is a dev server by its address as by "localhost";
//   - a runtime running this project's own script or package (python
//     train.py, node scripts/seed.js, java -jar build/libs/app.jar, go run
//     ./cmd/server, Rscript analysis/fit.R): the broad runtime is narrowed
//     by the script, which is a file of the project (a relative path with
//     a folder or an extension);
//   - a data server whose data folder is inside the project, written
//     ./… (postgres -D ./tmp/pgdata, mongod --dbpath ./data/db,
//     redis-server ./dev/redis.conf): the developer's own instance, not
//     the machine's database.
//
// A shared job's words (worker, queue, scheduler, cron: sharedJob) keep
// the ask, and so do patterns of a runtime alone (pkill -f python3,
// pkill -f 'python3 -m'), a script given by absolute or home path
// (/opt/…, ~/…) and the machine's own servers (nginx -c /etc/nginx/…).

// scriptRuntimes run a script or a package named after them.
var scriptRuntimes = map[string]bool{"python": true, "python3": true, "python2": true, "node": true, "nodejs": true, "ruby": true, "perl": true,
	"php": true, "java": true, "go": true, "deno": true, "bun": true, "julia": true, "rscript": true, "dotnet": true, "lua": true, "tsx": true,
	"ts-node": true, "uv": true, "poetry": true, "pipenv": true, "bash": true, "sh": true, "zsh": true}

// runtimeSubWords come between a runtime and its script (go run ./cmd/x,
// deno run main.ts, uv run train.py, bun run src/index.ts).
var runtimeSubWords = map[string]bool{"run": true, "exec": true, "serve": true}

// dataServers keep their data in the folder they are given.
var dataServers = map[string]bool{"postgres": true, "postmaster": true, "mysqld": true, "mariadbd": true, "mongod": true, "redis-server": true,
	"valkey-server": true, "etcd": true, "minio": true, "clickhouse-server": true, "nats-server": true, "elasticsearch": true}

// devLocalCommandLine: pattern p can only match a process of this
// project or one listening on this machine's loopback (see above).
func devLocalCommandLine(p string) bool {
	if sharedJob(p) || strings.Contains(p, "..") {
		return false
	}
	if strings.Contains(p, "127.0.0.1") || strings.Contains(p, "[::1]") {
		return true
	}
	toks := strings.Fields(p)
	if len(toks) < 2 {
		return false
	}
	prog := strings.ToLower(toks[0])
	switch {
	case scriptRuntimes[prog] || scriptRuntimes[strings.TrimRight(prog, "0123456789.")]:
		for _, t := range toks[1:] {
			switch {
			case strings.HasPrefix(t, "-"):
				if t == "-m" || t == "-c" || t == "-e" {
					return false // python -m pkg, node -e '…': a module or code, not this project's file
				}
				continue // -u, -jar, --inspect
			case runtimeSubWords[strings.ToLower(t)]:
				continue
			}
			return projectRelFile(t) && (strings.Contains(t, "/") || strings.Contains(t, "."))
		}
	case dataServers[prog]:
		for _, t := range toks[1:] {
			if i := strings.IndexByte(t, '='); i >= 0 && strings.HasPrefix(t, "-") {
				t = t[i+1:]
			}
			if strings.HasPrefix(t, "./") && projectRelFile(t) {
				return true
			}
		}
	}
	return false
}
