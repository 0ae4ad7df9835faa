package callfacts

import "strings"

// reloadOnly: the catalogue line r, of kind change, matched c through an
// action that only tells a server to reread its configuration — `asterisk
// -rx 'dialplan reload'`, `fs_cli -x reloadxml`, `kamcmd dispatcher.reload`,
// `fs_cli -x 'sofia profile internal rescan'`. Rereading the files the
// project holds changes no data and no setting of its own: not a change.
// An action that also restarts, stops, unloads, hangs up, kills, sets or
// deletes keeps the line's kind, as does a reload of a server elsewhere
// (reloadHere).
func reloadOnly(r *wordRule, c *Cmd) bool {
	if r == nil || r.kind != "change" || len(r.words) == 0 || !reloadHere(c) {
		return false
	}
	last := r.words[len(r.words)-1]
	reload := false
	n := 0
	for _, a := range c.Args {
		a = fold(a)
		if n >= len(r.words) || !wordIn(r.words[n], a) {
			continue
		}
		n++
		if n != len(r.words) || !wordIn(last, a) {
			continue
		}
		if strings.Contains(a, "/") {
			return false // a template that writes a file and runs a command (consul-template "in:/etc/x:systemctl reload x")
		}
		for _, w := range strings.FieldsFunc(a, func(r rune) bool { return r == ' ' || r == '.' || r == '_' || r == ':' || r == '/' || r == '-' }) {
			switch {
			case strings.HasPrefix(w, "reload") || w == "rescan" || w == "reread":
				reload = true
			case reloadStopWords[w] || strings.Contains(w, "kill") || strings.Contains(w, "restart") || strings.Contains(w, "stop") || strings.Contains(w, "delete"):
				return false
			}
		}
		return reload
	}
	return false
}

// reloadStopWords end, remove or set rather than reread.
var reloadStopWords = map[string]bool{"shutdown": true, "unload": true, "hangup": true, "del": true, "rm": true, "remove": true, "flush": true,
	"drop": true, "set": true, "reset": true, "purge": true, "halt": true, "abort": true, "cancel": true, "deltree": true, "fsctl": true,
	"load": true, "add": true, "sets": true, "seti": true, "now": true}

// issuesRead: the catalogue line r, of kind change, matched c through a
// verb that hands a remote console or shell a command (zowe zos-tso issue
// command …, zowe zos-uss issue ssh …, a console's -x), and that command
// is itself a read — a listing, a display, a status: `zowe zos-tso issue
// command "LISTCAT LEVEL(DEV1.X)"`, `zowe zos-uss issue ssh "ls -la
// /u/dev1/logs"`. One noun between the verb and the command (command,
// ssh, cmd) is skipped. A command with a chain, a redirection or a
// substitution, or of any other first word, keeps the line's kind.
func issuesRead(r *wordRule, c *Cmd) bool {
	if r == nil || r.kind != "change" || len(r.words) == 0 {
		return false
	}
	n, after := 0, -1
	for i, a := range c.Args {
		if n < len(r.words) && wordIn(r.words[n], fold(a)) {
			n++
			if n == len(r.words) {
				after = i + 1
				break
			}
		}
	}
	if after < 0 {
		return false
	}
	var rest []string
	for i := after; i < len(c.Args); i++ {
		a := c.Args[i]
		if strings.HasPrefix(a, "-") {
			continue // an option (its value, if any, stays a word of rest)
		}
		rest = append(rest, a)
	}
	if len(rest) > 1 && issueNouns[fold(rest[0])] {
		rest = rest[1:]
	}
	if len(rest) != 1 || strings.ContainsAny(rest[0], ";|&<>`$\n") {
		return false
	}
	words := strings.Fields(rest[0])
	if len(words) == 0 {
		return false
	}
	w := fold(words[0])
	if w == "find" && (strings.Contains(rest[0], "-delete") || strings.Contains(rest[0], "-exec")) {
		return false
	}
	return issuedReads[w] || destroyVerbs().reads[w]
}

// issueNouns name what a remote command is issued to, between the verb
// and the command.
var issueNouns = map[string]bool{"command": true, "cmd": true, "ssh": true, "shell": true, "console": true, "tso": true}

// issuedReads are first words of commands that only read: a shell's
// listings and a mainframe's TSO and console displays.
var issuedReads = map[string]bool{"ls": true, "cat": true, "head": true, "tail": true, "grep": true, "egrep": true, "find": true, "df": true,
	"du": true, "ps": true, "stat": true, "wc": true, "pwd": true, "whoami": true, "id": true, "uname": true, "date": true, "file": true,
	"listcat": true, "listc": true, "listds": true, "lista": true, "listalc": true, "listbc": true, "status": true, "st": true, "time": true,
	"d": true, "display": true, "show": true, "list": true}

// reloadHere: the server a reload reaches is on this machine — no remote
// shell or remote container host around it (ssh, kubectl exec, docker -H
// ssh://…, docker --context), and every server option (-s, -H, --host,
// --server, --url) names this machine. rndc -s ns2.acme.com reload and
// ssh pbx-prod-1 'asterisk -rx "dialplan reload"' reach someone's server.
func reloadHere(c *Cmd) bool {
	if InRemoteShell(c) {
		return false
	}
	for _, w := range c.Wrappers {
		if strings.Contains(w, "-H") || strings.Contains(w, "--host") || strings.Contains(w, "--context") || strings.Contains(w, "://") {
			return false
		}
	}
	for i, a := range c.Args {
		k, v, eq := strings.Cut(a, "=")
		switch k {
		case "-s", "-H", "-h", "--host", "--hostname", "--server", "--url", "--address", "--endpoint":
		default:
			continue
		}
		if !eq {
			if i+1 >= len(c.Args) {
				continue
			}
			v = c.Args[i+1]
		}
		if strings.ContainsAny(v, ".:") && !ThisMachine(v) {
			return false
		}
	}
	return true
}
