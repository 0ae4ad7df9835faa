package callfacts

import (
	_ "embed"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// rshellText lists, as data, the remote shells and consoles beside ssh
// (fly ssh console -C, tsh ssh, heroku run, knife ssh, kamal app exec):
// where each puts the command it runs elsewhere.
//
//go:embed rshell.txt
var rshellText string

// rshellRule is one line of rshell.txt.
type rshellRule struct {
	words  []wordSet // the subcommand words opening the arguments
	opts   []string  // opt=: the options whose value is the command
	rest   int       // rest=N: positionals before the command (-1: none)
	vals   []string  // vals=: options taking a value before the command
	dash   bool      // dash: the arguments after --
	quote  bool      // quote: the tool quotes a word with spaces when it joins them
	one    bool      // one: the command is that one positional, options may follow it (bolt command run CMD -t web)
	fed    bool      // fed: with no command given, the session's commands are the program's input
	params bool      // params: the option's value is a document's parameters; their command(s) run (ssmparams.go)
	// host=: options naming another host the program itself acts on
	// (systemctl -H web-prod-01 restart app runs systemctl restart app there)
	host []string
}

var rshellRules = sync.OnceValue(func() map[string][]rshellRule {
	m := map[string][]rshellRule{}
	datatable.Must("rshell.txt", rshellText, 3, func(l datatable.Line) error {
		f := l.Fields
		r := rshellRule{rest: -1}
		for _, w := range f[1:] {
			k, v, ok := strings.Cut(w, "=")
			switch {
			case w == "-":
			case w == "dash":
				r.dash = true
			case w == "quote":
				r.quote = true
			case w == "one":
				r.one = true
			case w == "fed":
				r.fed = true
			case w == "params":
				r.params = true
			case ok && k == "opt":
				r.opts = strings.Split(v, ",")
			case ok && k == "vals":
				r.vals = strings.Split(v, ",")
			case ok && k == "host":
				r.host = strings.Split(v, ",")
			case ok && k == "rest":
				if len(v) != 1 || v[0] < '0' || v[0] > '9' {
					return l.Errorf("rest=%s: want one digit", v)
				}
				r.rest = int(v[0] - '0')
			default:
				alt := wordSet{exact: map[string]bool{}}
				for _, a := range strings.Split(w, "|") {
					if p, ok := strings.CutSuffix(a, "*"); ok && p != "" {
						alt.prefixes = append(alt.prefixes, p) // @*: vip @app.env
						continue
					}
					alt.exact[a] = true
				}
				r.words = append(r.words, alt)
			}
		}
		m[f[0]] = append(m[f[0]], r)
		return nil
	})
	return m
})

// RemoteShellTools are the programs rshell.txt names.
func RemoteShellTools() []string { return slices.Sorted(maps.Keys(rshellRules())) }

// remoteShellPayload is the command a remote shell of rshell.txt runs
// elsewhere ("" when args run none: fly ssh console alone opens a
// session the line does not show), and the words before it that name
// where (the host, the app, the query).
func remoteShellPayload(name string, args []string) (payload string, where []string) {
	rules := rshellRules()[name]
	for i := range rules {
		r := &rules[i]
		rest, ok := openingWords(r.words, args)
		if !ok && len(r.vals) > 0 && len(args) > 0 && strings.HasPrefix(args[0], "-") {
			// global options with values before the subcommand
			// (bosh -e prod -d cf ssh router -c …)
			rest, ok = openingWords(r.words, skipValOpts(args, r.vals))
		}
		if !ok {
			continue
		}
		if len(r.host) > 0 {
			if p, where := hostOptPayload(name, rest, r.host); p != "" {
				return p, where
			}
			continue
		}
		for j, a := range rest {
			for _, o := range r.opts {
				if a == o && j+1 < len(rest) {
					return r.value(rest[j+1]), rest[:j]
				}
				if v, ok := strings.CutPrefix(a, o+"="); ok && strings.HasPrefix(o, "--") {
					return r.value(v), rest[:j]
				}
			}
			if r.dash && a == "--" && j+1 < len(rest) {
				return r.join(rest[j+1:]), rest[:j]
			}
		}
		if r.rest < 0 {
			continue
		}
		if k := commandAt(rest, func(o string) bool { return slices.Contains(r.vals, o) }, r.rest); k >= 0 {
			if r.one {
				return rest[k], append(rest[:k:k], rest[k+1:]...)
			}
			return r.join(rest[k:]), rest[:k]
		}
	}
	return "", nil
}

// join is the command line the tool runs from its words: joined with
// spaces, as ssh does, or — for a tool that quotes (heroku run) — with
// each word of several that holds a space or a double quote put in
// double quotes, so rails runner 'A.where("x < ?").delete_all' stays
// one argument there.
func (r *rshellRule) join(words []string) string {
	if !r.quote || len(words) == 1 {
		return strings.Join(words, " ")
	}
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = w
		if strings.ContainsAny(w, " \"") {
			q[i] = `"` + strings.ReplaceAll(w, `"`, `\"`) + `"`
		}
	}
	return strings.Join(q, " ")
}

