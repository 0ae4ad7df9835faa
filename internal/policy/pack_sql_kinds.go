package policy

import (
	_ "embed"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

//go:embed sqlkinds.txt
var sqlKindsText string

type sqlKind struct {
	down   bool // a security downgrade (pack_sql_text.go judges it)
	deny   bool
	always bool // deny!: denied on this machine's server too (backups deleted)
	pat    *regexp.Regexp
}

// sqlKinds reads sqlkinds.txt once.
var sqlKinds = sync.OnceValue(func() []sqlKind {
	var out []sqlKind
	datatable.Must("sqlkinds.txt", sqlKindsText, 2, func(l datatable.Line) error {
		lvl, pat, _ := strings.Cut(l.Text, " ") // the pattern is the rest of the line, spaces and all
		if lvl != "deny" && lvl != "ask" && lvl != "deny!" && lvl != "down" {
			return l.Errorf("level %q: want deny, deny!, down or ask", lvl)
		}
		re, err := regexp.Compile(`(?is)` + strings.TrimSpace(pat))
		if err != nil {
			return l.Errorf("pattern: %v", err)
		}
		out = append(out, sqlKind{deny: lvl != "ask", always: lvl == "deny!", down: lvl == "down", pat: re})
		return nil
	})
	return out
})

// warehouseClients add the SQL consoles of lakehouses to the clients
// pack_netsql.go reads.
var warehouseClients = slices.Concat(netSQLClients, []string{"dbsqlcli", "duckdb", "athena", "redshift-data", "sqlcmd", "osql", "rman"})

// cloudConsoles are lakehouse SQL consoles that only talk to the cloud.
var cloudConsoles = map[string]bool{"dbsqlcli": true, "athena": true, "redshift-data": true}

// cloudURL: a statement that reads or writes a bucket works on data
// outside this machine even from a local engine (duckdb COPY TO 's3://').
var cloudURL = re(`(?i)'(s3a?|gs|gcs|az|abfss?|r2)://`)

// publicBucket: a destination bucket named as public or shared.
var publicBucket = re(`(?i)'(s3a?|gs|gcs|az|abfss?|r2)://[^/']*(public|share|partner|external|ext-)`)

// sqlKindOf is the first sqlkinds.txt statement in text and its level;
// always: denied wherever the server is.
func sqlKindOf(text string) (string, bool, bool) {
	for _, s := range strings.Split(text, ";") {
		s = strings.TrimSpace(s)
		for _, k := range sqlKinds() {
			if s != "" && !k.down && k.pat.MatchString(s) {
				return s, k.deny || publicBucket.MatchString(s), k.always
			}
		}
	}
	return "", false, false
}

func sqlKindRules() []Rule {
	judge := func(e *Env, c *Cmd) (string, bool) {
		if onlyHelp(c) || e.dryRun(c) || c.Has("--dry_run") {
			return "", false
		}
		text := sqlOf(c)
		if text == "" {
			return "", false
		}
		stmt, deny, always := sqlKindOf(text)
		if stmt == "" {
			return "", false
		}
		if len(stmt) > 80 {
			stmt = stmt[:80] + "…"
		}
		if always {
			return c.Name + " runs " + stmt + ": the database's backups are deleted", true
		}
		where, named := sqlTarget(e, c, text)
		if where == "local" && !cloudURL.MatchString(stmt) || where == "" && (localTestDB(e.F.Command) || sqlDevOnly(e, c, stmt)) {
			return "", false
		}
		if where == "" && cloudConsoles[c.Name] {
			where, named = "remote", c.Name+" runs in the cloud"
		}
		if where == "" && cloudURL.MatchString(stmt) {
			where, named = "remote", "a bucket"
		}
		if where != "remote" {
			deny = false
			named = "the server its environment picks"
		}
		return c.Name + " runs " + stmt + " (" + named + ")", deny
	}
	fire := func(wantDeny bool) func(e *Env, c *Cmd) string {
		return func(e *Env, c *Cmd) string {
			if why, deny := judge(e, c); why != "" && deny == wantDeny {
				return why
			}
			return ""
		}
	}
	return []Rule{
		cmdRule("external.systems:sql-exposure", Deny, "A warehouse statement that opens data to every user (GRANT … TO PUBLIC), switches off the account's network policy or a server's shell (xp_cmdshell), vacuums away all history (RETAIN 0 HOURS) or copies data to a public bucket, on a server that is not this machine; the statements are data (policy/sqlkinds.txt)", warehouseClients,
			fire(true),
			[]string{`snowsql -c analytics -q "GRANT SELECT ON ALL VIEWS IN SCHEMA HR.PAYROLL TO ROLE PUBLIC"`, `snowsql -a acme -q "ALTER ACCOUNT UNSET NETWORK_POLICY"`,
				`sqlcmd -S db01.corp.example.com -Q "EXEC sp_configure 'xp_cmdshell', 1; RECONFIGURE"`, "dbsqlcli -e 'VACUUM main.gold.events RETAIN 0 HOURS'",
				`duckdb local.db -c "COPY users TO 's3://partner-share-bucket/users.csv'"`, `snowsql -c x -q "ALTER DATABASE RAW SET DATA_RETENTION_TIME_IN_DAYS = 0"`},
			[]string{`snowsql -c analytics -q "GRANT SELECT ON VIEW HR.HEADCOUNT TO ROLE ANALYST"`, `snowsql -c analytics -q "SHOW NETWORK POLICIES"`, `sqlcmd -S localhost -Q "EXEC sp_configure 'xp_cmdshell', 1"`,
				"duckdb dev.db -c 'VACUUM'", `duckdb local.db -c "COPY users TO 'users.csv'"`}),
		cmdRule("external.systems:sql-maintenance", Ask, "A warehouse statement that destroys table history (VACUUM … RETAIN, expire_snapshots, remove_orphan_files, retention 0), sizes a warehouse up or stops it suspending, or copies data out to a bucket; the statements are data (policy/sqlkinds.txt)", warehouseClients,
			fire(false),
			[]string{`trino --server https://trino.example.com --execute "CALL iceberg.system.expire_snapshots('db', 'events', TIMESTAMP '2024-01-01 00:00:00')"`, `snowsql -c x -q "ALTER WAREHOUSE ETL_WH SET AUTO_SUSPEND = 0"`,
				`spark-sql -e "VACUUM sales.orders RETAIN 24 HOURS"`, `snowsql -c x -q "COPY INTO 's3://acme-exports/q3/' FROM orders"`},
			[]string{`trino --server https://trino.example.com --execute "SELECT * FROM iceberg.db.\"events$snapshots\""`, `snowsql -c x -q "ALTER WAREHOUSE ETL_WH SET AUTO_SUSPEND = 60"`, `snowsql -c x -q "ALTER WAREHOUSE ETL_WH SET WAREHOUSE_SIZE = 'SMALL'"`,
				`spark-sql -e "DESCRIBE HISTORY sales.orders"`, `duckdb dev.db -c "COPY orders TO 'out/orders.parquet'"`, "psql -h localhost -c 'VACUUM ANALYZE'"}),
	}
}
