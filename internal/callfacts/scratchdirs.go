package callfacts

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// scratchdirsText lists, as data, the names of the directories a tool
// keeps its caches, logs and temporary files in (exact names, or a
// prefix or suffix with *): below a tool's own directory under home
// (~/.npm/_logs, ~/.local/share/godot/shader_cache, ~/.config/Code/GPUCache)
// they hold what the tool rebuilds, so deleting them loses nothing. The
// tool's other directories beside them are its data.
//
//go:embed scratchdirs.txt
var scratchdirsText string

// scratchDirNames are scratchdirs.txt read: exact names, prefixes, suffixes
// (all lower case).
type scratchDirNames struct {
	exact            map[string]bool
	prefixes, suffix []string
}

var scratchDirTable = sync.OnceValue(func() scratchDirNames {
	t := scratchDirNames{exact: map[string]bool{}}
	datatable.Must("scratchdirs.txt", scratchdirsText, 1, func(l datatable.Line) error {
		for _, w := range l.Fields {
			w = strings.ToLower(w)
			switch {
			case strings.HasPrefix(w, "*") && len(w) > 1:
				t.suffix = append(t.suffix, w[1:])
			case strings.HasSuffix(w, "*") && len(w) > 1:
				t.prefixes = append(t.prefixes, w[:len(w)-1])
			case strings.Contains(w, "*"):
				return l.Errorf("%q: a * only at the start or the end of a name", w)
			default:
				t.exact[w] = true
			}
		}
		return nil
	})
	return t
})

// ScratchDir reports whether name (one path element) names a tool's
// scratch directory: cache, logs, tmp, shader_cache, GPUCache, CachedData.
func ScratchDir(name string) bool {
	t := scratchDirTable()
	l := strings.ToLower(name)
	if t.exact[l] {
		return true
	}
	for _, p := range t.prefixes {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	for _, s := range t.suffix {
		if strings.HasSuffix(l, s) {
			return true
		}
	}
	return false
}
