package policy

import (
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
)

// SQL carried as text in any position. Database consoles take their
// statement in more ways than an option: as an operand (hdbsql -U KEY
// "DROP …", dgmgrl CONN "FAILOVER TO …", db2 "…"), on their input (a
// here-string, a here-document, echo '…' | sqlplus). The statement is
// read the same way wherever it stands, and the connection it runs on
// is read from the words that name one in these clients: a stored key
// (hdbsql -U PRDKEY), a connect identifier (user/pw@PRODDB), the
// database a DROP names, and an administrator's login on the database
// server itself (sqlplus / as sysdba: the agent runs on the database
// host, whose instance is the one it serves).

// sqlStatementStart: an operand that is a statement (a SQL verb then its
// words), not a database name or a connection string.
var sqlStatementStart = re(`(?is)^\s*(select|insert|update|delete|drop|truncate|alter|create|grant|revoke|backup|recover|restore|failover|switchover|convert|reinstate|shutdown|startup|purge|reset|call|exec|execute|merge|upsert|replace|rename|vacuum|kill|flush|import|unload|copy|set|show|describe|explain|with|use|enable|disable|edit|remove|validate|load)\s+\S`)

// operandSQL adds to b the operands of a database client that are
// statements (the option-carried ones sqlOf reads already).
func operandSQL(c *Cmd, b *strings.Builder) {
	for i, a := range c.Args {
		if strings.HasPrefix(a, "-") || !strings.ContainsAny(a, " \t\n") || i > 0 && sqlTextOptions[c.Args[i-1]] {
			continue
		}
		if sqlStatementStart.MatchString(a) {
			b.WriteString(a + ";")
		}
	}
}

// oracleAdminLogin: an operating-system-authenticated administrator's
// login (sqlplus / as sysdba, rman target /, dgmgrl /): the instance of
// the database server the command runs on.
func oracleAdminLogin(c *Cmd) bool {
	if len(c.Pos) == 0 || c.Pos[0] != "/" {
		return false
	}
	if c.Name == "dgmgrl" {
		return true
	}
	for i, p := range c.Pos {
		if strings.EqualFold(p, "as") && i+1 < len(c.Pos) && strings.HasPrefix(strings.ToLower(c.Pos[i+1]), "sys") {
			return true
		}
	}
	return false
}

// prodConnName: a stored key, alias or service named for production
// (PRDKEY, PRODDB, DB_PROD, prd01, acme-prod): the name with a key, db,
// connection or number part taken off is prod, prd or production.
func prodConnName(n string) bool {
	if prodWord.MatchString(n) {
		return true
	}
	l := connCore(n)
	return l == "prd" || l == "prod" || l == "production" || capsSuffix(n, "PRD", "PROD") || sidKey(n, prodSIDs) || camelProd(n)
}

// A stored key, alias or DSN named SID+ROLE, as SAP's hdbuserstore keys
// are (PRDADMIN, P01SYSTEM, PROD_BACKUP, DEVADMIN): the system's id, then
// a role word or nothing. PRD and PROD lead any upper-case key (but a
// PRODUCT table); PRO, P01 and the dev ids only with a role word.
var (
	prodSIDs = []string{"PRD", "PROD", "PRO", "P0", "P1", "PRODUCTION", "LIVE"}
	devSIDs  = []string{"DEV", "DEVL", "D0", "D1", "TST", "TEST", "SBX", "SANDBOX", "LAB", "LOCAL"}
	sidRoles = map[string]bool{"": true, "ADMIN": true, "ADM": true, "SYSTEM": true, "SYS": true, "SYSTEMDB": true, "KEY": true, "USER": true, "USR": true,
		"DB": true, "DBA": true, "BACKUP": true, "BKP": true, "BCK": true, "SAP": true, "ABAP": true, "HANA": true, "HDB": true, "TENANT": true,
		"DSN": true, "CONN": true, "RO": true, "RW": true, "APP": true, "ETL": true, "REPORT": true, "MONITOR": true, "MON": true, "OPS": true, "DBO": true, "SCHEMA": true, "ORA": true, "SVC": true}
)

