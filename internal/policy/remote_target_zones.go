package policy

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Remote targets. A copy whose destination is [user@]host:path (scp,
// rsync), or pod:/path (kubectl cp, oc cp), writes a file of ANOTHER
// machine: it is judged in that machine's zones, never in this one's
// (host:/tmp is not ./host:/tmp of the project; callfacts/remote_operand.go
// keeps it out of the local paths). On the other host:
//   - its temp (/tmp, /var/tmp, /dev/shm) and the login's own home
//     (relative paths, ~/…, /home/USER/…): a file handed over, allowed;
//   - its config files (a conf/, config/ or etc/ folder, *.conf, *.cfg,
//     *.ini, *.properties, config.*, .env) and the dot-files of its home
//     (~/.bashrc, ~/.ssh/authorized_keys): the service or the login reads
//     them at its next start: ask;
//   - a service's data or queue (/data, /var/lib, /var/opt, /var/spool,
//     …/data/, …/queue/): ask, denied when the host is named for
//     production (the data others rely on is replaced);
//   - its system files are remote-copy's (pack_staged_upload.go), its
//     service trees (/srv, /opt, /var/www) the deploy rules'.
// A host named for a lab, dev or test (callfacts.LabTarget, devName)
// belongs to the developer: left alone. Downloads (the remote operand is
// a source) change nothing there.

// remoteConfigDirs are folder names whose files a service reads as its
// configuration.
var remoteConfigDirs = map[string]bool{"conf": true, "config": true, "configs": true, "configuration": true, "etc": true, "conf.d": true, "cfg": true, "settings": true, "sites-enabled": true, "sites-available": true, "secrets": true}

// remoteConfigExts are file name endings of configuration files.
var remoteConfigExts = map[string]bool{".conf": true, ".cfg": true, ".cnf": true, ".ini": true, ".properties": true, ".env": true, ".rc": true}

// remoteDataDirs are folder names of a service's data or work queue.
var remoteDataDirs = map[string]bool{"data": true, "db": true, "database": true, "spool": true, "queue": true, "queues": true, "datastore": true}

// remoteZone names the zone of p on the other host ("temp", "home",
// "home config", "config", "data") and whether p names a file (not a
// folder the copy lands in); "" for a zone other rules judge.
func remoteZone(p string) (zone string, file bool) {
	l := strings.ToLower(strings.TrimSpace(p))
	file = l != "" && !strings.HasSuffix(l, "/") && strings.Contains(path.Base(l), ".") && !strings.HasPrefix(path.Base(l), ".") || strings.HasPrefix(path.Base(l), ".env")
	switch {
	case l == "" || l == "." || l == "~" || l == "~/":
		return "home", false
	case l == "/tmp" || strings.HasPrefix(l, "/tmp/") || strings.HasPrefix(l, "/var/tmp") || strings.HasPrefix(l, "/dev/shm"):
		return "temp", file
	}
	home := !strings.HasPrefix(l, "/") || strings.HasPrefix(l, "/home/") || strings.HasPrefix(l, "/users/")
	rel := strings.TrimPrefix(strings.TrimPrefix(l, "~"), "/")
	if strings.HasPrefix(l, "/home/") || strings.HasPrefix(l, "/users/") {
		_, rel, _ = strings.Cut(strings.TrimPrefix(strings.TrimPrefix(l, "/home/"), "/users/"), "/")
	}
	if home {
		if strings.HasPrefix(rel, ".") && !strings.HasPrefix(rel, "./") && !strings.HasPrefix(rel, "../") {
			first, _, _ := strings.Cut(rel, "/")
			if first != ".cache" && first != ".local" && first != ".tmp" {
				return "home config", true
			}
		}
		return "home", file
	}
	segs := strings.Split(strings.Trim(l, "/"), "/")
	base := path.Base(l)
	for i, s := range segs {
		last := i == len(segs)-1 && file
		if !last && remoteConfigDirs[s] {
			return "config", file
		}
		if !last && (remoteDataDirs[s] || i == 1 && segs[0] == "var" && (s == "lib" || s == "opt" || s == "spool")) {
			return "data", file
		}
	}
	if file && (remoteConfigExts[path.Ext(base)] || strings.HasPrefix(base, "config.") || strings.HasPrefix(base, "settings.") || strings.HasPrefix(base, ".env")) {
		return "config", true
	}
	return "", file
}

// remoteCopyTarget: the login and path of the other host c writes, by a
// copy whose destination is there; ok false when c writes nothing there.
func remoteCopyTarget(e *Env, c *Cmd) (login, p string, ok bool) {
	if e.dryRun(c) || onlyHelp(c) {
		return "", "", false
	}
	switch c.Name {
	case "scp", "rsync":
		_, dst, ok := copyEnds(c)
		if !ok || strings.Contains(dst, "://") {
			return "", "", false
		}
		return callfacts.RemoteOperand(dst)
	case "kubectl", "oc":
		if c.Sub(0) != "cp" || len(c.Pos) < 3 {
			return "", "", false
		}
		dst := c.Pos[len(c.Pos)-1]
		pod, p, found := strings.Cut(dst, ":")
		if !found || pod == "" || strings.ContainsRune(dst, '\\') || strings.HasPrefix(dst, ".") || strings.HasPrefix(dst, "/") || strings.HasPrefix(dst, "~") {
			return "", "", false
		}
		return pod, p, true
	}
	return "", "", false
}

// remoteTargetHost is the host name of a login (user@host → host).
func remoteTargetHost(login string) string {
	h := login
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	return strings.Trim(strings.ToLower(h), "[]")
}

// remoteTargetWhy says how c changes the other host, with the mode it
// earns (Deny for a production host's data); "" when it does not.
func remoteTargetWhy(e *Env, c *Cmd) (Mode, string) {
	login, p, ok := remoteCopyTarget(e, c)
	if !ok {
		return Off, ""
	}
	h := remoteTargetHost(login)
	if c.Name == "kubectl" || c.Name == "oc" {
		h = strings.TrimPrefix(h, "pod/")
		ns := cmp.Or(typedValue(c, "-n"), typedValue(c, "--namespace"))
		if before, _, ok := strings.Cut(h, "/"); ok {
			ns = before // kubectl cp f dev/api-0:/app/x: NAMESPACE/POD
		}
		if ns != "" && devNamespace(ns) {
			return Off, ""
		}
	}
	if callfacts.LabTarget(h, nil) || devName(strings.TrimSuffix(h, ".local")) {
		return Off, ""
	}
	zone, file := remoteZone(p)
	if zone == "home" && !file {
		// rsync .vimrc .tmux.conf dev@box:/home/dev/: dot-files copied
		// into the login's home replace its own
		srcs, _, _ := copyEnds(c)
		if c.Name == "kubectl" || c.Name == "oc" {
			srcs = nil
		}
		for _, s := range srcs {
			if b := path.Base(s); strings.HasPrefix(b, ".") && b != "." && b != ".." && homeItself(p) {
				zone, file = "home config", true
				p = strings.TrimSuffix(p, "/") + "/" + b
			}
		}
	}
	verb := "write"
	if file {
		verb = "overwrite"
	}
	short, _, _ := strings.Cut(h, ".")
	if ipHost(h) {
		short = h
	}
	switch zone {
	case "config", "home config":
		return Ask, c.Name + ": " + verb + " · " + zone + " on " + short + " (" + p + "): the service or login there reads it at its next start: " + c.String()
	case "data":
		if prodWord.MatchString(h) {
			return Deny, c.Name + " " + verb + " · data on " + short + ", a production host (" + p + "): the data others rely on is replaced: " + c.String()
		}
		return Ask, c.Name + " " + verb + " · a service's data on " + short + " (" + p + "): " + c.String()
	}
	return Off, ""
}

func remoteTargetRules() []Rule {
	names := []string{"scp", "rsync", "kubectl", "oc"}
	pick := func(m Mode) func(e *Env, c *Cmd) string {
		return func(e *Env, c *Cmd) string {
			got, why := remoteTargetWhy(e, c)
			if got != m {
				return ""
			}
			return why
		}
	}
	return []Rule{
		cmdRule("external.systems:remote-target-prod-data", Deny, "A copy to a host named for production (scp, rsync, kubectl cp) that replaces its data or a service's queue (/data, /var/lib, …/data/): what others rely on there is overwritten", names,
			pick(Deny),
			[]string{"scp dump.rdb ops@cache-prod-02:/data/redis/dump.rdb", "rsync -av ./fixtures/ app@db-prod1.acme.net:/srv/app/data/", "kubectl cp seed.db prod-api-7f9c:/var/lib/app/app.db -n prod"},
			[]string{"scp ops@cache-prod-02:/data/redis/dump.rdb ./", "scp dump.rdb ops@cache-prod-02:/tmp/", "rsync -av --dry-run ./fixtures/ app@db-prod1.acme.net:/srv/app/data/"}),
		cmdRule("external.systems:remote-target", Ask, "A copy to another host (scp, rsync, kubectl cp) that replaces its configuration (a conf/, config/ or etc/ folder, *.conf, *.ini, *.properties, .env, the login's dot-files) or a service's data or queue (/data, /var/lib, /var/opt, /var/spool): judged in that host's zones, not this machine's; its /tmp and the login's home take files freely, and a lab, dev or test host is the developer's", names,
			pick(Ask),
			[]string{"scp haproxy.cfg lb@edge-lb2:/opt/haproxy/haproxy.cfg", "scp config/app.ini deploy@app3.acme.net:/opt/app/conf/app.ini", "rsync -av conf/ svc@worker-4:/srv/worker/config/", "scp .bashrc ops@jump1:~/.bashrc",
				"scp job.gcode printer@octopi:/var/spool/jobs/", "kubectl cp ./settings.yaml api-6d8f9:/app/config/settings.yaml", "scp authorized_keys root@10.0.4.12:.ssh/authorized_keys"},
			[]string{"scp build.tar host:/tmp/", "scp report.pdf ana@fileserver:reports/", "scp lb@edge-lb2:/opt/haproxy/haproxy.cfg ./", "rsync -av ./dist/ web1:/var/www/html/",
				"scp haproxy.cfg lb@edge-lb-dev:/opt/haproxy/haproxy.cfg", "kubectl cp api-6d8f9:/app/config/settings.yaml ./settings.yaml", "scp notes.txt me@box:~/notes.txt", "rsync -n -av conf/ svc@worker-4:/srv/worker/config/"}),
	}
}

// remoteOutSaved: c runs on another host through a remote shell whose
// standard output this line saves to a file (ssh sw1 'show run' >
// configs/sw1.cfg): what c prints lands in that file, not in the
// conversation. A tee or a pipe still prints it.
func remoteOutSaved(e *Env, c *Cmd) bool {
	if len(c.Wrappers) == 0 || !remotePayload(c) {
		return false
	}
	w := c.Wrappers[0]
	for _, r := range e.F.Redirects {
		if r.Cmd == w && (r.Op == ">" || r.Op == ">>" || r.Op == ">|" || r.Op == "&>") && r.Target != "/dev/null" && r.Target != "/dev/stdout" && r.Target != "/dev/stderr" && !strings.HasPrefix(r.Target, "&") {
			return true
		}
	}
	return false
}

// rootShellShownReads: sudo (doas) runs a shell on another host that
// reads its commands from this line's text (printf 'doveconf -n\n
// doveadm service status imap\n' | ssh imap1 sudo sh), and every command
// of that text only reads: the text is visible and changes nothing, as
// ssh imap1 'sudo doveconf -n' would not. A script file, a variable or
// any command that is not a plain read keeps the ask.
func rootShellShownReads(e *Env, c *Cmd) bool {
	if c.Name != "sudo" && c.Name != "doas" || !remotePayload(c) {
		return false
	}
	in := innerCmd(e, c)
	if in == nil || !callfacts.IsShell(in.Name) || in.Payload != "" || len(in.Pos) > 0 && in.Pos[0] != "-" && in.Pos[0] != "-s" {
		return false
	}
	ssh := c.Wrappers[0]
	shown := 0
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d == c || d == in || d.Depth != c.Depth || len(d.Wrappers) == 0 || d.Wrappers[0] != ssh || slices.Contains(d.Wrappers, c.Name) {
			continue
		}
		if d.Effect != callfacts.EffectNone || callfacts.IsShell(d.Name) || callfacts.IsInterpreter(d.Name) || d.Payload != "" {
			return false
		}
		if !(shownReadTools[d.Name] || confPrinter(d) || d.OnlyReports() || d.ListsOnly() || onlyHelp(d) || readProgram(d.Name) && !reportActs(d) || consoleLooks(d) || len(d.Pos) > 0 && callfacts.ReadWord(strings.ToLower(d.Pos[0]))) {
			return false
		}
		shown++
	}
	for _, r := range e.F.Redirects {
		if r.Cmd != "" && r.Cmd != ssh && r.Cmd != c.Name && r.Cmd != in.Name && r.Op != "<" && r.Op != "<<" && r.Op != "<<<" && r.Target != "/dev/null" {
			return false // the text writes a file there
		}
	}
	return shown > 0
}

