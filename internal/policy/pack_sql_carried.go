package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// SQL carried as text by a program no client table names: a GIS tool's
// -sql, a migrator's --execute, dbt's --args '{sql: …}', an embedded
// database's console (sqlite3 FILE 'SQL'), a driver called from an
// interpreter one-liner (perl -MDBI -e '…->do("DELETE …")'). The
// statement is read as the database clients' statements are (drops,
// truncates, every-row or bulk DELETE/UPDATE, administration grants) and
// judged by the target the command names:
//   - a word for production in the connection, database, target or file
//     (dbname=acme_prod, --target prod, PG:"host=gis-prod…") → deny;
//   - a server that is not this machine (host=, -h, a URL) → deny;
//   - a database file in the user's own folders or on shared storage →
//     deny, elsewhere outside the project → ask (the verdict table's
//     truncate row: emptying tables empties the file);
//   - a file in the project or temp, this machine's server, a dev or test
//     database, a dry run → allowed;
//   - nothing the line names → ask.

// sqlCarrierSkip: programs whose arguments are text, never a statement
// they run (a commit message, a search pattern, an editor's buffer).
var sqlCarrierSkip = map[string]bool{"git": true, "grep": true, "rg": true, "echo": true, "printf": true, "sed": true, "awk": true, "jq": true,
	"gh": true, "glab": true, "hg": true, "svn": true, "tmux": true, "cat": true, "less": true, "vim": true, "nano": true, "code": true}

// sqlFileClients are the consoles of embedded and file databases: their
// first positional is the database file (sqlite3 app.db 'SQL',
// ogrinfo layer.gpkg -sql 'SQL').
var sqlFileClients = map[string]bool{"sqlite3": true, "sqlite": true, "duckdb": true, "spatialite": true, "litecli": true, "ogrinfo": true,
	"ogr2ogr": true, "sqlite-utils": true, "datasette": true}

// sqlMessageOpts carry prose, not a statement (-m "drop table in v2").
var sqlMessageOpts = map[string]bool{"-m": true, "--message": true, "--description": true, "--title": true, "--comment": true, "--body": true, "--notes": true}

// sqlStmtIn finds a destructive statement inside any text (an argument
// that is a statement, or YAML/JSON around one: {sql: "drop schema …"}).
var sqlStmtIn = re(`(?is)\b(drop\s+(database|table|schema|keyspace|view|collection|tablespace|materialized\s+view|index|sequence|function|procedure|trigger|user|role|warehouse|stage|stream|extension|catalog|namespace)\b|truncate\s+(table\s+)?[\w"` + "`" + `.]|delete\s+from\s+\S+|update\s+[\w"` + "`" + `.]+\s+set\s|alter\s+table\s+\S+\s+drop\b|grant\s+all\b)[^'"]*`)

// dbFileExt: a path that is a database file by its name.
// (weewx keeps its archive as .sdb, Anki its collection as .anki2, GnuCash
// and MBTiles are SQLite files too.)
var dbFileExt = re(`(?i)\.(db|sqlite3?|gpkg|duckdb|mdb|accdb|fdb|gdb|ddb|realm|s3db|sl3|db3|sdb|sq3|sqlitedb|anki2|mbtiles|gnucash)$`)

