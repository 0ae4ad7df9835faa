package policy

import (
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// SQL the line does not show, fed to a shared target. A cloud
// warehouse's client reads a query from its input or a file as psql
// does (bq query < backfill.sql, snow sql -c prod -f fix.sql): the
// statements run on the warehouse, which is never this machine, so
// core.sql:run-file asks. And a database client started on another host
// by ssh reads the local file the line feeds ssh (ssh web-01 'psql
// shop' < fix.sql): the statements run there, unseen.

// warehouseSQLCmd: c is a warehouse client's subcommand that runs SQL
// (bq query without the query on the line, snow sql), or a client that
// is no warehouse CLI.
func warehouseSQLCmd(c *Cmd) bool {
	switch c.Name {
	case "bq":
		return sub(c) == "query" && len(c.Pos) == 1 // bq query 'SELECT …' shows its statement
	case "snow":
		return sub(c) == "sql"
	}
	return true
}

// sshSQLClient is the database client ssh's remote command starts ("" for
// none): the program after sudo -u USER, env and VAR=value words.
func sshSQLClient(payload string) string {
	w := strings.Fields(payload)
	for len(w) > 0 {
		name := callfacts.ProgramName(strings.Trim(w[0], `'"`))
		switch {
		case name == "sudo" || name == "env" || name == "nice" || name == "time":
			w = callfacts.SkipFlags(w[1:], "ugpCn")
			continue
		case strings.Contains(w[0], "="):
			w = w[1:]
			continue
		case slices.Contains(callfacts.SQLServerClients, name) || name == "sqlplus" || name == "mysqlsh":
			for _, a := range w[1:] {
				a = strings.Trim(a, `'"`)
				if a == "-c" || a == "-e" || a == "--command" || a == "--execute" || a == "-f" || a == "--file" {
					return "" // the statements are its own option's, or a file there
				}
			}
			return name
		}
		return ""
	}
	return ""
}

// sqlAccessChange: a statement that changes who may do what in bulk —
// a GRANT on every table of a schema, future objects, a whole schema,
// database or account — or takes access away (REVOKE: others' jobs
// fail). A grant on one object to a reader role stays allowed (the
// data12 and miss3 corpora decided so), ALTER is judged by the
// warehouse rules, administrative grants are sqlAdmin's (denied).
var sqlAccessChange = re(`(?is)^\s*(grant\b.*?\bon\s+(all|future|schema|database|account)\b|revoke\b)`)

// sqlAccessRemoteRule: a bulk GRANT or a REVOKE sent to a server that is
// not this machine (snow sql -c prod -q "GRANT SELECT ON ALL TABLES IN
// SCHEMA … TO ROLE ANALYST", psql -h db.prod… -c "REVOKE …"): an undoable change of
// shared state, so it asks; the developer's own database and a dev
// connection stay allowed.
func sqlAccessRemoteRule() Rule {
	return cmdRule("external.systems:sql-access-remote", Ask, "SQL on a client's command line that grants in bulk or revokes (GRANT SELECT ON ALL TABLES IN SCHEMA … TO ROLE, GRANT … ON FUTURE TABLES, REVOKE), sent to a server that is not this machine (a production connection, a cloud warehouse, -h, a URL): who may read shared data changes; a grant on one object stays allowed", netSQLClients,
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || e.dryRun(c) || c.Has("--dry_run") {
				return ""
			}
			text := sqlOf(c)
			if text == "" || devPlaceSQL(e, c, text) {
				return ""
			}
			for _, st := range strings.Split(text, ";") {
				if !sqlAccessChange.MatchString(st) {
					continue
				}
				if where, why := sqlTarget(e, c, text); where == "remote" {
					return c.Name + " changes access in bulk on " + why + ": " + short80(strings.TrimSpace(st))
				}
				return ""
			}
			return ""
		},
		[]string{`snow sql -c prod -q "GRANT SELECT ON ALL TABLES IN SCHEMA MARTS.FINANCE TO ROLE ANALYST"`, `psql -h db.prod.acme.io -c "REVOKE INSERT ON orders FROM app_rw"`, `snowsql -c etl -q "GRANT SELECT ON FUTURE TABLES IN SCHEMA RAW.CRM TO ROLE BI"`},
		[]string{`snow sql -c dev -q "GRANT SELECT ON x TO ROLE y"`, `psql -h localhost -c "REVOKE SELECT ON x FROM y"`, `snowsql -c prod -q "GRANT SELECT ON VIEW MARTS.V_ORDERS TO ROLE FINANCE_READER"`, `snow sql -c prod -q "SELECT grant_id FROM grants"`})
}
