package policy

import (
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// The database a client talks to, from every way the line names it. A
// loopback address is this machine only when the line opens no tunnel
// to it: cloud-sql-proxy PROJECT:REGION:INSTANCE --port 5433, ssh -L
// 5433:db.internal:5432, kubectl port-forward svc/pg 5433:5432 or
// flyctl proxy 5433:5432 -a app-db make 127.0.0.1:5433 that instance.
// A warehouse client's named connection (snowsql -c dev, snow sql
// --connection dev_jdoe) is the account and role the developer set up
// for that place: one named for development is the developer's own. And
// a statement that writes (UPDATE … WHERE, ALTER, REINDEX, MERGE, INSERT …
// SELECT, GRANT) on a server that is not this machine asks: it changes
// what others read, even when its WHERE picks one row.

// tunnelCmds open a local port that reaches another machine's database.
var tunnelCmds = map[string]bool{"cloud-sql-proxy": true, "cloud_sql_proxy": true, "ssh": true, "autossh": true, "kubectl": true, "oc": true,
	"fly": true, "flyctl": true, "alloydb-auth-proxy": true, "pscale": true, "az": true, "aws": true, "gcloud": true, "socat": true}

// tunnelPort: the local port a tunnel command listens on, "" when it
// says none (a proxy's default port); what it reaches; ok when c opens
// a tunnel at all.
func tunnelOf(c *Cmd) (port, reaches string, ok bool) {
	line := strings.Join(c.Args, " ")
	switch c.Name {
	case "cloud-sql-proxy", "cloud_sql_proxy", "alloydb-auth-proxy":
		for _, p := range c.Pos {
			if strings.Count(p, ":") >= 2 || strings.HasPrefix(p, "projects/") {
				reaches = p
			}
		}
		if m := proxyInstances.FindStringSubmatch(line); m != nil {
			reaches, port = m[1], m[2]
		}
		if v := optValue(c, "--port"); v != "" {
			port = v
		} else if v := optValue(c, "-p"); v != "" {
			port = v
		}
		return port, orUnknown(reaches), true
	case "ssh", "autossh":
		for i, a := range c.Args {
			v := ""
			switch {
			case a == "-L" && i+1 < len(c.Args):
				v = c.Args[i+1]
			case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "L") && i+1 < len(c.Args):
				v = c.Args[i+1] // ssh -fNL 5433:db:5432 host
			case strings.HasPrefix(a, "-L") && len(a) > 2:
				v = a[2:]
			}
			if f := strings.Split(v, ":"); len(f) >= 3 {
				reaches = f[len(f)-2]
				if isLocalEndpoint(reaches) && len(c.Pos) > 1 {
					reaches = c.Pos[1] // -L 5432:localhost:5432 dev-vm: the database on dev-vm itself
				}
				return f[len(f)-3], reaches, true
			}
		}
	case "kubectl", "oc":
		if sub(c) == "port-forward" && len(c.Pos) > 2 {
			for _, p := range c.Pos[2:] {
				if l, _, _ := strings.Cut(p, ":"); l != "" && strings.Trim(l, "0123456789") == "" {
					return l, c.Pos[1], true
				}
			}
			return "", c.Pos[1], true
		}
	case "fly", "flyctl":
		if sub(c) == "proxy" && len(c.Pos) > 1 {
			p, _, _ := strings.Cut(c.Pos[1], ":")
			return p, "the app " + orUnknown(optValue(c, "-a")), true
		}
	case "pscale":
		if sub(c) == "connect" {
			return optValue(c, "--port"), strings.Join(c.Pos[1:], " "), true
		}
	case "az":
		if strings.Contains(line, "bastion tunnel") {
			return optValue(c, "--port"), orUnknown(optValue(c, "--target-resource-id")), true
		}
	case "aws":
		if strings.Contains(line, "PortForwarding") {
			if m := ssmLocalPort.FindStringSubmatch(line); m != nil {
				port = m[1]
			}
			return port, orUnknown(optValue(c, "--target")), true
		}
	case "gcloud":
		if strings.Contains(line, "start-iap-tunnel") {
			return optValue(c, "--local-host-port"), strings.Join(c.Pos, " "), true
		}
	case "socat":
		for _, p := range c.Pos {
			if strings.HasPrefix(strings.ToUpper(p), "TCP-LISTEN:") {
				port = strings.SplitN(strings.SplitN(p, ":", 2)[1], ",", 2)[0]
			}
		}
		if port != "" && len(c.Pos) > 1 {
			return port, c.Pos[len(c.Pos)-1], true
		}
	}
	return "", "", false
}