// carriedSQL returns the statements c carries that sqlRisk finds
// destructive, and the other words of the command (its target), "" when
// it carries none. The named database clients are judged by their own
// rules (pack_netsql.go, pack_sql_kinds.go).
func carriedSQL(c *Cmd) (stmt string, rest []string) {
	if slices.Contains(warehouseClients, c.Name) && !sqlFileClients[c.Name] || sqlCarrierSkip[c.Name] {
		return "", nil
	}
	interp := c.Payload != "" && callfacts.IsInterpreter(c.Name)
	if !interp && !sqlFileClients[c.Name] && callfacts.Known(c.Name) {
		return "", nil
	}
	var texts []string
	if interp {
		for _, l := range callfacts.Literals(c.Payload) {
			if sqlStmtIn.MatchString(l) && !searchedText(c.Payload, l) {
				texts = append(texts, l)
			} else {
				rest = append(rest, l)
			}
		}
	} else {
		for i, a := range c.Args {
			if i > 0 && (sqlMessageOpts[c.Args[i-1]] || searchOpts[strings.ToLower(c.Args[i-1])]) {
				continue // Find-DbaStoredProcedure -Pattern 'DELETE FROM x': what a search looks for
			}
			if v := alterClause(c, i); v != "" {
				texts = append(texts, v) // pt-online-schema-change --alter "DROP COLUMN ssn" (pack_sql_text.go)
			} else if m := sqlStmtIn.FindString(a); m != "" && !searchedText(a, m) && !explainOnly(a) && sqlStmtIn.MatchString(blankSQLStrings(a)) {
				texts = append(texts, m)
			} else {
				rest = append(rest, a)
			}
		}
	}
	if c.Heredoc != "" && sqlStmtIn.MatchString(c.Heredoc) {
		texts = append(texts, c.Heredoc)
	}
	if len(texts) == 0 {
		return "", nil
	}
	stmt, _ = sqlRisk(strings.Join(texts, ";"))
	return stmt, rest
}

// searchOpts are the options whose value is what a search looks for
// (PowerShell's -Pattern, -SimpleMatch, -Like; a tool's --pattern,
// --grep), lowered: PowerShell reads them in any case.
var searchOpts = map[string]bool{"-pattern": true, "-simplematch": true, "-like": true, "-notlike": true, "-match": true, "-notmatch": true,
	"-searchstring": true, "-search": true, "--pattern": true, "--grep": true, "--search": true, "--regex": true, "--match": true}

// searchFor is the end of the text before a literal that makes the
// literal what a search looks for, not a statement run: a PowerShell
// parameter (Find-DbaStoredProcedure -Pattern 'DELETE FROM x',
// Select-String -SimpleMatch …), a keyword (pattern='…') or a regular
// expression call (re.search(r'DROP TABLE', s), grep(…), .match(…)).
var searchFor = re(`(?i)(?:-(?:pattern|simplematch|like|notlike|match|notmatch|searchstring|search|contains|notcontains)\s+|\bpattern\s*=\s*|\b(?:re\.\w+|grep|findall|search|match|matches|includes|contains|index|find)\s*\(\s*r?)['"]$`)

// searchedText: the first place lit stands in payload is a search's
// pattern (searchFor).
func searchedText(payload, lit string) bool {
	i := strings.Index(payload, lit)
	if i < 1 {
		return false
	}
	return searchFor.MatchString(payload[max(0, i-40):i])
}

// sqlConnHost finds the server a connection word names: host=H (libpq,
// GDAL's PG:), a URL's host, a DSN's @host.
var sqlConnHost = re(`(?i)(?:\bhost=|\bserver=|data source=|://(?:[^\s/@'"]*@)?)([\w.\[\]:-]+)`)

// codeHostKw is a database driver's host keyword in code (host='h',
// host="h", host = 'h').
var codeHostKw = re(`\bhost\s*=\s*['"]([^'"\s]+)['"]`)

// sqlWordName splits a connection word into the names it holds
// (dbname=acme_prod, dbi:Pg:dbname=x, PG:"host=… dbname=…").
func sqlWordNames(w string) []string {
	return strings.FieldsFunc(w, func(r rune) bool { return strings.ContainsRune(" =;:,'\"/@?&{}()[]", r) })
}

