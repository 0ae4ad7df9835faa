package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// SQL given on a database client's command line is read for its
// statements: emptying a table (DELETE or UPDATE with no WHERE, or WHERE
// true), dropping, truncating, and granting administration (GRANT ALL,
// an admin role, a user that logs in from anywhere) are judged by where
// the client connects. A server named as not this machine (-h, a URL, a
// PGHOST-style variable, a production connection or dataset, a cloud
// warehouse, wrangler --remote) is denied; a server the line does not
// name asks; this machine is the developer's own.

// sqlTextOptions carry a statement for the clients that take one.
var sqlTextOptions = map[string]bool{"-c": true, "--command": true, "-e": true, "--execute": true, "-q": true, "--query": true,
	"-Q": true, "--sql": true, "--eval": true, "-E": false}

// netSQLClients are the database clients that talk to a server.
var netSQLClients = []string{"psql", "pgcli", "mysql", "mariadb", "mycli", "bq", "snowsql", "cqlsh", "clickhouse-client", "clickhouse",
	"trino", "presto", "cypher-shell", "sqlcmd", "cockroach", "mongosh", "mongo", "wrangler", "vsql", "impala-shell", "beeline", "spark-sql", "hdbsql", "usql", "gcloud", "databricks",
	"sqlplus", "isql", "db2", "dgmgrl", "mysqlsh", "snow", "heroku",
	"ksql", "aql", "hive", "sqlline", // ksqlDB, Aerospike, Hive CLI, Drill/Phoenix's sqlline
	"sql",           // Oracle SQLcl (sql -s user/pw@host:1521/SVC)
	"fly", "flyctl"} // fly postgres connect -a APP: a psql session on a Fly Postgres app (platformConsole)

// cloudWarehouses always run on a remote server.
var cloudWarehouses = map[string]bool{"bq": true, "snowsql": true, "databricks": true, "gcloud": true}

var (
	sqlChanges = re(`(?is)^\s*(delete\s+from\s+\S+|update\s+\S+\s+set\s|alter\s+table\s+\S+(\s+on\s+cluster\s+\S+)?\s+(delete|update)\s|match\s*\([^{}]*\)\s*(detach\s+)?delete\s)`)
	sqlWhere   = re(`(?is)\swhere\s+(.*)$`)
	sqlTrue    = re(`(?i)^\s*(true|1|1\s*=\s*1|'1'\s*=\s*'1'|1\s*<>\s*0)\s*$`)
	// sqlDrops: a statement that destroys what exists — any DROP (a
	// table, a Materialize cluster, source or sink, a publication, a
	// share; sqlScratchDrop leaves out temporary objects and caches),
	// TRUNCATE, a table's columns or partitions dropped, truncated or
	// cleared, its TTL changed (ClickHouse deletes the rows older than a
	// shorter TTL at the next merge), a data object created OR REPLACE over the live one, a
	// table's engine set to one that keeps nothing (INSERT OVERWRITE of
	// a partition from staging is a load: it asks, data12).
	sqlDrops = re(`(?is)^\s*(drop\s+\w|truncate\b|alter\s+table\s+(if\s+exists\s+)?(only\s+)?\S+(\s+on\s+cluster\s+\S+)?\s+(drop|truncate|clear\s+(column|index|projection)|discard\s+tablespace|replace\s+partition|modify\s+ttl)\b|alter\s+table\b.*\bengine\s*=\s*'?blackhole\b|` +
		`create\s+or\s+replace\s+((transient|dynamic|iceberg|hybrid|external|snapshot)\s+)?(table|database|schema|stage|share|secret|connection|cluster|source|sink|dataset)\b)`)
	// sqlScratchDrop: a DROP of what holds no shared data (a temporary
	// table, a session's prepared statement, a server's cache).
	sqlScratchDrop = re(`(?is)^\s*drop\s+((temp|temporary|prepare)\b|table\s+(if\s+exists\s+)?#|\w+(\s+\w+)?\s+cache\b)`)
	sqlAdmin       = re(`(?is)^\s*(grant\s+all\b|grant\s+(role\s+)?\S*(accountadmin|securityadmin|sysadmin|orgadmin|superuser|rds_superuser|cloudsqlsuperuser|db_owner|dba|admin)\b|grant\b.+\bwith\s+(grant|admin)\s+option|alter\s+(user|role)\s+\S+\s+(with\s+)?superuser|create\s+(user|role)\s+\S+.*\bsuperuser|create\s+user\s+\S*@\S*'%'|(create|alter)\s+user\b.*\b(identified\s+with\s+no_password|not\s+identified))`)
	// a table made, and one table dropped (sqlRisk pairs them)
	sqlCreateTable = re(`(?is)^\s*create\s+(?:or\s+replace\s+)?(?:temp\w*\s+)?table\s+(?:if\s+not\s+exists\s+)?([\w."` + "`" + `]+)`)
	sqlDropOne     = re(`(?is)^\s*drop\s+table\s+(?:if\s+exists\s+)?([\w."` + "`" + `]+)\s*$`)
	sqlAnyHost     = re(`(?is)'[^']*'@'%'|@'%'|\bhost\s+any\b`) // ClickHouse's HOST ANY
)

