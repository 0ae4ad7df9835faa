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
	if rules == nil || c.SchemaOnly() {
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

// schemaOnlyOpts are the options that make a dump tool write the
// schema and no rows (pg_dump -s, mysqldump --no-data): table
// definitions, no customer's data.
var schemaOnlyOpts = map[string][]string{"pg_dump": {"-s", "--schema-only"}, "mysqldump": {"-d", "--no-data"},
	"mariadb-dump": {"-d", "--no-data"}, "mysqlpump": {"-d", "--skip-dump-rows"}, "mydumper": {"-d", "--no-data"}}

// SchemaOnly reports whether c is a dump tool told to write the schema
// only.
func (c *Cmd) SchemaOnly() bool {
	o := schemaOnlyOpts[c.Name]
	return o != nil && c.Has(o...)
}
