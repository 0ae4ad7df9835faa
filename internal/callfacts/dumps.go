package callfacts

import (
	_ "embed"
	"sort"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// dumpsText lists, as data, the commands that print or write a data
// store's content wholesale: database dumps, exports of a table's rows,
// snapshots, a CMS's users (dumps.txt).
//
//go:embed dumps.txt
var dumpsText string

var dumpRules = sync.OnceValue(func() map[string][]wordRule { return parseWords(datatable.Lines("dumps.txt", dumpsText), false) })

// Dumps reports whether c prints or writes a data store's content
// wholesale by dumps.txt (pg_dump, wp db export, mongoexport, bq
// extract, redis-cli --rdb); help and dry-run forms do not.
func (c *Cmd) Dumps() bool {
	rules := dumpRules()[c.Name]
	if rules == nil {
		return false
	}
	for i := range rules {
		if len(rules[i].words) == 0 {
			return !c.DryRun() && !c.Has("--help", "--version", "-V")
		}
	}
	return matchWords(rules, c) != nil
}

// DumpTools are the programs dumps.txt names.
func DumpTools() []string {
	var out []string
	for n := range dumpRules() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
