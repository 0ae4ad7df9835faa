package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Destroying production through a program no table knows. The unknown
// program readings (unknown-destroy, prod-destroy-unknown) take a
// destroy verb among a CLI's first words; they miss the words that
// destroy only on a shared service — a service killed (pinto kill
// production), a store cleared (cache_clear, CLRLIB), an account's
// balance set to zero — and the places a destroy hides: a script named
// for it (./bitwarden.sh uninstall, teardown.sh prod) run on a
// production host through ssh, a console fed its command by a
// here-document (ftp ibmiprod01 <<EOF quote rcmd CLRLIB …). When such a
// verb meets a target marked production (a host, a URL or server option,
// a cluster, a library or an operand named prod, production, prd) the
// command is denied; on an unmarked target the other readings ask.
// Reads (status, list, get, show, logs), dry runs, --help and dev,
// test or staging targets stay as they were.

// prodKillWords: the destroy verbs beyond verbs.txt that say a shared
// thing is ended or emptied when production is their target; alone they
// are too common (kill a local process, clear a terminal).
var prodKillWords = map[string]bool{"kill": true, "clear": true, "flushall": true, "flushdb": true, "zap": true, "shred": true}

// prodDestroyWords: the verbs that end or empty the thing they name,
// whatever it is; a removal of one entry (acl-del, rm, unset, remove,
// deregister) is a change to a shared setting the other readings ask for.
var prodDestroyWords = map[string]bool{"delete": true, "destroy": true, "purge": true, "wipe": true, "truncate": true, "terminate": true, "flush": true, "reset": true, "uninstall": true, "teardown": true, "decommission": true, "nuke": true, "obliterate": true, "expunge": true, "erase": true, "drop": true, "deprovision": true, "unprovision": true, "undeploy": true}

// rebuiltNouns: what a clear, kill, flush or reset takes away only for
// the moment — a cache or search index rebuilt from the data (cache:clear,
// search-index clear), a running job, query, session or process stopped
// (job::kill, vm process kill): the other readings ask for those.
var rebuiltNouns = map[string]bool{"cache": true, "caches": true, "index": true, "indexes": true, "screen": true, "job": true, "jobs": true, "run": true, "query": true, "queries": true, "session": true, "process": true, "task": true, "tasks": true, "worker": true, "workers": true, "pod": true, "pods": true, "container": true, "thread": true, "connection": true, "connections": true, "build": true, "offsets": true, "offset": true}

// scriptDestroyWords: the words of a script's name that say it removes
// what it set up (teardown.sh, uninstall.sh, wipe-db.sh); a reset or
// clean script's name says too little (kafka-streams-application-reset.sh
// rewinds offsets).
var scriptDestroyWords = map[string]bool{"teardown": true, "uninstall": true, "purge": true, "wipe": true, "destroy": true, "nuke": true, "erase": true, "decommission": true, "deprovision": true, "delete": true, "drop": true, "truncate": true, "obliterate": true, "expunge": true}

// zeroAssign: an operand that sets a balance, quota or value to zero
// (Value=0, balance=0): with a set verb it takes away what was there.
var zeroAssign = re(`(?i)^[a-z_]*(value|balance|amount|quota|limit|credit|credits|qty|quantity|stock|count)="?0(\.0+)?"?$`)

// prodDestroyWord is the destroy verb c says among its first words, its
// console's quoted command or its script's name, "" for none or when a
// read word comes first (pinto list production, mytool status prod).
func prodDestroyWord(c *Cmd) string {
	reads := callfacts.ReadWordSet()
	rv := opsList("read-verb")
	v, set, soft := "", false, false
	n := 0
	for _, p := range c.VerbWords() {
		if p == "--" {
			break
		}
		if callfacts.OptionValueOf(c.Args, p) {
			continue // --root https://pinto.prod…: the option's value
		}
		if strings.Contains(p, "=") {
			if set && zeroAssign.MatchString(p) {
				return "set to zero"
			}
			continue // Tenant="x": a console's key=value, no word of its act
		}
		if n++; n > 4 {
			break
		}
		if w := callfacts.CLDestroy(strings.Fields(p + " x")[0]); w != "" && strings.ToUpper(p) == p {
			return w // CLRLIB LIB(ORDLIB), DLTF
		}
		if strings.ContainsAny(p, "/@.$`(") {
			continue // a path, an address, a library operand
		}
		if callfacts.CheckPhrase(p) {
			return "" // can-delete, delete-check: it asks whether
		}
		ws := strings.FieldsFunc(strings.ToLower(p), func(r rune) bool { return r == '-' || r == '_' || r == ':' })
		if cp := callfacts.CamelParts(p); cp != nil {
			ws = cp
		}
		for j, w := range ws {
			w = strings.ToLower(w)
			switch {
			case v == "" && (reads[w] || rv[w]) && (n == 1 || j > 0):
				return "" // status, cache_stats, list: it reads
			case prodDestroyWords[w] || prodKillWords[w]:
				if v == "" {
					v = w
				}
			case rebuiltNouns[w]:
				soft = true
			case w == "set":
				set = true
			}
		}
	}
	if v != "" && !(soft && (v == "clear" || v == "kill" || v == "flush" || v == "reset")) {
		return v
	}
	name := c.Name
	if shellRunner[c.Name] && len(c.Pos) > 0 && strings.HasSuffix(c.Pos[0], ".sh") {
		name = c.Pos[0][strings.LastIndexByte(c.Pos[0], '/')+1:] // bash ./infra/wipe_cluster.sh prod
	}
	if scriptByName(&Cmd{Name: name}) {
		base := strings.ToLower(name)
		if i := strings.LastIndexByte(base, '.'); i > 0 {
			base = base[:i]
		}
		for _, w := range strings.FieldsFunc(base, func(r rune) bool { return r == '-' || r == '_' }) {
			if scriptDestroyWords[w] {
				return w // teardown.sh prod, wipe-db.sh production
			}
		}
	}
	return ""
}