var (
	proxyInstances = re(`-instances[= ]([^=\s,]+)=tcp:(?:[\d.]+:)?(\d+)`)
	ssmLocalPort   = re(`localPortNumber=\[?"?(\d+)`)
	clientPort     = re(`(?:^|\s)(?:-p|--port)[\s=](\d+)|\bport=(\d+)|(?:localhost|127\.0\.0\.1|\[::1\]|::1):(\d+)|,(\d+)$`)
)

// lineTunnel: what a loopback server c connects to reaches through a
// tunnel the same line opens (the ports agree, or one of them is not
// said), "" when the line opens none.
func lineTunnel(e *Env, c *Cmd) string {
	if len(e.F.Commands) < 2 {
		return ""
	}
	want, read := "", false
	for i := range e.F.Commands {
		t := &e.F.Commands[i]
		if t == c || !tunnelCmds[t.Name] || t.Remote != "" && t.Name != "ssh" {
			continue
		}
		port, reaches, ok := tunnelOf(t)
		if !ok || reaches == "" || localOnly(t) || devName(reaches) && !prodWord.MatchString(reaches) {
			continue // kubectl --context kind-dev port-forward, ssh -L …:localhost:5432 dev-vm: a dev place
		}
		if !read {
			read = true
			if m := clientPort.FindStringSubmatch(strings.Join(c.Args, " ")); m != nil {
				want = m[1] + m[2] + m[3] + m[4]
			}
		}
		if port == "" || want == "" || port == want {
			return reaches + " (through " + t.Name + ")"
		}
	}
	return ""
}

// warehouseConn: a warehouse client's named connection (snowsql -c NAME,
// snow sql --connection NAME, SNOWSQL_CONNECTION=NAME).
func warehouseConn(e *Env, c *Cmd) string {
	switch c.Name {
	case "snowsql", "snow":
	default:
		return ""
	}
	for _, o := range []string{"-c", "--connection"} {
		if v := optValue(c, o); v != "" {
			return v
		}
	}
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if m[1] == "SNOWSQL_CONNECTION" || m[1] == "SNOWFLAKE_DEFAULT_CONNECTION_NAME" {
			return strings.Trim(m[2], `"'`)
		}
	}
	return ""
}

// devWarehouseConn: c uses a warehouse connection, or a client's named
// connection, named for development or tests (dev, dev_jdoe, ci_test,
// --login-path=local).
func devWarehouseConn(e *Env, c *Cmd) bool {
	n := warehouseConn(e, c)
	if n == "" && slices.Contains(netSQLClients, c.Name) {
		n = namedConn(c) // mysql --login-path=local, databricks --profile dev, psql service=dev
	}
	return n != "" && !callfacts.UnknownValue(n) && devName(n)
}

// explicitLoopback: c names its server, and the server is this machine
// (-h localhost, postgres://…@127.0.0.1:54322/…, host=127.0.0.1,
// sqlcmd -S localhost,1433), with no tunnel on the line reaching it and
// no remote wrapper (ssh, kubectl exec) running the client elsewhere.
func explicitLoopback(e *Env, c *Cmd) bool {
	h := sqlServer(c)
	if h == "" || callfacts.UnknownValue(h) {
		return false
	}
	if !(localServer(h) || mssqlLocal(h)) || !runsHere(e) || lineTunnel(e, c) != "" {
		return false
	}
	return !prodMarker.MatchString(strings.Join(c.Args, " "))
}

// sqlDropsDB: the name a DROP DATABASE (or dropdb) in text drops, "" when
// it drops none.
var sqlDropsDB = re(`(?i)\bdrop\s+database\s+(?:if\s+exists\s+)?["'\[]?([\w.-]+)`)