// sqlToJudge is the SQL text c runs, "" when c only shows its help or
// is a dry run.
func sqlToJudge(e *Env, c *Cmd) string {
	if onlyHelp(c) || e.dryRun(c) {
		return ""
	}
	return sqlOf(c)
}

// sqlcmdManages are the go-sqlcmd subcommands that manage its local
// containers and contexts (sqlcmd create mssql, sqlcmd config view):
// their operands name an engine, a context or an image, no statement.
var sqlcmdManages = map[string]bool{"create": true, "install": true, "delete": true, "uninstall": true, "start": true, "stop": true,
	"config": true, "open": true, "use": true, "completion": true}

// sqlOf is the SQL text the line shows c running.
func sqlOf(c *Cmd) string {
	if c.Name == "snow" && sub(c) != "sql" || (c.Name == "heroku" || c.Name == "fly" || c.Name == "flyctl") && platformConsole(c) == "" {
		return "" // snow's other commands (snow app, snow stage) take no statement
	}
	var b strings.Builder
	for i, a := range c.Args {
		k, v, hasV := strings.Cut(a, "=")
		if !sqlTextOptions[k] || c.Name == "wrangler" && k == "-e" || k == "-c" && (c.Name == "snowsql" || c.Name == "snow") {
			continue
		}
		if !hasV && i+1 < len(c.Args) {
			v = c.Args[i+1]
		}
		b.WriteString(v + ";")
	}
	if c.Name == "bq" && sub(c) == "query" || c.Name == "cypher-shell" || c.Name == "sqlcmd" && !sqlcmdManages[sub(c)] {
		for _, p := range c.Pos {
			b.WriteString(p + ";")
		}
	} else if sqlConsoles()[c.Name] {
		operandSQL(c, &b) // hdbsql -U KEY "DROP …", dgmgrl CONN "FAILOVER …"
	}
	b.WriteString(c.Heredoc)
	return b.String()
}

// sqlRisk returns the statement that empties, drops or grants
// administration, and whether it opens the database to any host.
func sqlRisk(text string) (stmt string, anyHost bool) {
	var made map[string]bool
	for _, s := range strings.Split(text, ";") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if m := sqlCreateTable.FindStringSubmatch(s); m != nil {
			if made == nil {
				made = map[string]bool{}
			}
			made[strings.ToLower(strings.Trim(m[1], "`\""))] = true // CREATE OR REPLACE is judged below still
		}
		if m := sqlDropOne.FindStringSubmatch(s); m != nil && made[strings.ToLower(strings.Trim(m[1], "`\""))] {
			continue // CREATE TABLE t …; DROP TABLE t: a scratch table the same text made
		}
		switch {
		case sqlAdmin.MatchString(s) || sqlAnyHost.MatchString(s) && strings.HasPrefix(strings.ToLower(s), "create user"):
			return s, sqlAnyHost.MatchString(text)
		case sqlDrops.MatchString(s) && !sqlScratchDrop.MatchString(s), sqlChanges.MatchString(s) && (everyRow(s) || bulkWhere(s)):
			stmt = s
		}
	}
	return stmt, false
}