// sidKey: n, upper case, is one of sids followed by a role word
// (digits, _ and - between them aside); PRD and PROD lead any key.
func sidKey(n string, sids []string) bool {
	n = strings.Trim(n, `"'`)
	if n == "" || strings.ToUpper(n) != n || strings.ContainsAny(n, "./:@ =") {
		return false
	}
	for _, sid := range sids {
		rest, ok := strings.CutPrefix(n, sid)
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, "0123456789_-")
		if sid == "PRD" || sid == "PROD" && !strings.HasPrefix(rest, "UCT") || sidRoles[strings.TrimRight(rest, "0123456789_-")] {
			return true
		}
	}
	return false
}

// capsSuffix: an upper-case identifier (an SID, a TNS alias, a stored
// key: ERPPRD, HANAPROD2, XEDEV) that ends in one of the words, digits
// aside. Lower-case words are left alone (byprod, a product name).
func capsSuffix(n string, words ...string) bool {
	n = strings.TrimRight(strings.Trim(n, `"'`), "0123456789_-")
	if n == "" || strings.ToUpper(n) != n {
		return false
	}
	for _, w := range words {
		if strings.HasSuffix(n, w) {
			return true
		}
	}
	return false
}

// devConnName: a key, alias or database named for development or tests
// (DEVDB, TESTKEY, db_dev2), by the same reading.
func devConnName(n string) bool {
	if devDBName.MatchString(n) {
		return true
	}
	switch connCore(n) {
	case "dev", "devel", "development", "test", "tst", "testing", "sandbox", "local":
		return true
	}
	return capsSuffix(n, "DEV", "TEST", "TST") || sidKey(n, devSIDs)
}

// connCore is a connection name without its key, db, connection or
// number parts, lower case.
func connCore(n string) string {
	l := strings.ToLower(strings.Trim(n, `"'`))
	for _, affix := range []string{"key", "db", "conn", "dsn", "sid", "svc", "srv", "_", "-"} {
		l = strings.TrimSuffix(strings.TrimPrefix(l, affix), affix)
	}
	return strings.TrimRight(l, "0123456789_-")
}

// sqlDevConn: every connection name c's line gives is a dev or test one
// (db2 connect to DEVDB && db2 "DROP …", hdbsql -U TESTKEY), and none is
// a host.
func sqlDevConn(e *Env, c *Cmd) bool {
	ws := lineConnWords(e, c)
	n := 0
	for _, w := range ws {
		if w == "" {
			continue
		}
		if !devConnName(w) {
			return false
		}
		n++
	}
	return n > 0
}

// lineConnWords are c's connection words with those the line sets
// around it: db2 connect to NAME, ORACLE_SID=NAME, TWO_TASK=NAME.
func lineConnWords(e *Env, c *Cmd) []string {
	ws := sqlConnWords(c)
	if c.Name == "db2" {
		ws = append(ws, db2Connects(e)...)
	}
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if m[1] == "ORACLE_SID" || m[1] == "TWO_TASK" || m[1] == "ORACLE_PDB_SID" {
			ws = append(ws, strings.Trim(m[2], `"'`))
		}
	}
	return ws
}

// db2Connects are the databases the line's db2 connect to NAME names: the
// CLP's later commands run there.
func db2Connects(e *Env) []string {
	var out []string
	for _, c := range e.F.Cmds("db2") {
		if len(c.Pos) >= 3 && strings.EqualFold(c.Pos[0], "connect") && strings.EqualFold(c.Pos[1], "to") {
			out = append(out, c.Pos[2])
		}
	}
	return out
}

// sqlConnWords are the words of c that name its connection without a
// host: hdbsql's stored key (-U), a connect identifier's alias
// (user/pw@ALIAS, @ALIAS), the database option.
func sqlConnWords(c *Cmd) []string {
	var out []string
	if c.Name == "hdbsql" {
		out = append(out, optValue(c, "-U"), optValue(c, "-d"))
	}
	if (c.Name == "isql" || c.Name == "iusql") && len(c.Pos) > 0 && !strings.ContainsAny(c.Pos[0], " \t") {
		out = append(out, c.Pos[0]) // unixODBC's isql DSN [user [pw]]: the data source's name
	}
	for _, p := range c.Pos {
		p = oracleLogin(p)
		if strings.ContainsAny(p, " \t") || strings.Contains(p, "://") || strings.HasPrefix(p, "@") && strings.ContainsAny(p, "./") {
			continue // @migrations/V3.sql: a script SQL*Plus runs, not a connection
		}
		if _, alias, ok := strings.Cut(p, "@"); ok && alias != "" {
			alias = strings.TrimPrefix(alias, "//")
			if i := strings.IndexAny(alias, ":/"); i >= 0 {
				alias = alias[:i] + " " + alias[i+1:] // host:port/service: both named
			}
			out = append(out, strings.Fields(alias)...)
		}
	}
	return out
}