// commandAt is where the command a runner runs starts in args (what
// follows the runner's opening words): after its options — those
// takesValue names take the next word — and skip positionals (a host, an
// image), or right after a "--" (the positionals still owed counted after
// it); -1 when args hold none. Remote shells (rshell.txt) and environment
// runners (envrun.txt) read their command line the same way.
func commandAt(args []string, takesValue func(string) bool, skip int) int {
	n := 0
	for j := 0; j < len(args); j++ {
		a := args[j]
		if a == "--" {
			if k := j + 1 + skip - n; k < len(args) {
				return k
			}
			return -1
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			if takesValue(a) {
				j++
			}
			continue
		}
		if n == skip {
			return j
		}
		n++
	}
	return -1
}

// openingWords: args open with words (options between them skipped);
// returns what follows the last.
func openingWords(words []wordSet, args []string) ([]string, bool) {
	i := 0
	for _, w := range words {
		for i < len(args) && strings.HasPrefix(args[i], "-") {
			i++ // --app x before the subcommand: its value is no word either way
		}
		if i >= len(args) || !wordIn(w, args[i]) {
			return nil, false
		}
		i++
	}
	return args[i:], true
}

// skipValOpts is args without the options before the first other word,
// the values of those vals names dropped with them.
func skipValOpts(args, vals []string) []string {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if slices.Contains(vals, args[i]) {
			i++
		}
		i++
	}
	if i > len(args) {
		i = len(args)
	}
	return args[i:]
}

// RemoteShellWhere are the words of a remote shell of rshell.txt that
// name where its command runs (the host, the app, the node query); nil
// for other commands and for sessions that run none.
func RemoteShellWhere(c *Cmd) []string {
	if rshellRules()[c.Name] == nil {
		return nil
	}
	_, where := remoteShellPayload(c.Name, c.Args)
	if where == nil && c.Remote != "" {
		// systemctl -H host …: the host was set aside as a global option
		_, where = remoteShellPayload(c.Name, strings.SplitN(c.Remote, "=", 2))
	}
	return where
}

// hostOptPayload is the command a program given another host by one of
// opts runs there — itself with its other arguments — and the host; ""
// without such an option.
func hostOptPayload(name string, args, opts []string) (string, []string) {
	for j, a := range args {
		for _, o := range opts {
			host := ""
			switch {
			case a == o && j+1 < len(args):
				host = args[j+1]
			case strings.HasPrefix(o, "--") && strings.HasPrefix(a, o+"="):
				host = a[len(o)+1:]
			default:
				continue
			}
			if host == "" || strings.HasPrefix(host, "-") {
				return "", nil
			}
			words := append([]string(nil), args[:j]...)
			if a == o {
				words = append(words, args[j+2:]...)
			} else {
				words = append(words, args[j+1:]...)
			}
			return name + quoteArgs(words), []string{host}
		}
	}
	return "", nil
}

// hostOptArgs are the arguments unwrap reads for program name: as typed
// (raw) for a program that acts on another host by an option (host= in
// rshell.txt), whose global options toolArgs sets aside; else kept.
func hostOptArgs(name string, raw, kept []string) []string {
	for _, r := range rshellRules()[name] {
		if len(r.host) > 0 {
			return raw
		}
	}
	return kept
}
