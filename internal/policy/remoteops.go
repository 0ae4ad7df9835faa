package policy

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// remoteops.txt names what commands do to remote services and production:
// the words of destructive API calls, the options that pick production,
// the verbs that only read. The rules read its lists by name.
//
//go:embed remoteops.txt
var remoteOpsText string

// opsTable is one list of remoteops.txt: its words as a set, and in the
// file's order for the rules that walk them (a slice, not a map, walked
// on every command they meet).
type opsTable struct {
	set   map[string]bool
	words []string
}

// remoteOps is remoteops.txt read once: list name → its words.
var remoteOps = sync.OnceValue(func() map[string]*opsTable {
	m := map[string]*opsTable{}
	datatable.Must("remoteops.txt", remoteOpsText, 2, func(l datatable.Line) error {
		f := l.Fields
		t := m[f[0]]
		if t == nil {
			t = &opsTable{set: map[string]bool{}}
			m[f[0]] = t
		}
		for _, w := range f[1:] {
			if !t.set[w] {
				t.set[w] = true
				t.words = append(t.words, w)
			}
		}
		return nil
	})
	return m
})

// opsWords returns the words of a remoteops.txt list, in the file's order.
func opsWords(name string) []string {
	if t := remoteOps()[name]; t != nil {
		return t.words
	}
	return nil
}

// opsList returns the words of a remoteops.txt list.
func opsList(name string) map[string]bool {
	if t := remoteOps()[name]; t != nil {
		return t.set
	}
	return nil
}

// opsNames returns a list's words as a slice (for Cmds prefilters).
func opsNames(names ...string) []string {
	var out []string
	for _, n := range names {
		for w := range opsList(n) {
			out = append(out, w)
		}
	}
	return out
}

// wordsOf splits a subcommand, URL path or key into its words: db:migrate
// gives db and migrate; describe-instances gives describe and instances.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return r == ':' || r == '-' || r == '_' || r == '/' || r == '.' || r == '?' || r == '&' || r == '=' || r == ',' || r == ' '
	})
}