// droppedDB: the database, schema or tenant a DROP names.
var droppedDB = re("(?i)(?:^|;)\\s*drop\\s+(?:database|schema|tenant)\\s+(?:if\\s+exists\\s+)?[\"`]?([\\w-]+)")

// sqlProdConn says what names production as the connection c's
// statements run on, "" when nothing does: a stored key or alias named
// for it, the database a DROP names, an administrator's login on the
// database server itself unless the line names a dev or test instance.
func sqlProdConn(e *Env, c *Cmd, text string) string {
	for _, w := range lineConnWords(e, c) {
		if w != "" && prodConnName(w) {
			return "the production connection " + w
		}
	}
	for _, m := range droppedDB.FindAllStringSubmatch(text, -1) {
		if prodConnName(m[1]) {
			return "the production database " + m[1]
		}
	}
	if oracleAdminLogin(c) && !devInstanceNamed(e) && !inLocalContainer(c) {
		return "the database server's own instance as its administrator (" + strings.Join(c.Pos, " ") + ")"
	}
	return ""
}

// devInstanceNamed: the line picks a dev or test instance (ORACLE_SID=
// XEDEV, TWO_TASK=test, a container named for one).
func devInstanceNamed(e *Env) bool {
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if v := strings.Trim(m[2], `"'`); devName(v) || testName(v) || devConnName(v) {
			return true
		}
	}
	return localTestDB(e.F.Command)
}

// sqlConsoles are the programs whose operands may be statements: the
// database and warehouse clients.
var sqlConsoles = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range warehouseClients {
		m[n] = true
	}
	return m
})

// oracleServer is the host an Oracle tool's connect identifier names
// (user/pw@//db1.example.com:1521/ORCL, @db1:1521/svc), or the net
// service name (TNS alias) it names: Oracle Net resolves user@FINTEST
// to a listener on the database's server, another machine. "" for the
// local instance (/ as sysdba, ORACLE_SID), an Express or Free edition's
// default service (XE, XEPDB1, FREEPDB1: a container on this machine) and
// an alias named for development (XEDEV, BANDEV): the developer's own.
// Their -S/-s only silences the banner.
func oracleServer(c *Cmd) string {
	for _, p := range c.Pos {
		if strings.HasPrefix(p, "@") && strings.ContainsAny(p, "./") {
			continue // @migrations/V3.sql: a script, not a connect identifier
		}
		_, id, ok := strings.Cut(oracleLogin(p), "@")
		if !ok || strings.ContainsAny(p, " \t") {
			continue
		}
		id = strings.TrimPrefix(id, "//")
		host, _, hasRest := strings.Cut(id, "/")
		if h, _, hasPort := strings.Cut(host, ":"); hasPort || hasRest || strings.Contains(host, ".") {
			return h
		}
		if (c.Name == "sqlplus" || c.Name == "sql") && oracleRemoteAlias(id) {
			return id
		}
	}
	return ""
}

// oracleRemoteAlias: a connect identifier that is a net service name of
// a shared database (FINPRD, BANTEST, fleettest, ERP), not a local
// edition's default service or a development alias.
func oracleRemoteAlias(id string) bool {
	id = strings.Trim(id, `"'`)
	if id == "" || callfacts.UnknownValue(id) || strings.ContainsAny(id, "$`{}()[]<>|&;=") || strings.HasPrefix(id, "-") {
		return false
	}
	return !oracleDevAlias(id)
}

