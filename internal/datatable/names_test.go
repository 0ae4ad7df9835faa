package datatable

import (
	"strings"
	"testing"
)

// A table's name patterns: exact names, NAME* and *NAME; a * elsewhere
// or a path is refused with the word named.
func TestNames(t *testing.T) {
	var n Names
	for _, w := range []string{"logs", "cache*", "*_cache"} {
		if err := n.Add(w); err != nil {
			t.Fatalf("Add(%q) = %v", w, err)
		}
	}
	for name, want := range map[string]bool{"logs": true, "logs2": false, "cache": true, "caches": true, "shader_cache": true, "mycache": false, "log": false} {
		if got := n.Has(name); got != want {
			t.Errorf("Has(%q) = %v, want %v", name, got, want)
		}
	}
	for _, bad := range []string{"a*b", "*", "**", "x/y", "*a*"} {
		if err := n.Add(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("Add(%q) = %v, want an error naming it", bad, err)
		}
	}
}