// devDBCamel: a .NET-style database name ending in a development word
// (PaymentsDev, OrdersDevDb, Shop.Local).
var devDBCamel = re(`(?:[a-z0-9]|\.)(?:Dev|Development|Local)(?:Db|DB|Database)?$`)

// devPlaceSQL: c's statements land in the developer's own database: a
// warehouse connection named for development, or a server this machine
// names explicitly — where a DROP DATABASE must still name a dev or test
// database (a local server's other databases may hold the developer's
// hand-made state) — or, with no server named, a database named for
// development (psql shopwise_development -c 'TRUNCATE sessions').
func devPlaceSQL(e *Env, c *Cmd, text string) bool {
	if devWarehouseConn(e, c) {
		return !prodMarker.MatchString(text)
	}
	dropped := ""
	if m := sqlDropsDB.FindStringSubmatch(text); m != nil {
		dropped = m[1]
		if !devDBName.MatchString(dropped) && !devName(dropped) && !devDBCamel.MatchString(dropped) && !testName(dropped) && !testDBCamel.MatchString(dropped) {
			return false
		}
	}
	if explicitLoopback(e, c) {
		return true
	}
	if projectContainer(e, c) && !prodMarker.MatchString(e.F.Command) {
		return true // docker compose exec db psql …: the project's own stack on this machine's engine
	}
	if sqlServer(c) != "" || !runsHere(e) || prodMarker.MatchString(e.F.Command) || !localWrappers(c) {
		return false
	}
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if strings.HasSuffix(m[1], "HOST") || strings.HasSuffix(m[1], "_URL") || m[1] == "PGSERVICE" {
			return false
		}
	}
	n := sqlDBName(e, c)
	return n != "" && (devDBName.MatchString(n) || devName(n)) && (dropped == "" || dropped == n || devName(dropped))
}

// sqlWriteStmt: a statement that changes rows, schema, settings or
// rights, or rebuilds an index (sqlWrites, plus the maintenance that
// locks or rewrites a table).
var sqlWriteStmt = re(`(?is)(^|;)\s*((insert|update|delete|merge|upsert|replace|alter|create|drop|truncate|grant|revoke|rename|comment\s+on|reindex|cluster|refresh\s+materialized|vacuum\s+full|copy\s+(into\s+)?\S+\s+from|undrop)\b|\\copy\s+\S+\s+from\b|put\s+file:|(remove|rm)\s+@)`)

// dbTargetShared says why c's server is shared (not this machine, not a
// dev place), "" when it is not known to be.
func dbTargetShared(e *Env, c *Cmd, text string) string {
	if devPlaceSQL(e, c, text) {
		return ""
	}
	where, named := sqlTarget(e, c, text)
	if where != "remote" {
		return ""
	}
	if h := sqlServer(c); h != "" && h == named && !strings.ContainsAny(h, ".:/=") && !prodWord.MatchString(h) && !callfacts.UnknownValue(h) && !replicaRoleHost(h) && composeServiceName(h) {
		return "" // psql -h db, -h postgres: a compose service's generic short name, the project's own (claims-db, afc-clearing: a LAN host, service_names.go)
	}
	if cloudWarehouses[c.Name] && devScopedSQL(text) {
		return "" // bq query 'UPDATE `acme-dev.scratch.t` …': a table under a dev project
	}
	return named
}

// devScopedSQL: every table the statement names is under a project or
// dataset named for development (`acme-dev.scratch.t`, DEV_JDOE.X.Y).
func devScopedSQL(text string) bool {
	refs := sqlTableRef.FindAllStringSubmatch(text, -1)
	for _, m := range refs {
		if !bqDevTable(strings.Trim(m[1], "`\"")) {
			return false
		}
	}
	return len(refs) > 0
}

var sqlTableRef = re("(?i)\\b(?:from|into|update|table|join|using|schema|database)\\s+(?:if\\s+(?:not\\s+)?exists\\s+)?([`\"]?[\\w$-]+(?:[.:][\\w$-]+)+[`\"]?)")

