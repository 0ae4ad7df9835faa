package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// An application's own database file under the user's home
// (~/.local/share/APP/x.db, ~/Library/Application Support/APP/x.sqlite,
// ~/Zotero/zotero.sqlite) changed row by row through a file-database
// client: the SQL may be an argument, a -cmd value, or the text fed on
// its input (a heredoc, a here-string, echo … |), read alike. The
// statements that drop or empty a table are sql-carried's (deny); here
// a keyed DELETE, an UPDATE, an INSERT edit data the application
// keeps, which the user may not have copied: ask. The project's,
// scratch and cache databases stay allowed.

// sqlRowChange: a statement that edits rows or a table's shape.
var sqlRowChange = re(`(?is)\b(delete\s+from|update\s+[\w"` + "`" + `.\[\]]+\s+set|insert\s+(or\s+\w+\s+)?into|replace\s+into|alter\s+table)\s`)

func appDBChangeRule() Rule {
	judge := func(e *Env, c *Cmd) (string, string) {
		if !sqlFileClients[c.Name] || onlyHelp(c) || c.Has("-readonly", "--readonly", "-r") {
			return "", ""
		}
		stmt := ""
		for _, a := range c.Args {
			if m := sqlRowChange.FindString(a); m != "" {
				stmt = m
				break
			}
		}
		if stmt == "" && c.Heredoc != "" {
			stmt = sqlRowChange.FindString(c.Heredoc)
		}
		if stmt == "" {
			return "", ""
		}
		for i, a := range c.Args {
			if a == "" || a[0] == '-' || i > 0 && c.Args[i-1] == "-cmd" || callfacts.UnknownValue(a) {
				continue
			}
			if !dbFileExt.MatchString(a) && a != firstPos(c) {
				continue
			}
			p := e.abs(c, a)
			switch z := callfacts.ZoneOf(p, e.F.Home, e.F.Project); z {
			case callfacts.ZoneHomeData, callfacts.ZoneHomeConfig:
				return "ask", c.Name + " changes rows (" + strings.ToUpper(strings.Fields(stmt)[0]) + ") in an application's database under home: " + homeRel(p, e.F.Home)
			}
		}
		return "", ""
	}
	return Rule{ID: "external.systems:sql-appdb-change", Mode: Ask, Tools: shellTools,
		On:    On(0, "sqlite3", "sqlite", "duckdb", "spatialite", "litecli", "ogrinfo", "ogr2ogr", "sqlite-utils"),
		Desc:  "A file database under the user's home that an application keeps (~/.local/share/APP/x.db, ~/Library/Application Support/APP/x.sqlite) changed row by row — DELETE, UPDATE, INSERT, ALTER given as an argument, a -cmd value or text fed on its input (heredoc, here-string, echo |): the application's data, which the user may not have copied; the project's, scratch and cache databases stay allowed",
		Match: anyAtLevel(judge, "ask"),
		Catch: []string{"sqlite3 ~/.local/share/museumdb/catalog.db <<'EOF'\nDELETE FROM loans WHERE id = 312;\nEOF", `sqlite3 ~/Zotero/zotero.sqlite "UPDATE items SET dateModified = 0 WHERE itemID = 9"`, `echo "INSERT INTO notes(body) VALUES ('x');" | sqlite3 ~/.config/joplin-desktop/database.sqlite`},
		Allow: []string{"sqlite3 data/app.db <<'EOF'\nDELETE FROM loans WHERE id = 312;\nEOF", `sqlite3 ~/.local/share/museumdb/catalog.db "SELECT * FROM loans WHERE id = 312"`, `sqlite3 /tmp/scratch.db "UPDATE t SET x = 1"`},
	}
}
