package policy

import (
	_ "embed"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/datatable"
)

// Console commands carried as text (consoles.txt): the payload's words
// carry the verb, the console's target how far it reaches. A payload that
// stops, kills or destroys asks wherever the console is, unless the line
// aims it at this machine by name (-H localhost); one that destroys on a
// target named for production is denied. A named console's payload that
// changes (set, add, ban, reload…) asks too. A read word first (core show
// channels, sofia status) is a look and is left alone.

//go:embed consoles.txt
var consolesText string

type consoleTable struct {
	options, positional, stdin, stops, destroys, changes, reads map[string]bool
	ownvm, attach                                               map[string]bool     // runtimes whose -eval runs in the VM the line starts, unless attached elsewhere
	typed                                                       map[string][]string // program → the words after which the typed text comes
	cmdfd                                                       map[string][]string // program → the options that, given 0, make it read commands on its input
	cmdopt                                                      map[string][]string // program → its options whose every value is one command (vtysh -c)
	confirms                                                    map[string]bool     // answers to a console's confirmation prompt
}

var consoles = sync.OnceValue(func() consoleTable {
	t := consoleTable{options: map[string]bool{}, positional: map[string]bool{}, stdin: map[string]bool{}, stops: map[string]bool{},
		destroys: map[string]bool{}, changes: map[string]bool{}, reads: map[string]bool{}, typed: map[string][]string{},
		ownvm: map[string]bool{}, attach: map[string]bool{}, cmdfd: map[string][]string{}, cmdopt: map[string][]string{}, confirms: map[string]bool{}}
	datatable.Must("consoles.txt", consolesText, 2, func(l datatable.Line) error {
		if l.Fields[0] == "typed" || l.Fields[0] == "cmdfd" || l.Fields[0] == "cmdopt" {
			dst := t.typed
			if l.Fields[0] == "cmdfd" {
				dst = t.cmdfd
			} else if l.Fields[0] == "cmdopt" {
				dst = t.cmdopt
			}
			for _, w := range l.Fields[1:] {
				prog, word, ok := strings.Cut(w, ":")
				if !ok {
					return l.Errorf("%s %q: want PROGRAM:WORD", l.Fields[0], w)
				}
				dst[prog] = append(dst[prog], word)
			}
			return nil
		}
		m := map[string]map[string]bool{"options": t.options, "positional": t.positional, "stdin": t.stdin, "stops": t.stops,
			"destroys": t.destroys, "changes": t.changes, "reads": t.reads, "ownvm": t.ownvm, "attach": t.attach, "confirms": t.confirms}[l.Fields[0]]
		if m == nil {
			return l.Errorf("list %q: want options, positional, stdin, typed, cmdfd, cmdopt, stops, destroys, changes, reads, confirms, ownvm or attach", l.Fields[0])
		}
		for _, w := range l.Fields[1:] {
			m[w] = true
		}
		return nil
	})
	return t
})

