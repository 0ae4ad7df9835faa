package callfacts

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// verbsText is the destroy verbs and options of programs warden has no
// table for, and the local programs that are not such (verbs.txt).
//
//go:embed verbs.txt
var verbsText string

type verbTable struct {
	verbs, options, reads, local map[string]bool
}

var destroyVerbs = sync.OnceValue(func() verbTable {
	t := verbTable{verbs: map[string]bool{}, options: map[string]bool{}, reads: map[string]bool{}, local: map[string]bool{}}
	datatable.Must("verbs.txt", verbsText, 1, func(l datatable.Line) error {
		m := map[string]map[string]bool{"verbs": t.verbs, "options": t.options, "reads": t.reads, "local": t.local}[l.Fields[0]]
		if m == nil {
			return l.Errorf("list %q: want verbs, options, reads or local", l.Fields[0])
		}
		for _, w := range l.Fields[1:] {
			m[w] = true
		}
		return nil
	})
	return t
})

// Known reports whether warden has a table for program name: the tool
// table, a family, a word table, or a local program of verbs.txt.
func Known(name string) bool {
	return effectRules()[name] != nil || destroyVerbs().local[name] || IsInterpreter(name) || shells[name] || adminDevice(name)
}

// UnknownDestroy names the destroy verb or option of a program warden
// has no table for (hcloud server delete, nomad job stop -purge), "" for
// none, a known program, a script by path, help and dry-run forms.
func (c *Cmd) UnknownDestroy() string {
	v := c.destroyWord()
	if v == "" || strings.ContainsAny(c.Name, "/.$=") || Known(c.Name) || c.DryRun() || c.Has("--help", "-h") {
		return ""
	}
	return wrapped(c, v)
}

// destroyWord is the first destroy option or verb among c's first
// words, "" when a read word comes first or none is there: the cheap
// test, made before asking whether the program is known.
func (c *Cmd) destroyWord() string {
	t := destroyVerbs()
	for _, f := range c.Flags {
		if t.options[f] {
			return f
		}
	}
	for i, p := range c.Pos {
		if i > 3 || strings.ContainsAny(p, "/=@ .") {
			break
		}
		l := strings.ToLower(p)
		if t.reads[l] || strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789:_-") != "" {
			return "" // hcloud server list, apt-cache search purge
		}
		if t.verbs[l] {
			if Known(l) && optionBefore(c.Args, p) {
				continue // fd -x rm, command -v rm: a program named as an option's value
			}
			return l // an unknown program's rm is its own subcommand (s5cmd rm, databricks fs rm)
		}
		for _, v := range []string{"delete", "remove", "destroy", "purge", "drop", "erase", "wipe", "undefine", "unregister"} {
			if strings.HasPrefix(l, v) && len(l) > len(v) && !strings.ContainsAny(l, ":-_") {
				return l // deletesnapshot, removeitem, unregistervm
			}
		}
		if strings.ContainsAny(l, ":-_") {
			for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r == ':' || r == '-' || r == '_' }) {
				if t.verbs[w] {
					return l // apps:destroy, delete-bucket
				}
			}
		}
	}
	return ""
}

// wrapped is v unless c is a wrapper (its arguments are a command the
// reading follows on its own): then "".
func wrapped(c *Cmd, v string) string {
	if inner, _, payload := unwrap(c.Name, c.Args); inner != nil || payload != "" {
		return ""
	}
	return v
}

// optionBefore: the argument before the first p in args is an option.
func optionBefore(args []string, p string) bool {
	for i, a := range args {
		if a == p {
			return i > 0 && strings.HasPrefix(args[i-1], "-")
		}
	}
	return false
}

// adminDevice: a word of a network device's own shell (admin.txt device):
// its verbs are judged by that table as a remote shell's payload.
func adminDevice(name string) bool {
	p := adminTab().progs[name]
	return p != nil && p.where == "device"
}
