package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Reads run with privilege or as another account. `su - USER -c CMD`
// reads like `sudo -u USER CMD`: a service account (qasadm, hxeadm,
// postgres, oracle) running one command with its arguments, which that
// command's own rules judge; root, an unknown user, a shell or an
// interpreter as the command still ask. Under sudo, a subcommand that
// only lists or shows (verbs.txt reads: list, status, info, show…, and
// certificates) reads privileged state and changes nothing.

// suAsService: c is su running one command (-c) as a named account
// that is not root.
func suAsService(e *Env, c *Cmd) bool {
	if c.Name != "su" || c.Payload == "" {
		return false
	}
	user := ""
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "-c" || a == "--command" || a == "-s" || a == "--shell" || a == "-g" || a == "--group":
			i++
		case a == "-" || strings.HasPrefix(a, "-"):
		default:
			if user == "" {
				user = a
			}
		}
	}
	if user == "" || user == "root" || !accountName.MatchString(user) {
		return false
	}
	in := innerCmd(e, c)
	if in != nil && callfacts.IsInterpreter(in.Name) {
		if cmd, _, _ := appConsoleCmd(e, in); cmd != "" {
			return true // su www-data -s /bin/sh -c 'php bin/console …': the app console's own rules judge it (appconsoles.txt)
		}
	}
	if in == nil || callfacts.IsShell(in.Name) || callfacts.IsInterpreter(in.Name) || in.Name == "su" || in.Name == "sudo" {
		return false
	}
	// hdbnsutil -sr_unregister, db2 drop database: a change or destroy
	// word among its arguments, known to no rule, still asks
	for _, a := range in.Args {
		for _, w := range strings.FieldsFunc(strings.ToLower(a), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
			if callfacts.DestroyOrChangeWord(w) {
				return false
			}
		}
	}
	return true
}

// checkRunners run a project's targets: their "check" is code the project
// wrote, not a daemon's configuration check.
var checkRunners = map[string]bool{"just": true, "task": true, "npm": true, "yarn": true, "pnpm": true, "bun": true, "tox": true, "nox": true,
	"rake": true, "invoke": true, "mage": true, "ninja": true, "bazel": true, "gradle": true, "mvn": true, "sbt": true, "mix": true, "composer": true}

var accountName = re(`^[a-z_][a-z0-9_.-]{0,31}$`)

// rootReadVerb: what sudo runs is a program's listing or showing
// subcommand (sudo certbot certificates, sudo wg show, sudo
// rabbitmqctl list_queues), its arguments plain words.
func rootReadVerb(e *Env, c *Cmd) bool {
	if c.Name != "sudo" && c.Name != "doas" {
		return false
	}
	in := innerCmd(e, c)
	if in != nil && !callfacts.IsShell(in.Name) && !callfacts.IsInterpreter(in.Name) && in.Payload == "" && printsConfigOnly(in) {
		return true // sudo puppet agent --configprint server: the setting printed, nothing run
	}
	if in == nil || callfacts.IsShell(in.Name) || callfacts.IsInterpreter(in.Name) || in.Payload != "" || in.Effect != callfacts.EffectNone {
		return false
	}
	if consoleLooks(in) {
		return true // sudo asterisk -rx 'core show channels', sudo kamctl ul show: a console's read command
	}
	if readProgram(in.Name) && !reportActs(in) {
		return true // ldapsearch, ldbsearch, rabbitmq-diagnostics, pg_controldata: named for what they print
	}
	if in.AdminReads() {
		return true // sudo etcdctl endpoint health, sudo samba-tool drs showrepl: the admin table's read lines (admin.txt, identity.txt)
	}
	if dottedReadOp(in) {
		return true // sudo salt-run manage.status, sudo salt '*' jobs.list_jobs: a module's function that reads
	}
	if len(in.Pos) == 0 {
		return false
	}
	v := strings.ToLower(in.Pos[0])
	if strings.ContainsAny(v, "/.=$") {
		return false // a path or a value: cat /etc/shadow is not a verb
	}
	if callfacts.ReadWord(v) || v == "certificates" || v == "version" {
		return true
	}
	if v == "stat" && len(in.Pos) == 1 && len(in.Args) == 1 {
		return true // sudo rspamc stat: the daemon's counters, nothing after (perf stat CMD runs CMD)
	}
	if (v == "members" || v == "peers") && len(in.Pos) == 1 {
		return true // sudo consul members -detailed: a cluster's member list, nothing done to a member
	}
	if v == "check" && len(in.Args) == 1 && !buildCmds[in.Name] && !checkRunners[in.Name] {
		// sudo postfix check, sudo fail2ban-client check: a daemon's own
		// check of its configuration and files, nothing after it; a
		// runner's check target (make check) runs the project's code
		//
		return true
	}
	// list_queues, list-units, show-config: a read word joined to its noun
	w, _, _ := strings.Cut(strings.ReplaceAll(v, "_", "-"), "-")
	if w != v && callfacts.ReadWord(w) {
		return true
	}
	if nounThenRead(in) {
		return true // sudo kamctl ul show, sudo net ads testjoin, sudo saptune solution verify: a noun, then the verb that reads it
	}
	// configcheck, configtest, healthcheck: a check joined after its noun
	// (datadog-agent configcheck, apachectl configtest)
	return len(v) > 5 && (strings.HasSuffix(v, "check") || strings.HasSuffix(v, "test")) && !strings.Contains(v, "-")
}

