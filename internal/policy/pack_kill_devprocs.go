package policy

import (
	_ "embed"
	"path"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// Killing a process by the name of a dev tool (pkill -f anvil, killall
// webpack, pkill -f 'storescp --fork'; devprocs.txt) is how an agent stops
// a tool it started: allowed. Any other name asks — the user's
// applications and VMs (burpsuite, qemu-system-x86_64), a runtime many
// programs share (beam.smp, node), a system or shared daemon — as does a
// pattern of one or two letters or a regex that names no program, and
// every other form the kill rules judge (-u OTHERUSER, kill -9 -1, pids
// from a command substitution). A dev server's command line (pkill -f
// 'uvicorn app:app --reload') is core.destroy:kill-by-pattern's
// exemption.

//go:embed devprocs.txt
var devProcsText string

// devProcs are devprocs.txt's names.
var devProcs = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	datatable.Must("devprocs.txt", devProcsText, 2, func(l datatable.Line) error {
		for _, n := range l.Fields[1:] {
			m[n] = true
		}
		return nil
	})
	return m
})

// jobLaunchers are devprocs.txt's job-launchers: programs that start the
// dev server and shared workers alike.
var jobLaunchers = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	datatable.Must("devprocs.txt", devProcsText, 2, func(l datatable.Line) error {
		if l.Fields[0] == "job-launchers" {
			for _, n := range l.Fields[1:] {
				m[n] = true
			}
		}
		return nil
	})
	return m
})

// devProcName: w is a dev tool of devprocs.txt, whole or by the part
// before its first dash (webpack-dev-server).
func devProcName(w string) bool {
	head, _, _ := strings.Cut(w, "-")
	return devProcs()[w] || devProcs()[head] || testDoubleName(w)
}

// broadProcNames are programs many unrelated processes run as.
var broadProcNames = map[string]bool{"node": true, "nodejs": true, "python": true, "python2": true, "python3": true, "java": true,
	"ruby": true, "perl": true, "php": true, "php-fpm": true, "bash": true, "sh": true, "zsh": true, "fish": true, "dash": true, "ksh": true,
	"claude": true, "code": true, "cursor": true, "chrome": true, "chromium": true, "google-chrome": true, "firefox": true, "safari": true,
	"electron": true, "docker": true, "podman": true, "ssh": true, "sshd": true, "tmux": true, "screen": true, "go": true, "dotnet": true,
	"npm": true, "npx": true, "yarn": true, "pnpm": true, "deno": true, "bun": true, "uv": true, "pip": true, "conda": true, "jupyter": true,
	"ipython": true, "vim": true, "nvim": true, "emacs": true, "slack": true, "teams": true, "zoom": true, "bin": true, "usr": true,
	"local": true, "home": true, "sudo": true, "su": true, "root": true, "user": true, "server": true, "app": true, "main": true,
	"worker": true, "agent": true, "daemon": true, "service": true, "gunicorn": true, "uwsgi": true, "celery": true, "supervisord": true,
	"redis": true, "mysql": true, "mongo": true, "kafka": true, "elasticsearch": true, "rabbitmq": true, "memcached": true, "postmaster": true,
	"kube": true, "kubectl": true, "minikube": true, "qemu": true, "vmware": true, "virtualbox": true, "wine": true, "steam": true,
	// runs of shared jobs and machines, not a dev tool: a backup, a robot's launch
	"restic": true, "borg": true, "duplicity": true, "rsnapshot": true, "backup": true, "ros2": true, "roslaunch": true, "roscore": true, "rosmaster": true,
	// the user's own applications and IDEs, and other users' sessions
	"google": true, "studio": true, "rstudio": true, "rsession": true, "idea": true, "pycharm": true, "goland": true, "clion": true,
	"webstorm": true, "xcode": true, "simulator": true, "unrealeditor": true, "unity": true, "blender": true, "spotify": true, "discord": true,
	"obs": true, "thunderbird": true, "outlook": true, "word": true, "excel": true, "finder": true, "terminal": true, "iterm2": true,
	// monitoring and log shippers: shared daemons
	"splunkd": true, "telegraf": true, "prometheus": true, "grafana": true, "node_exporter": true, "filebeat": true, "fluentd": true,
	"fluent-bit": true, "datadog-agent": true, "osqueryd": true, "falcon-sensor": true, "zabbix_agentd": true, "collectd": true}

// sharedSuffixes end the names of servers and schedulers others rely on
// (gzserver, airflow-scheduler, tika-server, ssh-agent, celery-worker).
var sharedSuffixes = []string{"server", "scheduler", "daemon", "agent", "worker", "manager", "supervisor"}

// specificProcPattern: p names a dev tool of devprocs.txt — its first
// word of three or more letters that is not a broad name, a system
// process or a shared server, once regex punctuation is set aside.
func specificProcPattern(p string) bool {
	for _, tok := range strings.Fields(strings.ToLower(p)) {
		if strings.HasPrefix(tok, "-") {
			continue // an option of the matched command line
		}
		tok = tok[strings.LastIndexByte(tok, '/')+1:] // /opt/x/bin/anvil: anvil
		for _, w := range strings.FieldsFunc(tok, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
		}) {
			w = strings.Trim(w, "-_")
			letters := 0
			for _, r := range w {
				if r >= 'a' && r <= 'z' {
					letters++
				}
			}
			if letters < 3 || broadProcNames[w] || systemProcesses[w] || broadProcNames[strings.TrimRight(w, "0123456789.")] {
				continue
			}
			for _, suf := range sharedSuffixes {
				if strings.HasSuffix(w, suf) && !devProcName(w) {
					return false // a server someone else may use, whatever else the pattern names
				}
			}
			if !devProcName(w) || jobLaunchers()[w] && !devCommandLine(p) {
				return false // a launcher alone (pkill -f artisan) reaches its workers too
			}
			return !sharedJob(p) // artisan queue:work: a worker, not the dev server
		}
	}
	return false
}

// sharedJob: a word of pattern p is one of sharedJobWords.
func sharedJob(p string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(p), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		if sharedJobWords[w] {
			return true
		}
	}
	return false
}

// specificKill: c is pkill, killall or skill ending processes by specific
// names only, for this user (not under sudo or on another host).
func specificKill(c *Cmd) bool {
	if c.Name != "pkill" && c.Name != "killall" && c.Name != "skill" || len(c.Pos) == 0 || c.Has("-u", "--user", "-U", "--uid") || len(c.Wrappers) > 0 {
		return false
	}
	for _, p := range c.Pos {
		if strings.Contains(p, "$") || !specificProcPattern(p) {
			return false
		}
	}
	return true
}

// ownUser: u names the user running the agent ($USER, $(whoami), or
// the owner of the home directory).
func ownUser(e *Env, u string) bool {
	switch u {
	case "$USER", "${USER}", "$LOGNAME", "$(whoami)", "$(id -un)", "`whoami`":
		return true
	}
	return u != "" && e.F.Home != "" && u == path.Base(e.F.Home)
}