// everyRow: a DELETE or UPDATE with no WHERE, or one that holds for
// every row (WHERE true, WHERE 1=1).
func everyRow(s string) bool {
	m := sqlWhere.FindStringSubmatch(s)
	return m == nil || sqlTrue.MatchString(m[1])
}

// sqlTarget says where c connects: "remote" (with what names it),
// "local", or "" when the line does not say.
func sqlTarget(e *Env, c *Cmd, text string) (string, string) {
	if devWarehouseConn(e, c) && !prodMarker.MatchString(text) {
		return "local", "" // snowsql -c dev: the developer's own account and role (pack_db_place.go)
	}
	if pc := platformConsole(c); pc != "" {
		return "remote", pc // heroku pg:psql -a APP, fly postgres connect -a APP
	}
	if cloudWarehouses[c.Name] || c.Name == "snow" {
		if n := warehouseConn(e, c); n != "" {
			return "remote", "the connection " + n
		}
		return "remote", c.Name + " runs in the cloud"
	}
	if sparkLocal(c) {
		return "local", "" // spark-sql --master local[2]: the engine and its warehouse run in this process
	}
	if m := sparkCluster(c); m != "" {
		return "remote", "--master " + m // spark-sql --master yarn -f x.sql: the cluster's shared metastore
	}
	if c.Name == "wrangler" {
		if c.Has("--remote") {
			return "remote", "--remote"
		}
		return "local", ""
	}
	if m, _ := prodMarkerOf(e, c); m != "" {
		return "remote", m
	}
	if n := namedConn(c); n != "" && prodWord.MatchString(n) && !callfacts.UnknownValue(n) {
		return "remote", "the connection " + n // mysql --login-path=prod, psql service=prod (pack_db_place.go)
	}
	if n := sqlDBName(e, c); n != "" && prodWord.MatchString(n) {
		return "remote", "the production database " + n // psql acme_prod -c …
	}
	if n := sqlProdConn(e, c, text); n != "" {
		return "remote", n // hdbsql -U PRDKEY, sqlplus u/p@PRODDB, sqlplus / as sysdba (pack_sql_text.go)
	}
	for _, w := range c.Wrappers {
		if strings.HasPrefix(w, "kubectl exec") || strings.HasPrefix(w, "oc exec") || strings.HasPrefix(w, "ssh") {
			return "remote", "run on another host by " + w // the client connects from there
		}
	}
	if projectContainer(e, c) {
		return "local", "" // docker exec proj-db-1 psql …: the project's own compose database
	}
	if prodWord.MatchString(text) && prodTable.MatchString(text) {
		return "remote", "a production table"
	}
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if k := m[1]; opsList("prod-env")[k] || strings.HasSuffix(k, "HOST") || strings.HasSuffix(k, "_URL") {
			if v := strings.Trim(m[2], `"'`); v != "" && !isLocalEndpoint(v) && !strings.HasPrefix(v, "/") {
				if !strings.HasSuffix(k, "HOST") && !strings.ContainsAny(v, ".:@/") && !prodWord.MatchString(v) {
					continue // PGDATABASE=lims_dev, PGSERVICE=local: a name, not a place (a production one still counts)
				}
				return "remote", k + "=" + v
			}
		}
	}
	host := sqlServer(c)
	if host == "" && c.Name == "cqlsh" && len(c.Pos) > 0 && !strings.Contains(c.Pos[0], " ") {
		host = c.Pos[0]
	}
	switch {
	case host == "":
		return "", ""
	case localServer(host) || mssqlLocal(host):
		if t := lineTunnel(e, c); t != "" {
			return "remote", t // cloud-sql-proxy INSTANCE --port 5433 & psql -h 127.0.0.1 -p 5433 (pack_db_place.go)
		}
		return "local", ""
	}
	return "remote", host
}