// shownReadTools print and filter text or the host's state and change
// nothing, whatever their arguments (a redirect is judged apart).
var shownReadTools = map[string]bool{"cat": true, "head": true, "tail": true, "grep": true, "egrep": true, "zgrep": true, "wc": true, "ls": true, "df": true, "du": true,
	"ps": true, "uptime": true, "free": true, "uname": true, "id": true, "whoami": true, "hostname": true, "date": true, "stat": true, "ss": true, "netstat": true,
	"echo": true, "printf": true, "sort": true, "uniq": true, "cut": true, "awk": true, "column": true, "lsblk": true, "findmnt": true, "w": true, "who": true, "last": true, "lscpu": true, "nproc": true, "mailq": true}

// confPrinter: a daemon's configuration printer (doveconf -n, postconf
// -n, dovecot's and postfix's own dumps) given no setting to write: no
// name=value and no edit flag (postconf -e, -X, -#).
func confPrinter(d *Cmd) bool {
	if !strings.HasSuffix(d.Name, "conf") || len(d.Name) < 6 || d.Has("-e", "-X", "-#", "-M", "-F", "-P") {
		return false
	}
	for _, a := range d.Args {
		if strings.Contains(a, "=") {
			return false
		}
	}
	return true
}

// homeItself: p names the login's home folder itself on the other host
// ("", ~, /home/USER/).
func homeItself(p string) bool {
	switch p = strings.TrimSuffix(p, "/"); {
	case p == "" || p == "." || p == "~":
		return true
	case strings.HasPrefix(p, "/home/"):
		return !strings.Contains(p[len("/home/"):], "/")
	}
	return false
}

