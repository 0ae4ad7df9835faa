package callfacts

import (
	"embed"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// hostSecText lists, as data, the commands that switch off the host's own
// protection (firewall, SELinux/AppArmor, auditing, Gatekeeper, SIP).
//
//go:embed hostsec.txt
var hostSecText string

// remoteText lists, as data, what commands do to things outside the
// machine that no path shows: publishing, making public, deleting from a
// registry.
//
//go:embed remote.txt
var remoteText string

// catalogueFS is the CLI catalogue: remote.txt's format, one file per
// field of work (databases, infrastructure, platforms…), for the many
// programs no rule names — what their subcommands and options do to
// shared systems, so a program warden has not met in a rule is still
// read for what it does.
//
//go:embed clis/*.txt
var catalogueFS embed.FS

// remoteLines are remote.txt's entries, then the catalogue's, file by
// file in name order (a program's lines stay in its file's order).
func remoteLines() []datatable.Line {
	lines := datatable.Lines("remote.txt", remoteText)
	files, err := catalogueFS.ReadDir("clis")
	if err != nil {
		panic(err) // embedded: cannot fail once built
	}
	for _, f := range files {
		b, err := catalogueFS.ReadFile("clis/" + f.Name())
		if err != nil {
			panic(err)
		}
		lines = append(lines, datatable.Lines("clis/"+f.Name(), string(b))...)
	}
	return lines
}

// wordRule is one line of a word table: a kind (for remote.txt) and the
// words that must follow the program, in order, each a set of
// alternatives ("a|b"; "x*" matches words starting with x).
type wordRule struct {
	kind  string
	words []wordSet
	not   []wordSet // !x words: the line does not apply when any argument is one (p4 revert !-a)
	// first is the program's lines' first words merged (shared by its
	// lines): firstWordIn, asked of every command the table names, reads
	// one set, not one per line.
	first *firstWords
}

// firstWords is every line of one program's first word: whether a line
// has none (the program alone), and the union of the lines' first sets.
type firstWords struct {
	bare bool
	set  wordSet
}

// mergeFirst sets rules' shared first-word union.
func mergeFirst(rules []wordRule) {
	fw := &firstWords{set: wordSet{exact: map[string]bool{}}}
	seen := map[string]bool{}
	for i := range rules {
		if len(rules[i].words) == 0 {
			fw.bare = true
			continue
		}
		w := &rules[i].words[0]
		for k := range w.exact {
			fw.set.exact[k] = true
		}
		for _, p := range w.prefixes {
			if !seen["p"+p] {
				seen["p"+p] = true
				fw.set.prefixes = append(fw.set.prefixes, p)
			}
		}
		for _, p := range w.parts {
			if !seen["*"+p] {
				seen["*"+p] = true
				fw.set.parts = append(fw.set.parts, p)
			}
		}
		for _, p := range w.suffixes {
			if !seen["s"+p] {
				seen["s"+p] = true
				fw.set.suffixes = append(fw.set.suffixes, p)
			}
		}
	}
	for i := range rules {
		rules[i].first = fw
	}
}

// wordSet is one word's alternatives: exact words, prefixes (x*) and
// parts (*x*: //deploy:push_prod, .buildkite/release.yml).
type wordSet struct {
	exact    map[string]bool
	prefixes []string
	parts    []string
	suffixes []string // *x: words ending in x (build payments-prod)
}

// parseWords reads a word table's entries (datatable.Lines); withKind:
// each starts with its kind.
func parseWords(lines []datatable.Line, withKind bool) map[string][]wordRule {
	m := map[string][]wordRule{}
	for _, l := range lines {
		f := l.Fields
		r := wordRule{}
		if withKind {
			if len(f) < 2 {
				panic(l.Errorf("want KIND PROGRAM WORDS…, got %q", l.Text)) // a build error the tests catch
			}
			r.kind, f = f[0], f[1:]
		}
		for _, w := range f[1:] {
			neg := strings.HasPrefix(w, "!") && len(w) > 1
			w = strings.TrimPrefix(w, "!")
			alt := wordSet{exact: map[string]bool{}}
			for _, a := range strings.Split(w, "|") {
				if a == "''" {
					alt.exact[""] = true // an empty argument (requirepass '')
					continue
				}
				if p, ok := strings.CutSuffix(fold(a), "*"); ok && strings.HasPrefix(p, "*") && len(p) > 1 {
					alt.parts = append(alt.parts, p[1:])
				} else if ok {
					alt.prefixes = append(alt.prefixes, p)
				} else if x, ok := strings.CutPrefix(fold(a), "*"); ok && len(x) > 0 && !strings.Contains(x, "*") {
					alt.suffixes = append(alt.suffixes, x)
				} else {
					alt.exact[fold(a)] = true
				}
			}
			if neg {
				r.not = append(r.not, alt)
				continue
			}
			r.words = append(r.words, alt)
		}
		m[f[0]] = append(m[f[0]], r)
	}
	for _, rs := range m {
		mergeFirst(rs)
	}
	return m
}

var hostSecRules = sync.OnceValue(func() map[string][]wordRule { return parseWords(datatable.Lines("hostsec.txt", hostSecText), false) })

var remoteRules = sync.OnceValue(func() map[string][]wordRule { return parseWords(remoteLines(), true) })

// wordTools are the programs either word table names: one lookup tells
// whether a command needs matching at all.
var wordTools = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for n := range hostSecRules() {
		m[n] = true
	}
	for n := range remoteRules() {
		m[n] = true
	}
	for n := range hostActTable().rules {
		m[n] = true
	}
	return m
})