// oracleTestAlias: an Oracle net service name (no host or port in it)
// named for a test copy (ERPQA, BANTEST, hr_uat): its drops ask.
func oracleTestAlias(id string) bool {
	if strings.ContainsAny(id, ".:/") || prodConnName(id) {
		return false
	}
	l := strings.ToLower(strings.TrimRight(id, "0123456789_-"))
	for _, w := range []string{"test", "tst", "qa", "uat", "stg", "stage", "staging"} {
		if strings.HasSuffix(l, w) || strings.HasPrefix(l, w) {
			return true
		}
	}
	return false
}

// oracleDevAlias: an Oracle service or alias that is the developer's own:
// a local Express, Free or image-default instance's service (XE, XEPDB1,
// FREEPDB1, ORCLPDB1) or one named for development (BANDEV, XEDEV,
// ora_dev1, local_pdb, sandbox).
func oracleDevAlias(id string) bool {
	switch l := strings.ToLower(strings.TrimRight(strings.Trim(id, `"'`), "0123456789")); {
	case strings.HasPrefix(l, "xe") || strings.HasPrefix(l, "free") || l == "orcl" || strings.HasPrefix(l, "orclpdb") || l == "orclcdb" || l == "localhost" || l == "local":
		return true
	case strings.HasSuffix(l, "dev") || strings.HasPrefix(l, "dev") || strings.Contains(l, "sandbox"):
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(id), func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		if devWords[strings.TrimRight(w, "0123456789")] {
			return true
		}
	}
	return false
}

// sqlDowngradeOf is the first statement of text that switches a
// database's protection off (sqlkinds.txt "down"), "" when none does.
func sqlDowngradeOf(text string) string {
	for _, s := range strings.Split(text, ";") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		for _, k := range sqlKinds() {
			if k.down && k.pat.MatchString(s) {
				return s
			}
		}
	}
	return ""
}

// sqlDowngradeRule: auditing, the password policy or recovery switched
// off on a database is denied whatever the server, unless the line names
// this machine or a dev or test database: every later misuse goes
// unseen or unrecoverable.
func sqlDowngradeRule() Rule {
	return cmdRule("external.systems:sql-downgrade", Deny, "A statement that switches a database's protection off — auditing stopped, the password policy weakened (minimal length, lifetime or failed logins UNLIMITED, no forced change), the redo log set to overwrite, transport security or the password-check plugin removed — on any server but this machine or a dev or test database; the statements are data (policy/sqlkinds.txt, level down)", warehouseClients,
		func(e *Env, c *Cmd) string {
			text := sqlToJudge(e, c)
			if text == "" {
				return ""
			}
			stmt := sqlDowngradeOf(text)
			if stmt == "" {
				return ""
			}
			if where, _ := sqlTarget(e, c, text); where == "local" || where == "" && (localTestDB(e.F.Command) || sqlDevOnly(e, c, stmt) || localDevDB(e)) {
				return ""
			}
			if len(stmt) > 80 {
				stmt = stmt[:80] + "…"
			}
			return c.Name + " switches a protection of the database off: " + stmt
		},
		[]string{`sqlplus / as sysdba <<< "ALTER SYSTEM SET audit_trail=NONE SCOPE=SPFILE;"`, `mysql -h db1.example.com -e "SET GLOBAL validate_password.policy=LOW"`,
			`hdbsql -U ADMKEY "ALTER SYSTEM ALTER CONFIGURATION ('indexserver.ini','SYSTEM') SET ('password policy','minimal_password_length') = '3' WITH RECONFIGURE"`,
			`echo "ALTER PROFILE APP_PROFILE LIMIT FAILED_LOGIN_ATTEMPTS UNLIMITED;" | sqlplus -s sys/x@ERPDB as sysdba`, `psql -c "ALTER SYSTEM SET pgaudit.log = 'none'"`,
			`sqlcmd -S sql01.corp.example.com -Q "ALTER SERVER AUDIT HIPAA_Audit WITH (STATE = OFF)"`},
		[]string{`sqlplus / as sysdba <<< "SELECT value FROM v$parameter WHERE name='audit_trail';"`, `mysql -h 127.0.0.1 -e "SET GLOBAL validate_password.policy=LOW"`,
			`psql -d app_test -c "ALTER SYSTEM SET pgaudit.log = 'none'"`, `hdbsql -U ADMKEY "SELECT * FROM M_INIFILE_CONTENTS WHERE KEY='minimal_password_length'"`, `mysql -h db1.example.com -e "SET GLOBAL validate_password.policy=STRONG"`})
}