// shellRunner: the shells that run a script named as their operand.
var shellRunner = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true}

// scriptByName: c is a script run by its file name (./teardown.sh,
// bitwarden.sh), whose name says what it does.
func scriptByName(c *Cmd) bool {
	for _, x := range []string{".sh", ".bash", ".py", ".rb", ".pl", ".ps1"} {
		if strings.HasSuffix(c.Name, x) {
			return true
		}
	}
	return false
}

// heredocDestroy is the destroy a console is fed by the line's
// here-document (ftp host <<EOF quote rcmd CLRLIB …, delete f, mdelete
// *): its lines' first words, past the words that only pass a command
// on to the server (quote, literal, site, rcmd), "" for none.
func heredocDestroy(c *Cmd) string {
	if c.Heredoc == "" {
		return ""
	}
	destroy := callfacts.DestroyWordSet()
	for _, line := range strings.Split(c.Heredoc, "\n") {
		f := strings.Fields(line)
		for len(f) > 0 && (strings.EqualFold(f[0], "quote") || strings.EqualFold(f[0], "literal") || strings.EqualFold(f[0], "site") || strings.EqualFold(f[0], "rcmd")) {
			f = f[1:]
		}
		if len(f) == 0 {
			continue
		}
		if w := callfacts.CLDestroy(f[0]); w != "" && strings.ToUpper(f[0]) == f[0] {
			return w + " (" + f[0] + ")"
		}
		if l := strings.ToLower(f[0]); destroy[l] || l == "mdelete" || l == "rmdir" {
			return l
		}
	}
	return ""
}

// prodHostLabel: a host operand whose label ends in prod and a number
// (ibmiprod01, erpprd2): the host is named for production even joined.
var prodHostLabel = re(`(?i)^([a-z0-9-]*@)?[a-z0-9-]*[a-z](prod|prd)\d*(\.[a-z0-9.-]+)?(:\d+)?$`)

// heredocConsoles: programs that are shells, interpreters or SQL clients
// have their own readers of what they are fed.
func heredocConsole(c *Cmd) bool {
	n := c.Name
	for _, p := range []string{"sh", "bash", "zsh", "dash", "ksh", "python", "node", "ruby", "perl", "php", "pwsh", "ssh", "cat", "tee", "jq", "awk", "sed"} {
		if n == p || strings.HasPrefix(n, p) && strings.Trim(n[len(p):], "0123456789.") == "" {
			return false
		}
	}
	return !netSQLClientSet()[n]
}

// prodDestroyVerbHit judges the line: the command, its destroy and the
// production marker, "" for none.
func prodDestroyVerbHit(e *Env) string {
	ssh := ""
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if onlyHelp(c) || c.Has("--help", "-h") || e.dryRun(c) || c.Has("--check", "--noop", "--what-if", "--whatif", "--plan") {
			continue
		}
		remote := runsOverSSH(c, sshOutermost)
		v := ""
		if scriptByName(c) || shellRunner[c.Name] && c.Depth == 0 || unknownProgram(c) && !remote {
			// a program run on a production host through ssh is judged by
			// what the host rules know of it (nodetool decommission asks);
			// a script there by the words it is given (./bitwarden.sh uninstall)
			v = prodDestroyWord(c)
		}
		fed := false
		if v == "" && heredocConsole(c) {
			v, fed = heredocDestroy(c), true
		}
		if v == "" {
			continue
		}
		m := prodOptAny(c)
		if m == "" {
			m = prodNamedAny(c)
		}
		if m == "" && fed {
			for _, p := range c.Pos[:min(1, len(c.Pos))] {
				if prodHostLabel.MatchString(p) && !strings.Contains(strings.ToLower(p), "nonprod") && !strings.Contains(strings.ToLower(p), "preprod") {
					m = p // ftp ibmiprod01
				}
			}
		}
		if m == "" && remote {
			if ssh == "" {
				ssh = prodSSHHost(e)
			}
			m = ssh
		}
		if m == "" {
			m = prodConnEnv(e)
		}
		if m == "" || e.localOnly(i) {
			continue
		}
		return c.Name + " " + v + " on production (" + m + "): " + short80(c.String())
	}
	return ""
}

func prodDestroyVerbRule() Rule {
	return Rule{
		ID: "external.systems:prod-destroy-verb", Mode: Deny, Tools: shellTools,
		On:   On(0).OrText("prod", "Prod", "PROD", "prd", "PRD", "mainnet", "live"),
		Desc: "A destroy verb (kill, uninstall, teardown, purge, wipe, clear, delete, a balance set to zero) of a program, script or console no table knows, aimed at production: a host, URL, server option, cluster or operand named prod, production or prd, or a production host reached by ssh; reads, dry runs, --help and dev or staging targets stay allowed",
		Match: func(e *Env) string {
			if !mayNameProd(e.F.Command) && !strings.Contains(e.F.Command, "mainnet") && !strings.Contains(e.F.Command, "live") {
				return ""
			}
			return prodDestroyVerbHit(e)
		},
		Catch: []string{"pinto --root https://pinto.prod.acme-corp.com kill production", "ssh admin@bw-prod-01 './bitwarden.sh uninstall'", "ftp ibmiprod01 <<'EOF'\nquote rcmd CLRLIB LIB(ORDLIB)\nquit\nEOF"},
		Allow: []string{"pinto --root https://pinto.prod.acme-corp.com list", "ssh admin@bw-prod-01 './bitwarden.sh status'", "pinto --root https://pinto.dev.acme-corp.com kill dev"},
	}
}