// consoleNames are the programs the table names (the rule's index); a
// program nobody listed is reached through the option trigger.
func consoleNames() []string {
	t := consoles()
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]bool{t.positional, t.stdin} {
		for n := range m {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	for k := range t.cmdfd {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for k := range t.typed {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// consolePayload is the command text c hands a console and whether the
// console is a named one (its change words count too).
func consolePayload(c *Cmd) (string, bool) {
	t := consoles()
	if ws := t.typed[c.Name]; ws != nil {
		for i, a := range c.Args {
			if slices.Contains(ws, a) {
				return strings.Join(c.Args[i+1:], " "), true // screen -X stuff "stop\r", tmux send-keys -t s "stop" Enter
			}
		}
		return "", false
	}
	named := t.positional[c.Name] || t.stdin[c.Name]
	fedCmds := t.stdin[c.Name]
	for _, o := range t.cmdfd[c.Name] {
		if v := optValue(c, o); v == "0" || v == "-" || v == "/dev/stdin" {
			named, fedCmds = true, true // gpg --command-fd 0 --card-edit: the fed lines are its commands
		}
	}
	if t.ownvm[c.Name] && !c.Has(keys(t.attach)...) {
		return "", false // erl -noshell -eval '…, halt().': halt() ends the VM this line started
	}
	var b strings.Builder
	for _, v := range c.OptValues(t.options) {
		b.WriteString(v + "\n")
	}
	for _, o := range t.cmdopt[c.Name] {
		for _, v := range c.OptValues(map[string]bool{o: true}) {
			b.WriteString(v + "\n") // vtysh -c 'show ip bgp summary' -c 'show run': a statement each
		}
	}
	if b.Len() == 0 && t.positional[c.Name] {
		b.WriteString(strings.Join(c.Pos, " ") + "\n")
	}
	if fedCmds && c.Heredoc != "" {
		b.WriteString(c.Heredoc)
	}
	if b.Len() > 0 && !named && callfacts.Known(c.Name) {
		return "", false // tar -x, curl -x proxy: a known program's own option
	}
	return b.String(), named
}

// consoleVerb is the first stop, destroy or (for a named console) change
// word of each statement in text, with its kind; a read word before it
// makes the statement a look.
func consoleVerb(text string, named bool) (kind, word string) {
	t := consoles()
	for _, st := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' || r == '\r' || r == '|' }) {
		words := strings.FieldsFunc(strings.ToLower(st), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.')
		})
		for i, w := range words {
			w = strings.Trim(w, ".")
			if i >= 8 || t.reads[w] || dottedRead(t, w) {
				break // ban.list, vcl.list, param.show: a noun.verb command whose verb reads
			}
			k := ""
			for _, p := range append([]string{w}, strings.FieldsFunc(w, func(r rune) bool { return r == '_' || r == '-' || r == '.' })...) {
				switch {
				case t.destroys[p] || hasPrefixIn(p, "delete", "deltree", "remove", "flush", "purge", "wipe", "truncate", "erase", "drop"):
					k = "destroy"
				case t.stops[p] || hasPrefixIn(p, "kill", "stop", "shutdown", "hupall", "halt", "reboot", "restart", "decommission"):
					k = "stop"
				case named && t.changes[p]:
					k = "change"
				}
				if k != "" {
					break
				}
			}
			if k != "" {
				if kind == "" || kind == "change" {
					kind, word = k, w
				}
				break
			}
		}
	}
	return kind, word
}

// dottedRead: w is a noun.verb console command (varnishadm ban.list,
// kamcmd ul.dump) whose last part is a read word.
func dottedRead(t consoleTable, w string) bool {
	i := strings.LastIndexByte(w, '.')
	return i > 0 && t.reads[w[i+1:]]
}

func hasPrefixIn(w string, ps ...string) bool {
	for _, p := range ps {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// consoleLocal: the line aims the console at this machine by name (a
// host option or address that is localhost), and nothing runs it
// elsewhere.
func consoleLocal(e *Env, c *Cmd) bool {
	for _, w := range c.Wrappers {
		if strings.HasPrefix(w, "ssh") || strings.HasPrefix(w, "kubectl") || strings.HasPrefix(w, "oc ") {
			return false
		}
	}
	if localHostRef.MatchString(e.F.Command) && !hostElsewhere(e.F.Command) {
		return true // --dsn mysql://root@localhost/shop, -H 127.0.0.1
	}
	if devContainer.MatchString(e.F.Command) && !prodMarker.MatchString(e.F.Command) && !strings.Contains(e.F.Command, "DOCKER_HOST=") {
		return true // docker exec asterisk-dev asterisk -rx …: a console in the developer's own container
	}
	local := false
	for _, o := range []string{"-H", "-h", "--host", "-s", "--server"} {
		if v := optValue(c, o); v != "" {
			if !isLocalEndpoint(v) && !callfacts.ThisMachine(v) {
				return false
			}
			local = true
		}
	}
	for _, p := range c.Pos {
		if isLocalEndpoint(p) {
			local = true
		}
	}
	return local && !hostElsewhere(e.F.Command)
}

func consoleRules() []Rule {
	judge := func(e *Env, c *Cmd) (string, string) {
		if onlyHelp(c) || e.dryRun(c) {
			return "", ""
		}
		text, named := consolePayload(c)
		if strings.TrimSpace(text) == "" {
			return "", ""
		}
		if sqlStmtIn.MatchString(text) && !named {
			return "", "" // a statement: the SQL rules judge it by its target (pack_sql_carried.go)
		}
		scan := text
		if sqlQueryText.MatchString(text) {
			scan = blankSQLStrings(text) // SELECT … WHERE name LIKE '%delete%': the quoted word is a value searched for
		}
		kind, word := consoleVerb(consoleDropFilters(scan), named) // grep -E "killed process": a pattern (console_filters.go)
		if kind == "" || consoleLocal(e, c) {
			return "", ""
		}
		st := strings.TrimSpace(strings.ReplaceAll(text, "\n", " "))
		if len(st) > 80 {
			st = st[:80] + "…"
		}
		if kind == "destroy" && prodMarker.MatchString(e.F.Command) {
			return "deny", c.Name + " is handed " + word + " (" + st + ") on a target named for production"
		}
		if kind == "destroy" && named && consoleConfirmed(text) {
			return "deny", c.Name + " is handed " + word + " together with the answer to its confirmation (" + st + "): nothing stops the destroy"
		}
		return "ask", c.Name + " is handed a console command that " + map[string]string{"destroy": "destroys", "stop": "stops or kills", "change": "changes"}[kind] + " (" + word + "): " + st
	}
	fire := func(want string) func(e *Env) string { return anyAtLevel(judge, want) }
	trig := On(0, consoleNames()...).OrText(" -x", " -rx", " --eval", " --execute", " --exec", " --cmd", " -execute", " -eval")
	return []Rule{
		{ID: "external.systems:console-destroy-prod", Mode: Deny, Tools: shellTools, On: trig,
			Desc:  "A console handed a command as text (an option's value, its arguments, text typed into it or fed on its input) that deletes, drops or flushes, on a target named for production, or fed together with the answer to its own confirmation (printf 'partition clear -force' | lunacm, gpg --command-fd 0 --card-edit fed factory-reset and yes); the consoles and words are data (policy/consoles.txt)",
			Match: fire("deny"),
			Catch: []string{"echo 'h:hopen `:tp-prod:5010; h\"delete from `trade where date<.z.d\"; exit 0' | q", `ssh root@pbx01.prod.example.net 'asterisk -rx "database deltree blacklist"'`,
				`kamcmd -s tcp:sip-prod.example.net:2049 ul.rm location alice@voip.example.com`, `rabbitmqctl -n rabbit@mq-prod-1 purge_queue orders`},
			Allow: []string{"echo 'h:hopen `:tp-prod:5010; h\"select count i from trade\"; exit 0' | q", `asterisk -rx "core show channels"`, `ssh root@pbx01.prod.example.net 'asterisk -rx "core show channels"'`,
				`kamcmd -s tcp:sip-prod.example.net:2049 ul.dump`}},
		{ID: "external.systems:console-command", Mode: Ask, Tools: shellTools, On: trig,
			Desc:  "A console handed a command as text that stops, kills, destroys or (for a listed console) changes what it runs — asterisk -rx \"core stop now\", fs_cli -x \"fsctl shutdown\", kamcmd ul.rm, mcrcon \"ban x\", screen -X stuff \"stop\", a tool nobody listed given --exec \"shutdown\"; read commands and a console aimed at localhost stay allowed; the consoles and words are data (policy/consoles.txt)",
			Match: fire("ask"),
			Catch: []string{`asterisk -rx "core stop now"`, `fs_cli -x "fsctl shutdown elegant"`, `fs_cli -x "hupall NORMAL_CLEARING"`, `kamcmd dispatcher.set_state ip 1 sip:10.20.0.5:5060`,
				`mcrcon -H play.example.net -P 25575 -p "$RCON_PASS" "ban griefer99"`, `screen -S survival -X stuff "stop$(printf '\r')"`, `pbxtool --exec "shutdown now"`,
				`kubectl -n voice exec deploy/kamailio -- kamcmd dispatcher.set_state ip 1 sip:10.20.0.5:5060`, `echo "disable server be/web1" | socat stdio /run/haproxy/admin.sock`, `rabbitmqctl eval 'application:stop(rabbit).'`},
			Allow: []string{`asterisk -rx "core show channels"`, `fs_cli -x "sofia status"`, `kamcmd ul.dump`, `mcrcon -H localhost -P 25575 -p x "stop"`, `erl -noshell -eval 'io:format("~s~n", [erlang:system_info(otp_release)]), halt().'`, `screen -ls`, `pbxtool --exec "show peers"`,
				`echo "show stat" | socat stdio /run/haproxy/admin.sock`, `tar -x -f a.tar`, `docker exec asterisk-dev asterisk -rx "core restart now"`, `tmux send-keys -t dev "npm test" Enter`, `nodetool status`}},
	}
}

// sqlQueryText: a console's text that is one SQL query (SELECT, SHOW,
// DESCRIBE, WITH … SELECT): its quoted strings are values.
var sqlQueryText = re(`(?is)^\s*(select|show|describe|desc|with\s+\w+\s+as\s*\()\s[^;]*;?\s*$`)

// devContainer: a console run in a container named for development or
// tests on this machine, or in a Compose service (the project's own
// stack) on a line that names no production.
var devContainer = re(`(?i)\b(docker|podman|nerdctl)\s+(compose\s+)?exec\s+(-\S+\s+)*[\w.-]*(^|[^a-z])(dev|test|local|sandbox|ci)([^a-z]|$)|^(?:[^;&|]*\s)?(?:(?:docker|podman)\s+compose|docker-compose|podman-compose)\s+exec\s`)

// consoleConfirmed: the fed text answers a console's confirmation prompt,
// on a line of its own (factory-reset\ny\nyes) or as an option of the
// destroying statement (partition clear -force): a destroy fed with its
// confirmation has no one left to stop it.
func consoleConfirmed(text string) bool {
	t := consoles()
	for _, st := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r == ';' || r == '\n' || r == '\r' }) {
		ws := strings.Fields(st)
		if len(ws) == 1 && t.confirms[ws[0]] {
			return true
		}
		if len(ws) > 1 && consoleDestroys(t, ws[0], ws[1]) {
			for _, w := range ws[2:] {
				if strings.HasPrefix(w, "-") && t.confirms[w] || w == "yes" || w == "force" {
					return true
				}
			}
		}
	}
	return false
}

// consoleDestroys: one of a statement's first two words destroys
// (partition clear, delete volume=V1).
func consoleDestroys(t consoleTable, ws ...string) bool {
	for _, w := range ws {
		if t.destroys[w] || hasPrefixIn(w, "delete", "deltree", "remove", "purge", "wipe", "erase", "drop", "factory-reset", "zeroize") {
			return true
		}
	}
	return false
}