// platformConsole says which hosted database a platform CLI's SQL
// console opens (heroku pg:psql, fly postgres connect): the statements
// it reads from its input run there. "" for the CLI's other commands.
func platformConsole(c *Cmd) string {
	app := optValue(c, "-a") + optValue(c, "--app")
	switch {
	case c.Name == "heroku" && sub(c) == "pg:psql":
		return "the database of the Heroku app " + orUnknown(app+optValue(c, "-r"))
	case (c.Name == "fly" || c.Name == "flyctl") && len(c.Pos) > 1 && (c.Pos[0] == "postgres" || c.Pos[0] == "pg" || c.Pos[0] == "mpg") && c.Pos[1] == "connect":
		return "the Fly Postgres app " + orUnknown(app)
	}
	return ""
}

// prodTable: a table or dataset named for production (acme.prod.users).
var prodTable = re("(?i)(from|into|update|table|on)\\s+[`\"]?[\\w-]*\\.?(prod|production)[.`\"]")

func netSQLRules() []Rule {
	judge := func(e *Env, c *Cmd) (string, string) {
		if onlyHelp(c) || e.dryRun(c) || c.Has("--dry_run") {
			return "", ""
		}
		text := sqlOf(c)
		if text == "" {
			return "", ""
		}
		stmt, anyHost := sqlRisk(text)
		classOnly := false
		if stmt == "" {
			if stmt = classDelete(text); stmt == "" {
				if stmt = prodGroupChange(e, c, text); stmt == "" { // pack_sql_groupchange.go
					return "", ""
				}
			}
			classOnly = true // judged only where the server is named as another machine
		}
		if len(stmt) > 80 {
			stmt = stmt[:80] + "…"
		}
		if (devPlaceSQL(e, c, text) || cloudWarehouses[c.Name] && devScopedSQL(text)) && !anyHost {
			return "", "" // snowsql -c dev, psql postgres://…@127.0.0.1:54322/…: the developer's own (pack_db_place.go)
		}
		where, named := sqlTarget(e, c, text)
		if classOnly && (where != "remote" || dbTargetShared(e, c, text) == "") && !(where == "" && recordsClassDelete(stmt)) {
			return "", "" // a class of people's records on the server the environment picks asks (sql_records_classdelete.go)
		}
		switch {
		case anyHost:
			return "deny", c.Name + " creates a login that connects from any host with rights: " + stmt
		case where == "remote" && named == sqlServer(c) && oracleTestAlias(named):
			return "ask", c.Name + " runs " + stmt + " on the shared test database " + named // sql admin@ERPQA: the organisation's test copy
		case where == "remote":
			return "deny", c.Name + " runs " + stmt + " on a server that is not this machine (" + named + ")"
		case where == "" && !localTestDB(e.F.Command) && !sqlDevOnly(e, c, stmt) && !localTestDrop(e, c, text):
			return "ask", c.Name + " runs " + stmt + " on the server its environment picks"
		}
		return "", ""
	}
	return []Rule{
		cmdRule("external.systems:sql-remote", Deny, "SQL on a client's command line that empties a table (DELETE/UPDATE with no WHERE or WHERE true), drops, truncates or grants administration (GRANT ALL, an admin role, a login from '%'), sent to a server that is not this machine (-h, a URL, PGHOST, a production connection or dataset, bq/snowsql, wrangler d1 --remote)", netSQLClients,
			func(e *Env, c *Cmd) string {
				if lvl, why := judge(e, c); lvl == "deny" {
					return why
				}
				return ""
			},
			[]string{"bq query --use_legacy_sql=false 'DELETE FROM `acme.prod.users` WHERE true'", "PGHOST=db.prod.internal psql -U app -d app -c \"UPDATE users SET is_admin = true\"",
				"mysql -u root -e \"CREATE USER 'x'@'%' IDENTIFIED BY 'x'; GRANT ALL ON *.* TO 'x'@'%' WITH GRANT OPTION\"", "snowsql -c prod -q \"GRANT ROLE ACCOUNTADMIN TO USER DEV\"",
				"wrangler d1 execute prod-db --remote --command \"DROP TABLE users\"", "psql -h db.example.com -U app -c 'DELETE FROM orders'", "cqlsh cass.example.net -e 'TRUNCATE ks.events'",
				"clickhouse-client --host ch.example.com --query 'ALTER TABLE logs DROP COLUMN ip'", "sqlcmd -S sql.example.com -Q \"UPDATE accounts SET balance = 0\"", "kubectl -n prod exec deploy/api -- psql -c \"UPDATE users SET role='admin'\""},
			[]string{"psql -h localhost -c 'DELETE FROM sessions'", "psql -h db.example.com -c \"DELETE FROM sessions WHERE expires < now()\"", "bq query --dry_run 'DELETE FROM `acme.prod.users` WHERE true'",
				"wrangler d1 execute dev-db --local --command \"DROP TABLE users\"", "snowsql -c prod -q 'SELECT count(*) FROM users'", "mysql -h db.example.com -e 'UPDATE users SET name=\"x\" WHERE id=1'"}),
		cmdRule("external.systems:sql-unknown-server", Ask, "SQL on a client's command line that empties a table, updates every row or grants administration, on the server the environment picks (the line names no host): it may be production", netSQLClients,
			func(e *Env, c *Cmd) string {
				if localDevDB(e) {
					return "" // docker exec proj_db_1 psql -d app_dev: the developer's own database
				}
				if lvl, why := judge(e, c); lvl == "ask" {
					return why
				}
				return ""
			},
			[]string{"psql -c 'UPDATE users SET is_admin = true'", "mysql app -e 'GRANT ALL ON app.* TO dev'", "psql -d app -c \"DELETE FROM orders WHERE 1=1\""},
			[]string{"psql -c 'UPDATE users SET is_admin = true WHERE id = 1'", "psql -h localhost -d app -c 'UPDATE users SET x=1'", "mysql -e 'select 1'", "psql -d app_test -c 'DELETE FROM orders'"}),
	}
}