// carriedTarget says where the statement runs: "deny", "ask" or "" and
// what names it.
func carriedTarget(e *Env, c *Cmd, rest []string) (string, string) {
	for _, w := range c.Wrappers {
		if strings.HasPrefix(w, "kubectl exec") || strings.HasPrefix(w, "oc exec") || strings.HasPrefix(w, "ssh") {
			return "deny", "run on another host by " + w
		}
	}
	words := rest
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		k := m[1]
		if strings.Contains(k, "HOST") || strings.Contains(k, "URL") || strings.Contains(k, "DSN") || strings.Contains(k, "DB") || strings.Contains(k, "DATABASE") || opsList("prod-env")[k] {
			words = append(words, strings.Trim(m[2], `"'`))
		}
	}
	dev := false
	for _, w := range words {
		if (prodWord.MatchString(w) || prodConnName(w)) && !strings.HasPrefix(w, "-") {
			return "deny", w + " (production)"
		}
		for _, n := range sqlWordNames(w) {
			if prodConnName(n) && !strings.HasPrefix(w, "-") {
				return "deny", n + " (production)" // admin/x@ERPPRD
			}
			if devDBName.MatchString(n) || localDBWord[strings.ToLower(n)] {
				dev = true
			}
		}
	}
	sawHost := false
	for _, w := range words {
		for _, m := range sqlConnHost.FindAllStringSubmatch(w, -1) {
			if !localServer(m[1]) && !isLocalEndpoint(m[1]) {
				return "deny", "the server " + m[1]
			}
			dev, sawHost = true, true
		}
	}
	interp := c.Payload != "" && callfacts.IsInterpreter(c.Name)
	if interp {
		// a driver's keyword argument: pymysql.connect(host='127.0.0.1', …)
		for _, m := range codeHostKw.FindAllStringSubmatch(c.Payload, -1) {
			if !localServer(m[1]) && !isLocalEndpoint(m[1]) {
				return "deny", "the server " + m[1]
			}
			dev, sawHost = true, true
		}
	}
	if h := sqlServer(c); h != "" && !sawHost && !interp && !strings.HasPrefix(h, "/") {
		if !localServer(h) {
			return "deny", "the server " + h
		}
		dev = true
	}
	for _, w := range words {
		if strings.HasPrefix(w, "-") || !(dbFileExt.MatchString(w) || sqlFileClients[c.Name] && w == firstPos(c)) || callfacts.UnknownValue(w) {
			continue
		}
		p := e.abs(c, w)
		switch z := callfacts.ZoneOf(p, e.F.Home, e.F.Project); {
		case z == callfacts.ZoneProject || z == callfacts.ZoneTemp || z == callfacts.ZoneCache || z == callfacts.ZoneRepo:
			dev = true
		case sharedStorePath(p):
			return "deny", path.Base(p) + " on shared storage"
		case z == callfacts.ZoneHomeData || z == callfacts.ZoneHomeConfig || z == callfacts.ZoneCredentials || z == callfacts.ZoneSystem:
			return "deny", homeRel(p, e.F.Home) + " (" + string(z) + ")"
		default:
			return "ask", homeRel(p, e.F.Home)
		}
	}
	if dev || localTestDB(e.F.Command) {
		return "", ""
	}
	return "ask", "a database the line does not name"
}

// localDBWord: connection words for this machine's own database.
var localDBWord = map[string]bool{"localhost": true, "127.0.0.1": true, ":memory:": true, "memory": true, "local": true, "dev": true, "test": true,
	"development": true, "testing": true}

func firstPos(c *Cmd) string {
	if len(c.Pos) == 0 {
		return ""
	}
	return c.Pos[0]
}

// psHostRead: c is a PowerShell host (pwsh, powershell) whose text the
// reading parsed into cmdlets on the line: those carry the statement,
// and name the server it runs on.
func psHostRead(e *Env, c *Cmd) bool {
	switch strings.TrimSuffix(strings.ToLower(path.Base(c.Name)), ".exe") {
	case "pwsh", "powershell":
	default:
		return false
	}
	for i := range e.F.Commands {
		if e.F.Commands[i].PowerShell {
			return true
		}
	}
	return false
}