// dottedReadOp: c's first or second word (after a target: salt '*'
// test.version) is a module's function named module.function whose
// function reads (manage.status, jobs.list_jobs, grains.items is not:
// items is no read word), every part plain lowercase, and no word after
// it changes or destroys anything.
func dottedReadOp(c *Cmd) bool {
	for i, p := range c.Pos {
		if i > 1 {
			return false
		}
		n := strings.Count(p, ".")
		if n < 1 || n > 2 || optionBefore(c.Args, p) {
			continue
		}
		parts := strings.Split(p, ".")
		ok := true
		for _, q := range parts {
			if q == "" || strings.Trim(q, "abcdefghijklmnopqrstuvwxyz_") != "" {
				ok = false
			}
		}
		if !ok {
			continue
		}
		fn := parts[len(parts)-1]
		head, _, _ := strings.Cut(fn, "_")
		if !callfacts.ReadWord(fn) && !callfacts.CompoundReadVerb(fn) && !(head != fn && callfacts.ReadWord(head)) {
			return false
		}
		for _, w := range strings.FieldsFunc(fn, func(r rune) bool { return r == '_' }) {
			if callfacts.DestroyOrChangeWord(w) {
				return false
			}
		}
		for _, q := range c.Pos[i+1:] {
			if callfacts.DestroyOrChangeWord(q) {
				return false
			}
		}
		return true
	}
	return false
}

// readProgram: a program whose name says it prints what it finds — a
// search, a listing, a status, a diagnosis (ldapsearch, ldbsearch,
// rabbitmq-diagnostics, mysqlshow, pg_controldata, zfs-list): as root it
// still only reads.
func readProgram(name string) bool {
	n := strings.ToLower(name)
	for _, suf := range []string{"search", "diagnostics", "show", "status", "info", "controldata", "query", "stat", "grep"} {
		if strings.HasSuffix(n, suf) && len(n) > len(suf) {
			return true
		}
	}
	return false
}

// gitOnlyIndexes: every git command of the line only changes or asks
// what is tracked (rm, rm --cached, check-ignore, ls-files,
// update-index): none prints a file's content. Untracking a secret
// (git rm --cached .env && echo .env >> .gitignore) is good practice.
func gitOnlyIndexes(e *Env) bool {
	n := 0
	for _, c := range e.F.Cmds("git") {
		switch sub(c) {
		case "rm", "check-ignore", "ls-files", "update-index":
			n++
		default:
			return false
		}
	}
	return n > 0
}