// localScratchRedis: FLUSHDB (not FLUSHALL) of a numbered database other
// than the default one on this machine's server (no host, or a local
// one): the index tests use, emptied between runs.
func localScratchRedis(c *Cmd) bool {
	a := lowerArgs(c)
	if h := optValue(c, "-h"); isLocalEndpoint(h) && optValue(c, "-u") == "" && !strings.Contains(a, "://") && len(c.Wrappers) == 0 {
		return true // the server named by its loopback address: this machine's own (dev) server, not a tunnel's far end (ssh -L is judged on its own)
	}
	if strings.Contains(a, "flushall") {
		return false
	}
	if h := optValue(c, "-h"); h != "" && !isLocalEndpoint(h) || optValue(c, "-u") != "" || strings.Contains(a, "://") {
		return false
	}
	n := optValue(c, "-n")
	return n != "" && n != "0" && strings.Trim(n, "0123456789") == ""
}

// sparkLocal: a Spark client (spark-sql, spark-submit, pyspark,
// spark-shell) started with --master local or local[N]: the engine runs
// inside the command and its tables are the local warehouse folder, not
// a cluster's.
// sparkCluster is the shared cluster a Spark client's --master names
// (yarn, k8s://, spark://, mesos:// on another host), "" for none.
func sparkCluster(c *Cmd) string {
	if !strings.HasPrefix(c.Name, "spark") && c.Name != "pyspark" {
		return ""
	}
	m := optValue(c, "--master")
	switch {
	case m == "yarn" || strings.HasPrefix(m, "yarn-"):
		return m
	case strings.HasPrefix(m, "k8s://") || strings.HasPrefix(m, "spark://") || strings.HasPrefix(m, "mesos://"):
		if !isLocalEndpoint(m) {
			return m
		}
	}
	return ""
}

func sparkLocal(c *Cmd) bool {
	if !strings.HasPrefix(c.Name, "spark") && c.Name != "pyspark" {
		return false
	}
	m := optValue(c, "--master")
	return m == "local" || strings.HasPrefix(m, "local[")
}