func payloadSQLRules() []Rule {
	judge := func(e *Env, c *Cmd) (string, string) {
		if onlyHelp(c) || e.dryRun(c) || c.Has("--dry_run", "--dry-run", "--explain") {
			return "", ""
		}
		if psHostRead(e, c) {
			return "", "" // pwsh -c "Invoke-DbaQuery -SqlInstance … -Query '…'": the cmdlet read from its text is judged, with its server
		}
		stmt, rest := carriedSQL(c)
		if stmt == "" {
			return "", ""
		}
		lvl, named := carriedTarget(e, c, rest)
		if len(stmt) > 80 {
			stmt = stmt[:80] + "…"
		}
		return lvl, c.Name + " runs " + stmt + " on " + named
	}
	fire := func(want string) func(e *Env) string { return anyAtLevel(judge, want) }
	trig := On(0, "sqlite3", "sqlite", "duckdb", "spatialite", "litecli", "ogrinfo", "ogr2ogr", "sqlite-utils").
		OrText("drop ", "DROP ", "Drop ", "truncate ", "TRUNCATE ", "delete ", "DELETE ", "Delete ", "update ", "UPDATE ", "Update ", "grant ", "GRANT ")
	return []Rule{
		{ID: "external.systems:sql-carried", Mode: Deny, Tools: shellTools, On: trig,
			Desc:  "A statement that drops, truncates, empties or bulk-changes a table, or grants administration, carried as text by a program no client table names (ogrinfo -sql, sqlite3 FILE 'SQL', dbt --args '{sql: …}', a DBI/driver call in a one-liner), aimed at production, a server that is not this machine, or a database file among the user's own or shared data",
			Match: fire("deny"),
			Catch: []string{`ogrinfo /mnt/shared/gis/master_parcels.gpkg -sql "DELETE FROM parcels"`, `sqlite3 ~/Zotero/zotero.sqlite "DELETE FROM items WHERE itemID NOT IN (SELECT itemID FROM collectionItems)"`,
				`dbt run-operation run_query --args '{sql: "drop schema analytics_prod.marts cascade"}' --target prod`, `perl -MDBI -e 'DBI->connect("dbi:Pg:dbname=acme_prod")->do("DELETE FROM account_payment")'`,
				`python3 -c "import psycopg2; psycopg2.connect('host=db.example.com dbname=app').cursor().execute('TRUNCATE orders')"`, `migrate-tool --dsn 'postgres://app@db.internal.example.com/app' --execute 'DROP TABLE users'`,
				`ogrinfo PG:"host=gis.example.org dbname=gis" -sql "DROP TABLE parcels"`},
			Allow: []string{`ogrinfo data/parcels.gpkg -sql "DELETE FROM parcels"`, `sqlite3 /tmp/scratch.db "DELETE FROM items"`, `ogrinfo /mnt/shared/gis/master_parcels.gpkg -sql "SELECT count(*) FROM parcels"`,
				`dbt run-operation run_query --args '{sql: "drop schema dev_alice.marts cascade"}' --target dev`, `perl -MDBI -e 'DBI->connect("dbi:SQLite:dbname=test.db")->do("DELETE FROM t")'`,
				`git commit -m "drop table users"`, `migrate-tool --dsn 'postgres://app@localhost/app' --execute 'DROP TABLE users'`, `dbt run-operation run_query --args '{sql: "drop schema analytics_prod.marts cascade"}' --target prod --dry-run`}},
		{ID: "external.systems:sql-carried-unknown", Mode: Ask, Tools: shellTools, On: trig,
			Desc:  "A statement that drops, truncates, empties or bulk-changes a table carried as text by a program no client table names, on a database the line does not name or a file outside the project: it may be shared or production data",
			Match: fire("ask"),
			Catch: []string{`mytool --sql "TRUNCATE events"`, `ogrinfo "$GPKG" -sql "DELETE FROM parcels"`, `python3 -c "import psycopg2,os; psycopg2.connect(os.environ['DSN']).cursor().execute('DELETE FROM orders')"`},
			Allow: []string{`mytool --sql "SELECT * FROM events"`, `mytool --sql "DELETE FROM events WHERE id = 4"`, `python3 -c "import sqlite3; sqlite3.connect('build/t.db').execute('DROP TABLE t')"`, `echo "DROP TABLE t"`}},
	}
}

