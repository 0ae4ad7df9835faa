package policy

import (
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Production data destroyed, by any route. One reading of what a command
// runs — the statement a database client is given (-c, -e, -Q, a
// here-document, a file the line wrote, its input: sqlOf), the text a
// program no client table names carries (sqlite3 FILE 'SQL', q, bench
// execute), the code an interpreter or an app's runner is given
// (pykx's c('delete from `t …'), Model.where(…).destroy_all,
// frappe.db.delete) — looks for an effect that removes stored records:
//   - DELETE FROM (SQL, and q's delete … from), whatever its WHERE,
//     TRUNCATE, DROP of a table, database, schema, keyspace or
//     collection, TimescaleDB's drop_chunks;
//   - a document store's deleteMany/remove with any filter, a drop of a
//     collection or database, updateMany over every document;
//   - an ORM's or SDK's delete or destroy (destroy_all, delete_all,
//     ->delete(), .delete(), db.delete, delete_doc).
//
// When the line names the place it runs as production (the host, URL,
// DSN or its variable, the database, the connection, the site, the
// container or host a wrapper runs it in, a production host in the
// code's own strings), the records are gone: deny, even when a WHERE or
// a filter scopes it — a sweep of last week's rows on production is
// still production's rows. What stays at its level: a statement that
// pins exactly one row by the table's own key (WHERE id = 4211, WHERE
// email = '…': one record, a person's everyday fix, asks through the
// rules for shared servers), and every place not named production
// (unnamed, shared, dev, local), which the other SQL rules judge.
// UPDATE is a change, not a destroy, save a document store's update of
// every document (the SQL UPDATE without WHERE is already denied on a
// remote server by external.systems:sql-remote).

// prodDestroyTrig: the words of the effects above; the reader runs only
// when one is on the line.
var prodDestroyTrig = Trigger{}.OrText("delete", "DELETE", "Delete", "truncate", "TRUNCATE", "Truncate", "drop_chunks", "destroy", "remove(",
	"drop(", "dropDatabase", "updateMany(", "DROP ", "drop ", "Drop ")

var (
	// destroyDelete: a DELETE statement, SQL's or q's (delete from `t,
	// delete trade from `.), and the table it names.
	destroyDelete = re("(?is)\\bdelete\\s+(?:[\\w`.]+\\s+)?from\\s+([`\\w.$\"\\[\\]]+)")
	// destroyDataDrop: a DROP of what holds rows (not an index, a view,
	// a function or a user: their data is elsewhere), a TRUNCATE, a
	// table's column or partition dropped, TimescaleDB's drop_chunks.
	destroyDataDrop = re(`(?is)\b(drop\s+(table|database|schema|keyspace|collection|tablespace|catalog|measurement|series|retention\s+policy)\b|truncate\s+(table\s+)?[\w"` + "`" + `.]|alter\s+table\s+\S+\s+drop\s+(column|partition)\b|drop_chunks\s*\()`)
	// destroyDocs: a document store's bulk delete or drop (the filter is
	// read by docFilterPinned), or an update of every document.
	destroyDocs = re(`(?s)\.(deleteMany|remove|delete_many)\s*\(\s*(\{[^;]*?\})?\s*\)|\.(drop|dropDatabase|drop_database|drop_collection)\s*\(\s*\)|\.(updateMany|update_many)\s*\(\s*\{\s*\}`)
	// destroyORM: an ORM's or SDK's delete or destroy of records
	// (Account.default.destroy, Model.where(…).destroy_all,
	// qs.filter(…).delete(), $q->delete(), frappe.db.delete, delete_doc).
	destroyORM = re(`(\.|->|::)(destroy_all|delete_all|destroyAll|deleteAll|forceDelete|destroy)\b|(\.|->)delete\(\s*\)|\bdb\.delete\b|\bdelete_doc\b`)
	// ormPinned: the record is fetched by its key first (User.find(42),
	// .get(id=4), find_by(email: …), get_doc("Item", "X")): one row.
	ormPinned = re(`(?i)(\.find\(\s*['"]?\w+['"]?\s*\)|\.get\(\s*(pk|id)\s*=|\bfind_by(_id)?\(|\bget_doc\(|\bfindById\(|\bfind_or_fail\(|\bfindOrFail\()[^;\n]*$`)
	// docFilterPinned: a document filter naming only the _id.
	docFilterPinned = re(`^\{\s*"?_id"?\s*:\s*[^,{}]*(\([^)]*\))?\s*\}$`)
	sqlExplainOnly  = re(`(?is)^\s*explain\b(\s+(plan\s+for|query\s+plan|format\s*=?\s*\w+|verbose|\((costs|verbose|format|type)[^)]*\)))*\s*(delete|truncate|drop|with|update)\b`)
	sqlExplainRuns  = re(`(?is)^\s*explain\s*\([^)]*\banaly[sz]e\b`)
	sqlOrWord       = re(`(?i)\bor\b`)
	sqlAndWord      = re(`(?i)\s+and\s+`)
	// sqlKeyValueEq: col = a value (a number, a quoted string, a bind
	// parameter), not a placeholder a loop fills ({}, $id from xargs).
	sqlKeyValueEq = re(`(?is)^\(?\s*([\w."` + "`" + `\[\]]+)\s*=\s*('[^']*'|"[^"]*"|-?\d+|\$\d+|:\w+|\?)\s*\)?\s*$`)
	// codePlaceLit: a string in code that is a place (host, host:port,
	// URL, DSN, an environment variable's name), not prose or a file.
	codeDataFile = re(`(?i)\.(parquet|csv|tsv|json|jsonl|sql|py|rb|js|txt|ya?ml|xlsx?|gz|zip|tar|log|db|sqlite3?|pkl|h5|npy|png|jpe?g|pdf)$`)
)

// destroyStmt is the first effect of text that removes stored records,
// "" when it has none or its one delete pins a single row by its key.
// code: text is program code, where ORM and document calls count.
func destroyStmt(text string, code bool) string {
	if text == "" {
		return ""
	}
	// in a client's statements a quoted string is a value, never a
	// statement (WHERE query_text ILIKE '%truncate table%'): it is read
	// blanked; in code the statement is itself a string, and starts one
	scan := text
	if !code {
		scan = blankSQLStrings(text)
	}
	off := 0
	for _, st := range splitStatements(scan) {
		orig := text[off : off+len(st)]
		off += len(st) + 1
		if explainOnly(st) {
			continue // EXPLAIN DELETE …: the plan, not the rows (EXPLAIN ANALYZE runs it)
		}
		if ms := destroyDelete.FindAllStringSubmatchIndex(st, 1); ms != nil && stmtStart(st, ms[0][0], code) {
			m := ms[0]
			if !sqlPinsOneRow(orig[m[0]:], orig[m[2]:m[3]]) {
				return orig[m[0]:]
			}
		}
		if ms := destroyDataDrop.FindAllStringIndex(st, 1); ms != nil && stmtStart(st, ms[0][0], code) && !sqlScratchDrop.MatchString(st[ms[0][0]:]) {
			return orig[ms[0][0]:]
		}
	}
	for _, m := range destroyDocs.FindAllStringSubmatchIndex(text, -1) {
		if m[4] >= 0 && docFilterPinned.MatchString(text[m[4]:m[5]]) {
			continue // deleteMany({_id: ObjectId("…")}): one document
		}
		return text[m[0]:m[1]]
	}
	if code {
		for _, m := range destroyORM.FindAllStringIndex(text, -1) {
			start := strings.LastIndexAny(text[:m[0]], ";\n") + 1
			if ormPinned.MatchString(text[start:m[0]]) {
				continue // User.find(42).destroy: one record
			}
			return strings.TrimSpace(text[start:m[1]])
		}
	}
	return ""
}

// explainOnly: st asks for the plan of a change (EXPLAIN DELETE …,
// EXPLAIN (TYPE DISTRIBUTED) DELETE …), not for running it: EXPLAIN
// ANALYZE, also inside the parentheses, runs the statement.
func explainOnly(st string) bool {
	return sqlExplainOnly.MatchString(st) && !sqlExplainRuns.MatchString(st)
}

// stmtStart: in code, a statement starts a string, a line or a
// statement (execute('DELETE …'), h"delete from `t"); a word inside
// prose or a value is none. drop_chunks is a call, read anywhere.
func stmtStart(st string, i int, code bool) bool {
	if !code || strings.HasPrefix(strings.ToLower(st[i:]), "drop_chunks") {
		return true
	}
	j := i - 1
	for j >= 0 && (st[j] == ' ' || st[j] == '\t') {
		j--
	}
	if j < 0 || st[j] == '\n' || st[j] == '(' || st[j] == ';' {
		return true
	}
	if strings.IndexByte("'\"`", st[j]) < 0 {
		return false
	}
	k := j - 1
	for k >= 0 && st[k] == ' ' {
		k--
	}
	return k < 0 || strings.IndexByte("=<>", st[k]) < 0 // cmd = 'drop table x': a value compared
}

// blankSQLStrings is text with the insides of its single-quoted strings
// blanked, the same length.
func blankSQLStrings(text string) string {
	b := []byte(text)
	in := false
	for i := range b {
		switch {
		case b[i] == '\'':
			in = !in
		case in && b[i] != '\n':
			b[i] = ' '
		}
	}
	return string(b)
}

// splitStatements splits text at its statement ends (;), keeping a
// statement's lines together.
func splitStatements(text string) []string {
	return strings.Split(text, ";")
}

// sqlPinsOneRow: a DELETE whose WHERE pins one row by the table's own
// key (id = 4211, email = '…', the table's <name>_id) with no OR: at
// most one record goes.
func sqlPinsOneRow(st, table string) bool {
	w := sqlWhere.FindStringSubmatch(st)
	if w == nil || sqlOrWord.MatchString(w[1]) {
		return false
	}
	table = strings.Trim(table, "`")
	for _, part := range splitAt(w[1], sqlAndWord) {
		// the statement may end inside code (c.execute('DELETE … id = 4')"):
		// the code's own closing quotes are trimmed, then a value's
		// closing quote is tried back
		part = strings.TrimRight(strings.TrimSpace(part), "'\")}\n\t ")
		for _, v := range []string{part, part + "'", part + `"`} {
			if m := sqlKeyValueEq.FindStringSubmatch(v); m != nil && ownKeyColumn(m[1], table) {
				return true
			}
		}
	}
	return false
}

// sqlOwnKeyWord: a column that is a row's own key in any table.
var sqlOwnKeyWord = re(`(?i)^(id|uuid|guid|pk|_id|oid|rowid|ctid|email|e_?mail_address|username|user_?name|login|slug|key)$`)

// ownKeyColumn: col is table's own key — a key word, or the table's
// name, or its last word, with _id, id, _uuid, _key, _code, _no
// (orders.order_id, dbo.Orders.OrderId, FCT_EVENTS.EVENT_ID). A parent's key or a class's
// code (store_id on transactions, term_code on grades) picks a group.
// (Stricter than rowKeyColumn, which also reads names and codes as keys
// for the group changes it judges.)
func ownKeyColumn(col, table string) bool {
	col = strings.ToLower(lastDotted(col))
	if sqlOwnKeyWord.MatchString(col) {
		return true
	}
	t := strings.ToLower(lastDotted(table))
	for _, suf := range []string{"_id", "id", "_uuid", "uuid", "_key", "_code", "_no", "_number"} {
		base, ok := strings.CutSuffix(col, suf)
		if !ok || base == "" {
			continue
		}
		last := t[strings.LastIndex(t, "_")+1:] // fct_events: events (a prefix is a layer's or a parent's name)
		for _, part := range []string{t, strings.TrimPrefix(t, "tbl_"), strings.TrimPrefix(t, "tab"), last} {
			if part == base || strings.TrimSuffix(part, "s") == base || strings.TrimSuffix(part, "es") == base || strings.TrimSuffix(part, "ies")+"y" == base {
				return true
			}
		}
	}
	return false
}

// splitAt splits s at every match of sep.
func splitAt(s string, sep *lazyRE) []string {
	var out []string
	last := 0
	for _, m := range sep.FindAllStringIndex(s, -1) {
		out = append(out, s[last:m[0]])
		last = m[1]
	}
	return append(out, s[last:])
}

// destroyText is what c runs that may destroy records, and whether it is
// program code: a client's statement, an interpreter's or runner's code,
// or the words and fed text of a program no client table names.
func destroyText(c *Cmd) (string, bool) {
	if sqlCarrierSkip[c.Name] || callfacts.IsShell(c.Name) && c.Payload != "" {
		return "", false // echo 'DELETE …' > f, sh -c '…': the commands that run it are read on their own
	}
	if slices.Contains(netSQLClients, c.Name) {
		return sqlOf(c), c.Name == "mongosh" || c.Name == "mongo"
	}
	var b strings.Builder
	for i, a := range c.Args {
		if i > 0 && sqlMessageOpts[c.Args[i-1]] {
			continue
		}
		b.WriteString(a + ";\n")
	}
	b.WriteString(c.Payload + ";\n" + c.Heredoc)
	return b.String(), true
}

// destroyPlaceOpts: a program's options naming where it acts (beyond
// remoteops.txt prod-option-any).
var destroyPlaceOpts = map[string]bool{"--site": true, "--host": true, "-H": true, "--server": true, "-S": true, "--url": true, "--uri": true,
	"--dsn": true, "--database": true, "--db": true, "--conn": true, "--connection": true, "-e": true, "--env": true, "--environment": true, "--ssh": true}

// prodDataPlace says what names the place c's statement runs as
// production, "" when nothing does.
func prodDataPlace(e *Env, c *Cmd, text string) string {
	if slices.Contains(netSQLClients, c.Name) {
		if w, n := sqlTarget(e, c, text); w == "remote" && prodMarker.MatchString(n) {
			return n
		}
		if h := hiddenServer(e, c); h != "" && prodMarker.MatchString(h) {
			return h
		}
	}
	for _, w := range c.Wrappers {
		if _, target, ok := strings.Cut(w, " "); ok && prodMarker.MatchString(target) && !strings.HasPrefix(w, "xargs") && !strings.HasPrefix(w, "watch") {
			return "run by " + w // docker exec canvas-prod-web …, ssh db@x-prod …
		}
	}
	if c.Remote != "" && prodMarker.MatchString(c.Remote) {
		return c.Remote
	}
	if s := prodOptValue(c, opsList("prod-option-any")); s != "" {
		return s
	}
	if s := optValueWhere(c, destroyPlaceOpts, func(v string) bool { return prodMarker.MatchString(v) && !strings.ContainsAny(v, " \n;(") }); s != "" {
		return s // bench --site payroll.prod.acme.internal
	}
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		k, v := m[1], strings.Trim(m[2], `"'`)
		if (strings.Contains(k, "HOST") || strings.Contains(k, "URL") || strings.Contains(k, "URI") || strings.Contains(k, "DSN") || strings.Contains(k, "DB") ||
			strings.Contains(k, "DATABASE") || opsList("prod-env")[k]) && (prodWord.MatchString(v) || prodVar.MatchString(v)) {
			return k + "=" + v
		}
	}
	for _, p := range c.Pos {
		if placeWord(p) && prodMarker.MatchString(p) {
			return p // a host or URL among the program's operands
		}
	}
	if c.Payload != "" || c.Heredoc != "" {
		for _, l := range callfacts.Literals(c.Payload + "\n" + c.Heredoc) {
			if placeWord(l) && prodWord.MatchString(l) {
				return l // kx.SyncQConnection('kdb-prod-hdb01', 5012), os.environ['PROD_DB_URL']
			}
		}
	}
	return ""
}