// sqlWriteSharedRule: a statement that writes, sent to a server that is
// not this machine: one row changed on a shared database is still a
// change others see (the drops and every-row changes are denied by
// external.systems:sql-remote).
func sqlWriteSharedRule() Rule {
	return cmdRule("external.systems:sql-write-shared", Ask, "A statement that writes (UPDATE … WHERE, DELETE … WHERE, INSERT, MERGE, ALTER, REINDEX, GRANT) sent to a server that is not this machine or a dev place: a managed database's URL (rds.amazonaws.com, pooler.supabase.com, compute-1.amazonaws.com, database.windows.net), a company host, a warehouse connection (snowsql -c prod), a port a proxy on the line opens to a cloud instance; reads stay allowed", append(netSQLClients, "snow"),
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || e.dryRun(c) || c.Has("--dry_run") || c.Name == "snow" && sub(c) != "sql" {
				return ""
			}
			text := sqlOf(c)
			if text == "" || !sqlWriteStmt.MatchString(text) && !sqlWrites.MatchString(text) && !sqlCallStmt.MatchString(text) || sqlReadOnly(text) {
				return ""
			}
			shared := sqlWritesShared(text)
			if !shared && !warehouseSuspend.MatchString(text) {
				return ""
			}
			where := dbTargetShared(e, c, text)
			if where == "" || !shared && !prodMarker.MatchString(where) {
				return "" // a warehouse suspended on a connection not named for production: saves money
			}
			st := strings.TrimSpace(text)
			if len(st) > 80 {
				st = st[:80] + "…"
			}
			return c.Name + " changes a shared database (" + where + "): " + st
		},
		[]string{`psql "postgres://u@ec2-3-1-2-3.compute-1.amazonaws.com:5432/d1" -c "UPDATE products SET price = 2 WHERE id = 4"`, `snowsql -c prod <<'SQL'` + "\nUPDATE A.B.C SET X = 1 WHERE ID = 2;\nSQL",
			`snow sql -c prod -q "ALTER WAREHOUSE ETL_WH SET WAREHOUSE_SIZE = 'XLARGE'"`, `mysql -h db.corp.example.com -e "INSERT INTO flags SELECT * FROM staging_flags"`,
			`cloud-sql-proxy acme:us-central1:orders --port 5433 & psql "host=127.0.0.1 port=5433" -c "UPDATE orders SET state='x' WHERE id=9"`},
		[]string{`psql "postgres://u@ec2-3-1-2-3.compute-1.amazonaws.com:5432/d1" -c "SELECT count(*) FROM products"`, `snowsql -c dev -q "UPDATE A.B.C SET X = 1 WHERE ID = 2"`,
			`psql -h localhost -c "UPDATE users SET x = 1 WHERE id = 2"`, `snow sql -c prod -q "SHOW GRANTS ON SCHEMA A.B"`, `psql -c "UPDATE users SET x = 1 WHERE id = 2"`})
}

// dbPlaceRules: what a command does to which database, warehouse or
// data platform.
func dbPlaceRules() []Rule {
	return append(append([]Rule{sqlWriteSharedRule(), sqlRecordsPurgeRule(), prodDataDestroyRule()}, sharedDataPlatformRules()...), dbOverwriteRules()...)
}

// dbURL: a database connection URL and its host.
var dbURL = re(`(?i)\b(?:postgres(?:ql)?(?:\+\w+)?|mysql(?:\+\w+)?|mariadb|mongodb(?:\+srv)?|sqlserver|mssql|redis|rediss|cockroachdb|clickhouse|jdbc:[a-z0-9]+)://(?:[^\s/@'"]*@)?([\w.-]+)`)

// dbURLElsewhere: the host of a database URL on the line that is not
// this machine, "" when every one is local or there is none.
func dbURLElsewhere(line string) string {
	if !strings.Contains(line, "://") {
		return ""
	}
	for _, m := range dbURL.FindAllStringSubmatch(line, -1) {
		if h := m[1]; !isLocalEndpoint(h) && !callfacts.ThisMachine(h) && strings.Contains(h, ".") {
			return h
		}
	}
	return ""
}