// bulkWhere: a WHERE that picks rows by a range, a pattern or a subquery
// (date < '2024-01-01', id NOT IN (SELECT …)) rather than by a value
// (id = 4, login IN ('a','b')): it removes history in bulk. A window
// relative to now (expires < now()) is a routine expiry sweep.
func bulkWhere(s string) bool {
	m := sqlWhere.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	w := m[1]
	if sqlAllExcept.MatchString(w) && !sqlRollingWindow.MatchString(w) {
		return true // WHERE tenant='100' AND login<>'admin': every row but some (pack_sql_text.go)
	}
	return !sqlPicksValue.MatchString(w) && !sqlRollingWindow.MatchString(w) && sqlBulkCompare.MatchString(w)
}

var (
	sqlPicksValue    = re(`(?i)[^<>!=]=\s*('|"|-?\d|\$|:|\?|@|true|false|null)|\bin\s*\(\s*('|"|\d|\$)|\bis\s+null\b`)
	sqlRollingWindow = re(`(?i)now\(\)|current_(date|timestamp)|\binterval\b|sysdate|getdate\(|datetime\('now'|date\('now'|\.z\.[dpt]`)
	// sqlBulkCompare: a range, a pattern (LIKE, ILIKE, SIMILAR TO, a
	// regular expression: ~ 'x', REGEXP, RLIKE), a subquery, a key or
	// containment test on a document column (tags ? 'amenity', jsonb
	// ?| / ?&, @>): each picks a class of rows, not one. (IS NOT NULL is
	// left out: archived_at IS NOT NULL is a tombstone sweep, routine.)
	sqlBulkCompare = re(`(?i)[<>]|\bnot\s+in\b|\b(i|r)?like\b|\bbetween\b|\bnot\s+exists\b|\bsimilar\s+to\b|\bregexp\b|!?~\*?\s*'|\?[|&]?\s*(array\s*\[|')`)
)

// sqlDBName is the database a named client connects to: -d/--dbname/
// --database, or a psql/mysql positional, resolved through an assignment
// on the line (DB=dev_acme; psql "$DB"); "" when the line does not say.
func sqlDBName(e *Env, c *Cmd) string {
	n := optValue(c, "-d")
	for _, o := range []string{"--dbname", "--database", "-D"} {
		if n == "" {
			n = optValue(c, o)
		}
	}
	if n == "" && (c.Name == "psql" || c.Name == "mysql" || c.Name == "mariadb" || c.Name == "pgcli" || c.Name == "mycli") {
		for i, a := range c.Args {
			if i > 0 && strings.HasPrefix(c.Args[i-1], "-") && !strings.Contains(c.Args[i-1], "=") {
				continue // an option's value (-U postgres), not the database
			}
			if !strings.HasPrefix(a, "-") {
				n = a
				break
			}
		}
	}
	if v, ok := strings.CutPrefix(strings.Trim(n, `"{}`), "$"); ok {
		n = ""
		for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
			if m[1] == strings.Trim(v, "{}") {
				n = strings.Trim(m[2], `"'`)
			}
		}
	}
	if strings.ContainsAny(n, " /") || strings.HasPrefix(n, "-") {
		return ""
	}
	return n
}

// sqlDevOnly: a named client on this machine's server (no host named, no
// remote wrapper, nothing naming production) whose database — the one it
// connects to, or the one a DROP DATABASE names — is a dev or test one:
// the developer's own (psql -d gis_dev -c 'TRUNCATE …', docker exec
// postgis-dev psql -c 'DROP DATABASE gis_test').
func sqlDevOnly(e *Env, c *Cmd, text string) bool {
	if h := sqlServer(c); h != "" && !localServer(h) || hostElsewhere(e.F.Command) || prodMarker.MatchString(e.F.Command) {
		return false
	}
	for _, w := range c.Wrappers {
		if strings.HasPrefix(w, "kubectl") || strings.HasPrefix(w, "oc ") || strings.HasPrefix(w, "ssh") {
			return false
		}
	}
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if strings.HasSuffix(m[1], "HOST") || strings.HasSuffix(m[1], "_URL") || m[1] == "PGSERVICE" {
			return false
		}
	}
	if m := dropDBName.FindStringSubmatch(text); m != nil {
		return devDBName.MatchString(m[1]) && (sqlServer(c) != "" || testName(m[1]) || recreatesDB(text, m[1]))
	}
	if sqlServer(c) == "" && sqlDevConn(e, c) {
		return true // db2 connect to DEVDB, hdbsql -U TESTKEY: a dev or test database by its connection's name (pack_sql_text.go)
	}
	n := sqlDBName(e, c)
	if n == "" || !devDBName.MatchString(n) {
		return false
	}
	// as localDevDBFor: with no server named, a statement that drops or
	// empties needs a test database (a dev one may hold the developer's
	// hand-made state, and the socket's server is not shown)
	return sqlServer(c) != "" || !sqlEmpties.MatchString(text) || testName(n)
}