// sqlAllExcept: a WHERE that keeps only what it names and takes the rest
// (login <> 'admin', id != 1, NOT IN (…), NOT LIKE): every row but a
// few, whatever else it picks by value.
var sqlAllExcept = re(`(?i)<>|!=|\bnot\s+(in|like|exists)\b`)

// alterClause: an online schema change tool's --alter value (pt-online-
// schema-change, gh-ost, spirit: --alter "DROP COLUMN ssn") is the body
// of an ALTER TABLE on the table its other options name; "" when
// c.Args[i] is not such a value.
func alterClause(c *Cmd, i int) string {
	a := c.Args[i]
	if v, ok := strings.CutPrefix(a, "--alter="); ok {
		return "ALTER TABLE t " + strings.Trim(v, `"'`)
	}
	if i > 0 && c.Args[i-1] == "--alter" {
		return "ALTER TABLE t " + a
	}
	return ""
}

// onlineAlterProdRule: a schema change run by an online schema change
// tool (--alter … --execute) on a server named for production or not on
// this machine: it copies and swaps a live table under its users; the
// destructive ones (DROP COLUMN) are denied by sql-carried.
func onlineAlterProdRule() Rule {
	return Rule{ID: "external.systems:online-alter-prod", Mode: Ask, Tools: shellTools, On: On(0).OrText("--alter"),
		Desc: "A table altered by an online schema change tool (pt-online-schema-change, gh-ost: --alter … --execute) on a server named for production or another host (h=db-prod-01, --host): the live table is copied and swapped under its users",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				alter := ""
				for j := range c.Args {
					if v := alterClause(c, j); v != "" {
						alter = v
					}
				}
				if alter == "" || !c.Has("--execute") || e.dryRun(c) || c.Has("--dry-run") {
					continue
				}
				for _, a := range c.Args {
					for _, kv := range strings.Split(a, ",") {
						k, v, _ := strings.Cut(kv, "=")
						if (k == "h" || k == "--host" || k == "D") && v != "" && (prodWord.MatchString(v) || k == "h" && !localServer(v)) {
							return c.Name + " alters a live table on " + v + ": " + short80(strings.TrimPrefix(alter, "ALTER TABLE t "))
						}
					}
				}
				if h := optValue(c, "--host"); h != "" && !localServer(h) {
					return c.Name + " alters a live table on " + h + ": " + short80(strings.TrimPrefix(alter, "ALTER TABLE t "))
				}
			}
			return ""
		},
		Catch: []string{`pt-online-schema-change --alter "ADD INDEX idx_c (created_at)" D=shop,t=orders,h=db-prod-2 --execute`, `gh-ost --host=mysql-main.example.com --database=shop --table=orders --alter="ADD COLUMN note TEXT" --execute`, `pt-online-schema-change --alter "ENGINE=InnoDB" D=billing_prod,t=invoices --execute`},
		Allow: []string{`pt-online-schema-change --alter "ADD INDEX idx_c (created_at)" D=shop,t=orders,h=db-prod-2 --dry-run`, `gh-ost --host=127.0.0.1 --database=shop --table=orders --alter="ADD COLUMN note TEXT" --execute`, `pt-online-schema-change --alter "ADD INDEX i (c)" D=shop,t=orders,h=localhost --execute`}}
}

// inLocalContainer: c runs inside a container on this machine (docker
// exec oracle-xe sqlplus / as sysdba): its instance is the container's.
func inLocalContainer(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if strings.HasPrefix(w, "docker") || strings.HasPrefix(w, "podman") || strings.HasPrefix(w, "nerdctl") {
			return !prodWord.MatchString(w)
		}
	}
	return false
}

// oracleLogin is the connect identifier of an Oracle login given as one
// quoted word with its role ("sys/pw@ORAPRD1 as sysdba"): its first
// field. Any other word is returned as it is.
func oracleLogin(p string) string {
	if f := strings.Fields(p); len(f) == 3 && strings.Contains(f[0], "@") && strings.EqualFold(f[1], "as") {
		return f[0]
	}
	return p
}