// awsReadOp: an AWS CLI operation that only reads or evaluates
// (describe-*, get-*, list-*, simulate-*, validate-*, estimate-*,
// test-*): a delete among its values (--action-names s3:DeleteObject)
// is what it reports on, not what it does.
func awsReadOp(c *Cmd) bool {
	if c.Name != "aws" || len(c.Pos) < 2 {
		return false
	}
	op := strings.ToLower(c.Pos[1])
	for _, p := range []string{"describe-", "get-", "list-", "simulate-", "validate-", "estimate-", "test-", "lookup-", "search-", "preview-"} {
		if strings.HasPrefix(op, p) {
			return true
		}
	}
	return false
}

// consoleLooks: c is a named console (consoles.txt) handed command text
// whose every statement is a look: a read word as its first or second
// word (core show channels, ul show, sofia status), and no stop, destroy
// or change word anywhere in it.
func consoleLooks(c *Cmd) bool {
	text, named := consolePayload(c)
	if !named || strings.TrimSpace(text) == "" {
		return false
	}
	if k, _ := consoleVerb(text, true); k != "" {
		return false
	}
	t := consoles()
	n := 0
	for _, st := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' || r == '\r' || r == '|' }) {
		words := strings.Fields(strings.ToLower(st))
		if len(words) == 0 {
			continue
		}
		look := false
		for i, w := range words {
			if i > 1 {
				break
			}
			if t.reads[w] || dottedRead(t, w) {
				look = true
				break
			}
		}
		if !look {
			return false
		}
		n++
	}
	return n > 0
}

// nounThenRead: c's first word is a plain noun (no path, value or change
// word) and its second a read word (ul show, ads info, domain info) or a
// test of what the noun names (ads testjoin, config check), and no later
// word changes or destroys anything.
func nounThenRead(c *Cmd) bool {
	if len(c.Pos) < 2 {
		return false
	}
	n, v := strings.ToLower(c.Pos[0]), strings.ToLower(c.Pos[1])
	// a change word as the group, its read verb after (r10k deploy
	// display, helm release list): the group's state is read; a destroy
	// word as the group is not a noun
	groupVerb := callfacts.DestroyOrChangeWord(n) && !opsList("destroy-verb")[n] && callfacts.ReadWord(v) && len(c.Pos) == 2
	if n == "" || strings.ContainsAny(n, "/.=$:@") || callfacts.DestroyOrChangeWord(n) && !groupVerb || callfacts.ReadWord(n) {
		return false
	}
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r == '-' || r == '_' || r >= '0' && r <= '9') {
			return false
		}
	}
	if opsList("snapshot-noun")[v] && len(c.Pos) > 2 {
		for _, p := range c.Pos[2:] {
			if w := strings.ToLower(p); w == "restore" || w == "import" || w == "load" || callfacts.DestroyOrChangeWord(w) {
				return false
			}
		}
		return true // sudo samba-tool domain backup offline --targetdir=…: a copy taken, nothing changed
	}
	if !callfacts.ReadWord(v) && !joinedReadWord(v) && v != "verify" && !(len(v) > 4 && (strings.HasPrefix(v, "test") || strings.HasPrefix(v, "check") && v != "checkout") && !strings.Contains(v, "-")) {
		return false
	}
	for _, p := range c.Pos[2:] {
		if callfacts.DestroyOrChangeWord(p) || opsList("destroy-verb")[strings.ToLower(p)] {
			return false
		}
	}
	return true
}

// printsConfigOnly: c is asked to print its configuration and exit
// (puppet agent --configprint server, a daemon's --print-config).
func printsConfigOnly(c *Cmd) bool {
	for _, a := range c.Args {
		k, _, _ := strings.Cut(a, "=")
		switch k {
		case "--configprint", "--print-config", "--show-config", "--dump-config", "--print-defaults", "--print-config-file":
			return len(c.Pos) <= 2
		}
	}
	return false
}