// sqlEmpties: a statement that drops or empties a table, schema or
// database.
var sqlEmpties = re(`(?i)\b(drop|truncate)\b|\bdelete\s+from\b`)

// recreatesDB: text drops database name and creates it again (DROP
// DATABASE IF EXISTS app_dev; CREATE DATABASE app_dev): a reset to an
// empty dev database, what its setup scripts do.
func recreatesDB(text, name string) bool {
	l := strings.ToLower(text)
	n := strings.ToLower(name)
	for _, q := range []string{"", "`", `"`} {
		if strings.Contains(l, "create database "+q+n+q) || strings.Contains(l, "create database if not exists "+q+n+q) {
			return true
		}
	}
	return false
}

var dropDBName = re(`(?i)^\s*drop\s+database\s+(?:if\s+exists\s+)?["` + "`" + `]?([\w-]+)`)

// sqlSecretRead: a SELECT that reads credentials — a password, secret,
// token or key column, or a settings table filtered for one.
var sqlSecretRead = re(`(?is)^\s*(select|copy\s*\(\s*select)\b.*?\b(password|passwd|password_hash|encrypted_password|secret|totp_secret|otp_secret|api_?key|access_token|refresh_token|private_key|pwdsaltedhash|authentication_string|spare4)\w*\b.*\bfrom\b|^\s*select\b.*\bwhere\b.*\b(i?like)\s+'%?(secret|token|password|key)%?'`)

// sqlSecretReaders are the database clients, and the platform CLIs that
// run a query given as an option (sf data query -q "SELECT … Password__c",
// aws rds-data execute-statement --sql): fp13.
var sqlSecretReaders = append(append([]string(nil), netSQLClients...), "sf", "sfdx", "aws")

// sqlSecretReadRule: credentials read out of a database into the
// conversation, on a server that is not the developer's own dev or test
// one.
func sqlSecretReadRule() Rule {
	return readsOnly(cmdRule("external.systems:sql-reads-secrets", Ask, "A SELECT that reads credentials (password, secret, token or key columns, a settings table filtered for them) out of a database that is not a local dev or test one: they are printed into the conversation", sqlSecretReaders,
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || localTestDB(e.F.Command) || localDevDB(e) {
				return ""
			}
			for _, s := range strings.Split(sqlOf(c), ";") {
				if sqlSecretRead.MatchString(s) && !sqlDevOnly(e, c, "") {
					s = strings.TrimSpace(s)
					if len(s) > 80 {
						s = s[:80] + "…"
					}
					return c.Name + " reads credentials out of the database: " + s
				}
			}
			return ""
		},
		[]string{`psql acme_prod -c "SELECT login, password FROM res_users"`, `psql acme_prod -c "SELECT key, value FROM ir_config_parameter WHERE key ILIKE '%secret%'"`, `mysql -h db.example.com shop -e "select email, api_key from users"`,
			`sf data query -o prod -q "SELECT Name, Password__c FROM Integration_Credential__c"`},
		[]string{`psql acme_prod -c "SELECT login FROM res_users"`, `psql -d app_dev -c "SELECT login, password FROM users"`, `psql -h localhost -d app_test -c "select token from sessions"`, `psql acme_prod -c "SELECT count(*) FROM users WHERE password IS NULL"`, `sf data query -o prod -q "SELECT Name, Industry FROM Account"`}))
}