// placeWord: a word that names a place — a host, host:port, a URL, a
// DSN, an environment variable's name — not prose, a statement or a
// data file.
func placeWord(w string) bool {
	if w == "" || strings.HasPrefix(w, "-") || codeDataFile.MatchString(w) {
		return false
	}
	if strings.Contains(w, "://") || strings.Contains(w, "host=") || strings.Contains(w, "dbname=") {
		return true
	}
	if strings.ContainsAny(w, " \t\n;(){}'\"`") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, ".") || strings.HasPrefix(w, "~") || strings.Contains(w, "/") {
		return false
	}
	return true
}

// prodDataDestroyRule: records removed from a place the line names as
// production, by any route and whatever the scope.
func prodDataDestroyRule() Rule {
	judge := func(e *Env, c *Cmd) string {
		if onlyHelp(c) || e.dryRun(c) || c.Has("--dry_run", "--dry-run", "--explain") {
			return ""
		}
		text, code := destroyText(c)
		st := destroyStmt(text, code)
		if st == "" {
			return ""
		}
		where := prodDataPlace(e, c, text)
		if where == "" {
			return ""
		}
		st = strings.Join(strings.Fields(st), " ")
		if len(st) > 80 {
			st = st[:80] + "…"
		}
		return c.Name + " removes production's records (" + where + "): " + st
	}
	return Rule{ID: "external.systems:prod-data-destroy", Mode: Deny, Tools: shellTools, On: prodDestroyTrig,
		Desc: "Records removed from a place the line names as production — a DELETE (even with a WHERE or a window), TRUNCATE, DROP of a table or database, drop_chunks, a document store's deleteMany or drop, an ORM's delete or destroy — by any route (-c/-e/-Q, a here-document, a file the line wrote, xargs, ssh, docker exec, code given to an interpreter or an app's runner); a DELETE that pins one row by its own key (WHERE id = 4211) stays a question",
		Match: func(e *Env) string {
			if !mayNameProd(e.F.Command) && !prodMarker.MatchString(e.F.Command) {
				return "" // no word for production on the line (prod, prd, live; BANPROD, ERPPRD)
			}
			for i := range e.F.Commands {
				if why := judge(e, &e.F.Commands[i]); why != "" {
					return why
				}
			}
			return ""
		},
		Catch: []string{`psql -h historian-prod.example.net -U app hist <<'SQL'` + "\nDELETE FROM readings WHERE ts < now() - interval '1 day';\nSQL",
			`mysql -h listings-db-prod.example.com shop -e "DELETE FROM agents WHERE office_id = 42"`, `psql "$TSDB_PROD_URL" -c "SELECT drop_chunks('metrics', older_than => INTERVAL '1 day')"`,
			`docker exec app-prod-web bundle exec rails runner 'Account.where(plan: "trial").destroy_all'`, `mongosh "$MONGO_PROD_URI" --eval 'db.events.deleteMany({ts: {$lt: new Date("2024-01-01")}})'`,
			`python3 -c "import pykx as kx; c=kx.SyncQConnection('kdb-prod-01',5012); c('delete from ` + "`" + `quote where date=.z.D-1')"`},
		Allow: []string{`psql "$PROD_DATABASE_URL" -c "DELETE FROM users WHERE id = 4211"`, `psql -h historian-prod.example.net -c "SELECT count(*) FROM readings WHERE ts < now() - interval '1 day'"`,
			`psql -h localhost -d shop_dev -c "DELETE FROM orders WHERE created_at < now() - interval '1 day'"`, `mongosh "$MONGO_PROD_URI" --eval 'db.events.deleteOne({_id: ObjectId("65f0c1")})'`,
			`docker exec app-dev-web bundle exec rails runner 'Account.where(plan: "trial").destroy_all'`, `echo "DELETE FROM users" > prod_cleanup.sql`}}
}