// sqlWritesShared: text has a statement that changes what others read.
// A warehouse suspended or sized down, or its size set at or below
// LARGE, saves money; read rights granted to a named role (not PUBLIC
// or anon: sql-exposure judges those) let a colleague query: neither
// asks (sqlkinds.txt asks for the sizes that run costs away).
func sqlWritesShared(text string) bool {
	for _, s := range strings.Split(text, ";") {
		s = strings.TrimSpace(s)
		if s == "" || !sqlWriteStmt.MatchString(s) && !sqlWrites.MatchString(s) {
			continue
		}
		if warehouseThrift.MatchString(s) && !warehouseGrow.MatchString(s) || sqlReadGrant.MatchString(s) || sqlTempTable.MatchString(s) {
			continue
		}
		return true
	}
	for _, s := range strings.Split(text, ";") {
		if s = strings.TrimSpace(s); sqlCallStmt.MatchString(s) && !sqlReadProc.MatchString(s) {
			return true // CALL ADMIN.PURGE_STALE_SNAPSHOTS(): code the line does not show, run on the shared database
		}
	}
	return false
}

var (
	warehouseThrift = re(`(?is)^alter\s+warehouse\b`)
	// warehouseSuspend: a warehouse stopped under whoever queries it
	// (asks on a connection named for production).
	warehouseSuspend = re(`(?is)(^|;)\s*alter\s+warehouse\s+(if\s+exists\s+)?\S+\s+suspend\b`)
	// sqlCallStmt: a stored procedure run (CALL, EXEC, EXECUTE); its
	// code is not on the line. sqlReadProc: the catalogue's own read
	// procedures (sp_help, sp_who2, SYSTEM$… functions that report).
	sqlCallStmt   = re(`(?is)(^|;)\s*(call|exec|execute)\s+[\w$."\[\]]+`)
	sqlReadProc   = re(`(?is)^\s*(call|exec|execute)\s+(\w+\.)*\[?(sp_(help\w*|who\w*|blitz\w*|pressuredetector|quickiestore|healthparser|spaceused|columns\w*|tables|databases|stored_procedures|server_info|lock|statistics|pkeys|fkeys|depends|readerrorlog|monitor)|system\$(clustering_information|clustering_depth|get_\w+|explain\w*|allowlist\w*|whitelist\w*|pipe_status|task_dependents|stream_has_data|show_\w+|last_change_commit_time|typeof|wait|is_\w+|current_\w+|estimate_\w+|list_\w+)|(show|list|get|describe|desc|report|check|count|explain|inspect|audit|validate|verify|preview|find|search|lookup|status)_?\w*)\]?\s*(\(|$|\s)`)
	warehouseGrow = re(`(?is)\b(warehouse_size\s*=\s*'?(x-?large|x{2,}-?large|[2-6]x-?large|x[2-6]-?large)|max_cluster_count|scaling_policy|resource_monitor\s*=\s*(null|'')|auto_suspend\s*=\s*(0|null)\b|resume\b)`)
	sqlTempTable  = re(`(?is)^create\s+(or\s+replace\s+)?((local|global)\s+)?(temp|temporary|volatile)\s+(table|view)\b`)
	sqlReadGrant  = re(`(?is)^grant\s+(select|usage|references|monitor)(\s*,\s*(select|usage|references|monitor))*\s+on\b.*\bto\s+(role\s+)?(?:[\w"]+)\s*$`)
)

// recordsTable: a table of people's or the business's records (users,
// customers, orders, payments…), bare or schema-qualified.
var recordsTable = re(`(?i)^\s*delete\s+from\s+` + "`?" + `(?:[\w"-]+[.:])*"?(users?|customers?|accounts?|members?|patients?|profiles?|orders?|payments?|invoices?|transactions?|subscriptions?|employees?|contacts?|people|persons?|clients?|students?)["` + "`" + `]?\s`)

// recordsPurge: a statement of text deleting a records table's rows in
// bulk — a range, a pattern, or a window relative to now (WHERE
// inserted_at < now() - interval '2 years'), not rows picked by value.
// A window is a routine sweep for sessions and logs; for people's
// records it is a purge of accounts.
func recordsPurge(text string) string {
	for _, s := range strings.Split(text, ";") {
		s = strings.TrimSpace(s)
		if !recordsTable.MatchString(s + " ") {
			continue
		}
		m := sqlWhere.FindStringSubmatch(s)
		if m == nil || bulkWhere(s) || !sqlPicksValue.MatchString(m[1]) && (sqlRollingWindow.MatchString(m[1]) || sqlBulkCompare.MatchString(m[1])) {
			return s
		}
	}
	return ""
}

