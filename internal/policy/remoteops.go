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

// remoteOps is remoteops.txt read once: list name → its words.
var remoteOps = sync.OnceValue(func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	datatable.Must("remoteops.txt", remoteOpsText, 2, func(l datatable.Line) error {
		f := l.Fields
		set := m[f[0]]
		if set == nil {
			set = map[string]bool{}
			m[f[0]] = set
		}
		for _, w := range f[1:] {
			set[w] = true
		}
		return nil
	})
	return m
})

// opsList returns the words of a remoteops.txt list.
func opsList(name string) map[string]bool { return remoteOps()[name] }

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