// matchWords is the first rule of rules whose words c's arguments hold in
// order; help and dry-run forms match none.
func matchWords(rules []wordRule, c *Cmd) *wordRule {
	if rules == nil || !firstWordIn(rules, c.Args) || c.DryRun() || c.Has("--help") {
		return nil
	}
	own := c.RunnerOwnArgs() // uv run python x.py --url https://…: python's option
	args := make([]string, 0, len(own))
	for _, a := range own {
		a = fold(strings.TrimSuffix(a, ".service"))
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") {
			args = append(args, k, v) // --policy=INPUT, --visibility=public
			continue
		}
		args = append(args, a)
	}
	if c.Stdin != "" || c.Heredoc != "" {
		args = append(args, "<") // fed on its input: a line's "<" word (odoo-bin shell … <)
	}
	for i := range rules {
		n := 0
		for _, a := range args {
			if n < len(rules[i].words) && wordIn(rules[i].words[n], a) {
				n++
			}
		}
		if n == len(rules[i].words) && !anyWordIn(rules[i].not, args) {
			return &rules[i]
		}
	}
	return nil
}

// matchStart is the index in c's arguments of the word r's first word
// matched (-1 when r does not match): the line that matched earlier
// words matched the verb.
func matchStart(r *wordRule, c *Cmd) int {
	if r == nil || len(r.words) == 0 {
		return -1
	}
	for i, a := range c.Args {
		a = fold(strings.TrimSuffix(a, ".service"))
		if k, _, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") {
			a = k
		}
		if wordIn(r.words[0], a) {
			return i
		}
	}
	return -1
}

// excludedByLine: a line of rules would match c but for one of its !x
// words (werf dismiss|cleanup|purge !host: werf host purge clears this
// machine's cache): the table says this form is not of its kind.
func excludedByLine(rules []wordRule, c *Cmd) bool {
	if rules == nil || !firstWordIn(rules, c.Args) {
		return false
	}
	args := make([]string, 0, len(c.Args))
	for _, a := range c.Args {
		args = append(args, fold(a))
	}
	for i := range rules {
		if len(rules[i].not) == 0 {
			continue
		}
		n := 0
		for _, a := range args {
			if n < len(rules[i].words) && wordIn(rules[i].words[n], a) {
				n++
			}
		}
		if n == len(rules[i].words) && notNoun(rules[i].not, args) {
			return true
		}
	}
	return false
}