// sqlRecordsPurgeRule: people's or the business's records deleted in
// bulk on a database the line names as production: the accounts are
// gone unless a backup is restored over everything since.
func sqlRecordsPurgeRule() Rule {
	return cmdRule("external.systems:sql-records-purge", Deny, "A DELETE of people's or the business's records (users, customers, orders, payments…) in bulk — by a range, a pattern or a window relative to now — on a database the line names as production ($PROD_DATABASE_URL, a prod host or connection): a purge of accounts, not an expiry sweep", netSQLClients,
		func(e *Env, c *Cmd) string {
			text := sqlToJudge(e, c)
			if text == "" {
				return ""
			}
			s := recordsPurge(text)
			if s == "" || devPlaceSQL(e, c, text) {
				return ""
			}
			where := hiddenServer(e, c)
			if where == "" || !prodMarker.MatchString(where) {
				if w, n := sqlTarget(e, c, text); w == "remote" && prodMarker.MatchString(n) {
					where = n
				} else {
					return ""
				}
			}
			if len(s) > 80 {
				s = s[:80] + "…"
			}
			return c.Name + " deletes records in bulk on production (" + where + "): " + s
		},
		[]string{`psql "$PROD_DATABASE_URL" -c "DELETE FROM users WHERE inserted_at < now() - interval '2 years'"`, `mysql -h db-prod.corp.example.com shop -e "DELETE FROM customers WHERE last_login < '2022-01-01'"`,
			`snowsql -c prod -q "DELETE FROM CRM.PUBLIC.CONTACTS WHERE EMAIL LIKE '%@old.example.com'"`},
		[]string{`psql "$PROD_DATABASE_URL" -c "DELETE FROM sessions WHERE expires_at < now()"`, `psql "$PROD_DATABASE_URL" -c "DELETE FROM users WHERE id = 4"`,
			`psql -h localhost -d app_dev -c "DELETE FROM users WHERE inserted_at < now() - interval '2 years'"`, `psql "$PROD_DATABASE_URL" -c "SELECT count(*) FROM users WHERE inserted_at < now() - interval '2 years'"`})
}

// sameHostWrappers run the command on this machine, as another user or
// under a limit (sudo -u postgres psql …): the socket is still this
// machine's.
var sameHostWrappers = map[string]bool{"sudo": true, "doas": true, "run0": true, "env": true, "timeout": true, "nice": true, "nohup": true,
	"time": true, "stdbuf": true, "ionice": true, "setsid": true, "unbuffer": true, "chronic": true, "su": true}

// localWrappers: every wrapper of c runs it on this machine.
func localWrappers(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if name, _, _ := strings.Cut(w, " "); !sameHostWrappers[name] {
			return false
		}
	}
	return true
}

// namedConn: the connection a client picks by name from its own
// configuration (mysql --login-path=NAME, --defaults-group-suffix=_NAME,
// a libpq service=NAME), "" when it picks none.
func namedConn(c *Cmd) string {
	for _, o := range []string{"--login-path", "--defaults-group-suffix", "--profile", "--connection", "--conn"} {
		if v := optValue(c, o); v != "" {
			return v
		}
	}
	for _, a := range c.Args {
		if i := strings.Index(a, "service="); i >= 0 && (i == 0 || a[i-1] == ' ') {
			v, _, _ := strings.Cut(a[i+len("service="):], " ")
			return strings.Trim(v, `'"`)
		}
	}
	return ""
}

// clientHostOpts are clients' own options naming their server, beyond
// the -h/--host/-S/--server/--url that sqlServer reads for every client.
var clientHostOpts = map[string][]string{"impala-shell": {"-i", "--impalad"}, "mysqlsh": {"--uri"}, "mongosh": {"--uri"}, "mongo": {"--uri"},
	"cypher-shell": {"-a", "--address"}, "beeline": {"-u"}, "sqlline": {"-u"}, "clickhouse-client": {"--host"}, "cqlsh": {}, "isql": {}}
