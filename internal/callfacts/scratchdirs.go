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

// scratchDirTable is scratchdirs.txt read (all lower case).
var scratchDirTable = sync.OnceValue(func() datatable.Names {
	var t datatable.Names
	datatable.Must("scratchdirs.txt", scratchdirsText, 1, func(l datatable.Line) error {
		for _, w := range l.Fields {
			if err := t.Add(strings.ToLower(w)); err != nil {
				return l.Errorf("%v", err)
			}
		}
		return nil
	})
	return t
})

// ScratchDir reports whether name (one path element) names a tool's
// scratch directory: cache, logs, tmp, shader_cache, GPUCache, CachedData.
func ScratchDir(name string) bool { return scratchDirTable().Has(strings.ToLower(name)) }