// notNoun: one of args is a !x word of sets that is no verb itself (werf
// … purge !host: the host's cache; surge … !teardown is a destroy the
// other rules judge, so it sets nothing aside).
func notNoun(sets []wordSet, args []string) bool {
	for _, s := range sets {
		for _, a := range args {
			if wordIn(s, a) && !DestroyOrChangeWord(a) && !strings.HasPrefix(a, "-") {
				return true
			}
		}
	}
	return false
}

// CatalogueSaysNot reports whether remote.txt or the CLI catalogue has
// a line for c's form that its !x words set aside (werf host purge,
// r10k deploy display): the verb rules for programs without a table
// leave it alone.
func (c *Cmd) CatalogueSaysNot() bool { return excludedByLine(remoteRules()[c.Name], c) }

// anyWordIn reports whether one of args is a word of one of sets (a
// line's !x words: p4 revert !-a !-k, only an undo that loses edits).
func anyWordIn(sets []wordSet, args []string) bool {
	for _, s := range sets {
		for _, a := range args {
			if wordIn(s, a) {
				return true
			}
		}
	}
	return false
}

// firstWordIn reports whether some rule's first word is among args, the
// cheap test before reading them (npm run build: no rule's first word).
func firstWordIn(rules []wordRule, args []string) bool {
	if len(rules) > 0 && rules[0].first != nil {
		fw := rules[0].first
		if fw.bare {
			return true
		}
		for _, a := range args {
			a = fold(a)
			if k, _, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") {
				a = k
			}
			if wordIn(fw.set, a) {
				return true
			}
		}
		return false
	}
	for i := range rules {
		if len(rules[i].words) == 0 {
			return true // aa-teardown: the program alone
		}
	}
	for _, a := range args {
		a = fold(a)
		if k, _, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") {
			a = k
		}
		for i := range rules {
			if wordIn(rules[i].words[0], a) {
				return true
			}
		}
	}
	return false
}

// wordIn reports whether a is one of alt's words or starts one ending in *.
func wordIn(alt wordSet, a string) bool {
	if alt.exact[a] {
		return true
	}
	for _, p := range alt.prefixes {
		if strings.HasPrefix(a, p) {
			return true
		}
	}
	for _, p := range alt.parts {
		if strings.Contains(a, p) {
			return true
		}
	}
	for _, p := range alt.suffixes {
		if strings.HasSuffix(a, p) {
			return true
		}
	}
	return false
}

// DisablesSecurity says how c switches off the host's protection
// (hostsec.txt: "ufw disable", "iptables -P INPUT ACCEPT"), "" when it
// does not; help and dry-run forms change nothing.
func (c *Cmd) DisablesSecurity() string {
	if matchWords(hostSecRules()[c.Name], c) == nil {
		return ""
	}
	return c.Name + " " + strings.Join(c.Args, " ") + " switches off the host's protection"
}

// RemoteAction is what c does outside the machine by remote.txt:
// "publish", "visibility" (makes something public), "destroy" (deletes
// from a registry or service), "" for none of these.
func (c *Cmd) RemoteAction() string {
	if r := matchWords(remoteRules()[c.Name], c); r != nil && !reloadOnly(r, c) && !issuesRead(r, c) {
		return r.kind
	}
	return ""
}

// HostSecTools are the programs hostsec.txt names (sorted, shared: do not
// modify).
func HostSecTools() []string { return hostSecTools() }

// RemoteActionTools are the programs remote.txt names (sorted, shared: do
// not modify). A dozen rules name them as their programs; sorting them
// once, not per rule, was a quarter of building the rules.
func RemoteActionTools() []string { return remoteActionTools() }

var (
	hostSecTools      = sync.OnceValue(func() []string { return programNames(hostSecRules()) })
	remoteActionTools = sync.OnceValue(func() []string { return programNames(remoteRules()) })
)

// programNames are m's keys, sorted, clipped so that an append by a
// caller copies rather than writes into the shared array.
func programNames(m map[string][]wordRule) []string {
	var out []string
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return slices.Clip(out)
}

// fold lowercases a word but not an option: iptables -P (policy) is not
// -p (protocol), -F (flush) not -f (fragments).
func fold(w string) string {
	if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && len(w) <= 3 {
		return w // -P, -F: short options whose case matters (iptables)
	}
	return strings.ToLower(w)
}
