package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// sqlChange: a statement that changes rows or tables (one row too), as
// opposed to a query.
var sqlChange = re(`(?i)\b(?:delete\s+from|update\s+[\w."\[\]]+\s+set|insert\s+(?:or\s+\w+\s+)?into|replace\s+into|alter\s+table|drop\s+(?:table|index|view|trigger)|truncate\s+table)\b`)

// appDBChangeRules: a change to an application's own database file
// under the user's home (sqlite3 ~/.local/share/museumdb/catalog.db
// 'DELETE FROM objects WHERE id = 3', sqlite3.connect(…'~/Library/
// Application Support/App/app.db').execute("UPDATE …")): it edits the
// user's data an application keeps, not a project's dev database, so
// even a one-row change asks (bulk ones on such files are denied by
// external.systems:sql-carried). A file in the project or /tmp is a dev
// database; a query changes nothing.
// appDBPrograms: the file clients of pack_sql_carried.go and the
// interpreters whose one-liners open a database file.
var appDBPrograms = []string{"sqlite3", "sqlite", "duckdb", "spatialite", "litecli", "sqlite-utils", "python", "python3", "ruby", "node", "perl", "php", "deno", "bun", "lua", "julia", "rscript", "r", "groovy", "jshell"}

func appDBChangeRules() []Rule {
	return []Rule{cmdRule("core.local:appdb-change", Ask, "A statement that changes rows or tables (DELETE, UPDATE, INSERT, ALTER) in an application's database file among the user's own data (~/.local/share/APP/x.db, ~/Library/Application Support/APP/x.sqlite), by sqlite3 FILE 'SQL', a here-document or a one-liner's sqlite3.connect(FILE): it edits what an application keeps for the user; a database in the project or /tmp, or a query, is routine", appDBPrograms,
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || e.dryRun(c) {
				return ""
			}
			interp := c.Payload != "" && callfacts.IsInterpreter(c.Name)
			if !interp && !sqlFileClients[c.Name] {
				return ""
			}
			var words []string
			changes := c.Heredoc != "" && sqlChange.MatchString(c.Heredoc)
			if interp {
				if !strings.Contains(c.Payload, "connect") && !strings.Contains(c.Payload, "Database") && !strings.Contains(c.Payload, "open") && !strings.Contains(c.Payload, "sqlite") {
					return ""
				}
				for _, l := range callfacts.Literals(c.Payload) {
					changes = changes || sqlChange.MatchString(l)
					words = append(words, l)
				}
			} else {
				for _, a := range c.Args {
					changes = changes || sqlChange.MatchString(a)
				}
				words = c.Pos
			}
			if !changes {
				return ""
			}
			for _, w := range words {
				if !dbFileExt.MatchString(w) || callfacts.UnknownValue(w) || strings.Contains(w, "\n") {
					continue
				}
				p := e.abs(c, w)
				if z := callfacts.ZoneOf(p, e.F.Home, e.F.Project); z == callfacts.ZoneHomeData || z == callfacts.ZoneHomeConfig {
					return c.Name + " changes rows of " + homeRel(p, e.F.Home) + ", an application's data under home (" + string(z) + ")"
				}
			}
			return ""
		},
		[]string{"sqlite3 ~/.local/share/museumdb/catalog.db 'DELETE FROM objects WHERE id = 3'", `python3 -c "import sqlite3,os; c=sqlite3.connect(os.path.expanduser('~/.local/share/museumdb/catalog.db')); c.execute('DELETE FROM objects WHERE id=3'); c.commit()"`, `sqlite3 ~/.local/share/shotwell/data/photo.db <<'EOF'
UPDATE PhotoTable SET rating = 5 WHERE id = 12;
EOF`},
		[]string{"sqlite3 db/dev.sqlite3 'DELETE FROM users WHERE id = 3'", "sqlite3 ~/.local/share/museumdb/catalog.db 'SELECT count(*) FROM objects'", "sqlite3 /tmp/x.db 'DELETE FROM t'"})}
}