// prodHostDataDeleteRule: a file of a production host's data deleted
// through a remote shell there (ssh kdb@tp-prod01 'rm
// /data/tplog/sym2024.06.12', ssh db-prod-2 'unlink /var/lib/app/x.db'):
// in that host's zones it is the data others rely on, gone for good, as
// a copy over it would be (remote-target-prod-data). Its /tmp, the
// login's home and caches stay with prod-host-change's ask.
func prodHostDataDeleteRule() Rule {
	return Rule{
		ID: "external.systems:prod-host-data-delete", Mode: Deny, Tools: shellTools, Cmds: []string{"ssh", "autossh", "mosh"},
		Desc: "A file of a production host's data (/data, /var/lib, a service's …/data/ or queue) deleted through ssh on that host: what others rely on is gone for good",
		Match: func(e *Env) string {
			for host, c := range e.prodHostRuns() {
				if c.Effect != callfacts.EffectDelete || onlyHelp(c) || c.DryRun() {
					continue
				}
				for _, p := range e.F.Paths {
					if p.Op != callfacts.OpDelete || p.Via != c.Name || p.Elsewhere == "" {
						continue
					}
					if z, _ := remoteZone(p.Elsewhere); z == "data" {
						return c.Name + ": delete · data on " + host + ", a production host (" + p.Elsewhere + "): " + c.String()
					}
				}
			}
			return ""
		},
		Catch: []string{"ssh kdb@kdb-tp-prod01 'rm /data/tplog/sym2024.06.12'", "ssh db-prod-2 'unlink /var/lib/app/cache.db'", "ssh ops@queue-prod 'rm /srv/jobs/queue/job-4471.json'"},
		Allow: []string{"ssh kdb@kdb-tp-prod01 'ls -l /data/tplog/'", "ssh kdb@kdb-tp-dev01 'rm /data/tplog/sym2024.06.12'", "ssh web-prod-01 'rm /tmp/build.log'", "ssh web-prod-01 'rm ~/notes.txt'"},
	}
}
