package callfacts

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// hostActsText lists, as data, what commands do to this machine, its
// user's account and data that no path argument shows (hostacts.txt says
// how a line reads).
//
//go:embed hostacts.txt
var hostActsText string

// HostAct is what a hostacts.txt line says of a command that matches it.
type HostAct struct {
	Level  string // "deny" or "ask"
	Kind   string // persist, boot, tracks…
	Effect Effect // how safemode and mutation tracking count it
	What   string // the kind in words: "erases the record of what ran on the machine…"
}

// hostActs is hostacts.txt read once: the word rules per program, and per
// rule's kind field ("deny:tracks", "ask:global+root") what it says.
type hostActs struct {
	rules map[string][]wordRule
	kinds map[string]*HostAct
}

var hostActTable = sync.OnceValue(func() *hostActs {
	t, err := parseHostActs(hostActsText)
	if err != nil {
		panic(err) // a malformed table is a build error the package's tests catch
	}
	return t
})

func parseHostActs(text string) (*hostActs, error) {
	kinds := map[string]HostAct{}
	var rules []datatable.Line
	err := datatable.Read("hostacts.txt", text, 1, func(l datatable.Line) error {
		f := l.Fields
		if strings.HasPrefix(f[0], "@") {
			if len(f) < 3 || f[1] != string(EffectWrite) && f[1] != string(EffectDelete) && f[1] != string(EffectStop) && f[1] != string(EffectRun) {
				return l.Errorf("want @kind write|delete|stop|run description")
			}
			kinds[f[0][1:]] = HostAct{Kind: f[0][1:], Effect: Effect(f[1]), What: strings.Join(f[2:], " ")}
			return nil
		}
		if len(f) < 2 {
			return l.Errorf("want LEVEL:KIND program words…")
		}
		rules = append(rules, l)
		return nil
	})
	if err != nil {
		return nil, err
	}
	t := &hostActs{rules: parseWords(rules, true), kinds: map[string]*HostAct{}}
	for _, rs := range t.rules {
		for _, r := range rs {
			level, kind, _ := strings.Cut(r.kind, ":")
			k, ok := kinds[kind]
			if !ok || level != "deny" && level != "ask" {
				return nil, fmt.Errorf("hostacts.txt: %q: want deny:KIND or ask:KIND with KIND one of the @ lines", r.kind)
			}
			k.Level = level
			t.kinds[r.kind] = &k
		}
	}
	return t, nil
}

// HostAction is what c does to the machine by hostacts.txt (nil for
// nothing it lists); help and dry-run forms match none.
func (c *Cmd) HostAction() *HostAct {
	t := hostActTable()
	rs := t.rules[c.Name]
	if rs == nil {
		return nil
	}
	if r := matchWords(rs, c); r != nil {
		return t.kinds[r.kind]
	}
	return nil
}

// HostActTools are the programs hostacts.txt names (sorted, shared: do not
// modify).
func HostActTools() []string { return hostActTools() }

var hostActTools = sync.OnceValue(func() []string { return programNames(hostActTable().rules) })
