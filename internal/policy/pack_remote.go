package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Code that runs somewhere the command line does not show it: a SQL file
// fed to a database client, a local script fed to a shell on another host
// or in a container. When the line itself shows the text (a here-document,
// echo '…' |, a file it wrote) the text is parsed and the other rules judge
// it; these rules are for text the line only names.

// sqlFileFlags are each client's options whose value is a file of
// statements to run (mysql -f is --force, so it has none).
var sqlFileFlags = callfacts.SQLFileFlags // the one table, callfacts/command.go

// sqlCommandFlags take the statements inline (their text is judged by
// core.sql:drop); with one of them the client does not read its input.
var sqlCommandFlags = []string{"-c", "--command", "-e", "--execute", "--eval", "-q", "--query", "-Q"}

// sqlInclude finds a client's own "run this file" command inside inline
// SQL: psql \i and \include, mysql source and \., cqlsh SOURCE, sqlite .read.
// mysql's source starts its statement (DROP SOURCE x is Materialize's
// statement, not a file run).
var sqlInclude = re(`(?i)(?:(?:^|[\s;'"])(?:\\i|\\ir|\\include|\\include_relative|\\\.|\.read)|(?:^|[;'"\n])\s*source)\s+([^\s;'"]+)`)

// sqlFileOf returns the file (or input) whose statements c runs without
// the line showing them, "" when c runs none.
func sqlFileOf(c *Cmd) string {
	if c.Heredoc != "" || onlyHelp(c) {
		// The text is in the line (core.sql:drop reads it), but it may
		// itself run a file: psql <<EOF \i /tmp/x.sql EOF.
		if m := sqlInclude.FindStringSubmatch(c.Heredoc); m != nil {
			return m[1]
		}
		return ""
	}
	if !warehouseSQLCmd(c) {
		return "" // bq load, snow stage: no statements read (pack_sql_feed.go)
	}
	inline := false
	for i, a := range c.Args {
		for _, f := range sqlFileFlags[c.Name] {
			switch {
			case a == f && i+1 < len(c.Args):
				if v := c.Args[i+1]; v != "-" {
					return v
				}
			case strings.HasPrefix(a, f+"="):
				return a[len(f)+1:]
			case len(f) == 2 && strings.HasPrefix(a, f) && len(a) > 2 && !strings.HasPrefix(a, "--"):
				return a[2:] // psql -fdump.sql
			}
		}
		for _, f := range sqlCommandFlags {
			if f == "-c" && (c.Name == "snow" || c.Name == "snowsql") {
				continue // snow sql -c prod: the connection's name
			}
			if a == f && i+1 < len(c.Args) || strings.HasPrefix(a, f+"=") && strings.HasPrefix(f, "--") {
				inline = true
				v := strings.TrimPrefix(a, f+"=")
				if a == f {
					v = c.Args[i+1]
				}
				if m := sqlInclude.FindStringSubmatch(v); m != nil {
					return m[1]
				}
			}
		}
	}
	if c.Name == "sqlplus" || c.Name == "sql" {
		for _, p := range c.Pos {
			if f := strings.TrimLeft(p, "@"); len(f) < len(p) && f != "" && !strings.ContainsAny(f, "@ ") {
				return f // sqlplus u/pw@ALIAS @migrations/V3__x.sql: SQL*Plus runs the script
			}
		}
	}
	if c.Name == "mongosh" || c.Name == "mongo" {
		for _, p := range c.Pos {
			if strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".mongodb") {
				return p
			}
		}
	}
	if !inline && c.Stdin != "" {
		return "its input (" + c.Stdin + ")"
	}
	return ""
}

// sqlServer returns the server a client talks to as written (-h, --host,
// -S, a connection URI), "" for the default local one.
func sqlServer(c *Cmd) string {
	if c.Name == "sqlplus" || c.Name == "sql" || c.Name == "dgmgrl" || c.Name == "rman" {
		return oracleServer(c) // sqlplus -S: silent; the host is in the connect identifier
	}
	if h := optValue(c, "-n"); h != "" && c.Name == "hdbsql" {
		return h // hdbsql -n host:port
	}
	for _, o := range clientHostOpts[c.Name] {
		if h := optValue(c, o); h != "" {
			return h // impala-shell -i HOST, mysqlsh --uri u@HOST (pack_db_place.go)
		}
	}
	if c.PowerShell {
		for i, a := range c.Args {
			if psServerParam(a) && i+1 < len(c.Args) {
				h, _, _ := strings.Cut(strings.Trim(c.Args[i+1], `"'`), ",")
				return sqlServerHost(h) // Invoke-DbaQuery -SqlInstance sqlprod01, Invoke-Sqlcmd -ServerInstance 'localhost,1433'
			}
		}
	}
	for i, a := range c.Args {
		for _, f := range []string{"-h", "--host", "-S", "--server", "--url"} {
			switch {
			case a == f && i+1 < len(c.Args):
				return c.Args[i+1]
			case strings.HasPrefix(a, f+"=") && strings.HasPrefix(f, "--"):
				return a[len(f)+1:]
			case f == "-h" && strings.HasPrefix(a, "-h") && len(a) > 2:
				return a[2:]
			}
		}
	}
	for _, p := range c.Pos {
		if strings.Contains(p, "://") || strings.Contains(p, "host=") || callfacts.UnknownValue(p) && strings.Contains(strings.ToUpper(p), "URL") {
			return p
		}
	}
	return ""
}

// localServer reports whether a server as written is this machine's
// (callfacts.ThisMachine; a libpq conninfo string too, judged by its
// host= word alone: "host=localhost dbname=ledger_test user=postgres").
func localServer(h string) bool {
	if i := strings.Index(h, "host="); i >= 0 && (i == 0 || h[i-1] == ' ') {
		v, _, _ := strings.Cut(h[i+len("host="):], " ")
		return callfacts.ThisMachine(strings.Trim(v, `'"`))
	}
	return callfacts.ThisMachine(h)
}

// destructiveSQLName: a script named like this drops or overwrites data
// (a dump restored drops its tables first).
var destructiveSQLName = re(`(?i)(drop|wipe|reset|teardown|truncate|purge|clean|nuke|destroy|delete|dump|backup|restore|rollback|down)`)

// sqlFile returns what c runs without the line showing it and whether
// that is a project's own script run on the local server (a migration:
// recorded rather than asked).
func sqlFile(e *Env, c *Cmd) (reason string, local bool) {
	src := sqlFileOf(c)
	if src == "" {
		return "", false
	}
	server := sqlServer(c)
	file := strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(src, "its input ("), ")"), "< ")
	where := "the local database"
	if !localServer(server) {
		where = server
	}
	remote, named := sqlTarget(e, c, "")
	if remote == "remote" && named != "" {
		where = named // snowsql -c prod -f x.sql, a port a proxy on the line opens (pack_db_place.go)
		if strings.HasSuffix(named, "runs in the cloud") {
			where = "its cloud warehouse" // bq query < x.sql
		}
	}
	local = localServer(server) && remote != "remote" && !strings.HasPrefix(file, "| ") && !callfacts.UnknownValue(file) && under(e.abs(c, file), e.F.Project) &&
		!destructiveSQLName.MatchString(file[strings.LastIndexByte(file, '/')+1:]) ||
		generatorOf(c) != "" && sqlDevOnly(e, c, "") // shp2pgsql … | psql -d gis_dev: statements of a known kind, into the developer's own database (pack_loader_replace.go)
	return fmt.Sprintf("%s runs the statements of %s against %s; the command does not show them", c.Name, src, where), local
}

// projectReadScript: the statements c runs are a script of the project
// named for what it reads or reports (sql/report_open_workorders.sql,
// queries/list_overdue.sql; scriptReadsByName): a report, run anywhere.
func projectReadScript(e *Env, c *Cmd) bool {
	f := sqlFileOf(c)
	if f == "" || strings.HasPrefix(f, "its input") || strings.HasPrefix(f, "| ") || strings.HasPrefix(f, "< ") || callfacts.UnknownValue(f) {
		return false
	}
	return under(e.abs(c, f), e.F.Project) && scriptReadsByName(f)
}

func sqlFileRules() []Rule {
	return []Rule{
		cmdRule("core.sql:run-file", Ask, "A database client runs statements the command does not show (psql -f, mysql < dump.sql, \\i, source, input piped from a program, bq query < x.sql, snow sql -c prod -f x.sql) against another server, from outside the project or from a script named like a teardown or a dump: they may DROP, DELETE or TRUNCATE", append(slices.Clone(callfacts.SQLServerClients), "sqlplus", "sql", "bq", "snow",
			"beeline", "hive", "spark-sql", "impala-shell", "trino", "presto", "cypher-shell", "vsql", "ksql", "aql", "sqlline", "db2", "isql", "hdbsql"), // the warehouse and stream-SQL clients' -f files
			func(e *Env, c *Cmd) string {
				if r, local := sqlFile(e, c); r != "" && !local && !localDevDB(e) && !devDBMigration(e, c) && !(sqlServer(c) == "" && sqlDevConn(e, c)) && !projectReadScript(e, c) { // hdbsql -U DEVADMIN -I x.sql, sqlplus /@XEDEV @x.sql
					return r + " (they may DROP, DELETE or TRUNCATE)"
				}
				return ""
			},
			[]string{"psql -h prod -f migrations/001.sql", "mysql shop < dump.sql", "cat wipe.sql | psql app", "psql postgres://u@db.example/app --file=x.sql", "mysql -h db1 -e 'source reset.sql' shop", "psql -c '\\i /tmp/x.sql'", "psql <<'EOF'\n\\i /tmp/wipe.sql\nEOF", "sudo -u postgres psql < restore.sql", "mongosh mongodb://prod purge.js", "redis-cli -h cache < cmds.txt", "psql \"$DATABASE_URL\" -f migrations/002.sql", "psql -f migrations/003_drop_users.sql", "bq query --use_legacy_sql=false < sql/backfill.sql", "snow sql -c prod -f fix.sql"},
			[]string{"psql -c 'select 1'", "psql -l", "echo 'select 1' | psql", "psql <<'EOF'\nselect now();\nEOF", "pg_dump app > app.sql", "mysql -f -e 'show tables'", "sqlite3 app.db < schema.sql", "psql --help", "psql -f migrations/001_init.sql", "psql -h localhost -d dev -f db/schema.sql", "shp2pgsql -s 4326 -I data/roads.shp staging.roads | psql -d gis_dev", "bq query 'SELECT 1'", "bq load ds.t data.csv", "snow sql -c dev -f fix.sql"}),
		cmdRule("core.sql:run-local-file", Audit, "A project's own SQL script run on the local database server (psql -f migrations/001_init.sql): recorded", callfacts.SQLServerClients,
			func(e *Env, c *Cmd) string {
				if r, local := sqlFile(e, c); local {
					return r
				}
				return ""
			},
			[]string{"psql -f migrations/001_init.sql", "psql -h localhost -d dev -f db/schema.sql", "mysql app < db/seed.sql"},
			[]string{"psql -c 'select 1'", "psql -h prod -f migrations/001.sql", "echo 'select 1' | psql", "psql -f /tmp/x.sql"}),
	}
}

// stdinShell reports whether a remote command (ssh's payload) is a shell
// or interpreter that reads its script from its input: bash -s, sh, sudo
// bash, python3 -, or nothing at all (a login shell reads the input).
func stdinShell(payload string) bool {
	w := strings.Fields(payload)
	for len(w) > 0 {
		switch name := callfacts.ProgramName(strings.Trim(w[0], `'"`)); {
		case name == "sudo" || name == "doas" || name == "env" || name == "nohup" || name == "exec" || name == "time" || name == "nice":
			if name == "sudo" && (callfacts.HasArg(w[1:], "-s", "-i", "--shell", "--login")) {
				return true
			}
			w = callfacts.SkipFlags(w[1:], "ugpCn")
			for len(w) > 0 && strings.Contains(w[0], "=") {
				w = w[1:]
			}
		case name == "su":
			return !callfacts.HasArg(w[1:], "-c", "--command")
		case callfacts.IsShell(name):
			for _, a := range w[1:] {
				if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'c') {
					return false // bash -c '…': the payload, parsed already
				}
				if !strings.HasPrefix(a, "-") {
					return false // bash script.sh: a file there
				}
			}
			return true
		case callfacts.IsInterpreter(name):
			return len(w) == 1 || w[1] == "-"
		default:
			return false
		}
	}
	return true
}

// remoteWrapper names the wrapper that carries c to another host or into a
// container ("" when c runs here).
func remoteWrapper(c *Cmd) string {
	where := ""
	for _, w := range c.Wrappers {
		if w == "ssh" || strings.HasSuffix(w, " exec") || w == "vagrant ssh" {
			where = w
		}
	}
	return where
}

// sshHost is the host an ssh command connects to.
func sshHost(c *Cmd) string {
	if r := callfacts.SkipFlags(c.Args, "ipl oFJLRDbcEemOQSWwB"); len(r) > 0 {
		return r[0]
	}
	return "the host"
}

// uploadedScript returns the script an ssh command runs there when the
// same line copied it there from here (scp x.sh h:/tmp && ssh h bash
// /tmp/x.sh): as unseen as ssh h bash -s < x.sh.
func uploadedScript(e *Env, c *Cmd) string {
	w := strings.Fields(c.Payload)
	for len(w) > 1 && (w[0] == "sudo" || strings.HasPrefix(w[0], "-")) {
		w = w[1:]
	}
	if len(w) < 2 || !(callfacts.IsShell(callfacts.ProgramName(w[0])) || callfacts.IsInterpreter(callfacts.ProgramName(w[0]))) {
		return ""
	}
	script := strings.Trim(w[len(w)-1], `'"`)
	for _, a := range w[1:] {
		if !strings.HasPrefix(a, "-") {
			script = strings.Trim(a, `'"`)
			break
		}
	}
	host := sshHost(c)
	for _, cp := range e.F.Cmds("scp", "rsync") {
		if len(cp.Pos) < 2 {
			continue
		}
		dest := cp.Pos[len(cp.Pos)-1]
		h, _, ok := strings.Cut(dest, ":")
		if !ok || h != host && !strings.HasSuffix(host, "@"+h) && !strings.HasSuffix(h, "@"+host) {
			continue
		}
		for _, src := range cp.Pos[:len(cp.Pos)-1] {
			if path.Base(src) == path.Base(script) {
				return script
			}
		}
	}
	return ""
}

// remoteScriptCmds prefilter core.destroy:remote-script: ssh, and the
// shells and interpreters a container exec runs.
var remoteScriptCmds = []string{"ssh", "sh", "bash", "zsh", "dash", "ksh", "ash", "fish", "mksh", "python", "python3", "perl", "ruby", "node", "php"}

func remoteScriptRule() Rule {
	return Rule{
		ID: "core.destroy:remote-script", Mode: Ask, Tools: shellTools, Cmds: remoteScriptCmds,
		Desc: "A local script or program output fed to a shell on another host or in a container (ssh host bash -s < f, cat x.sh | ssh host, kubectl exec -i pod -- sh < f), or copied there and run in the same line (scp x.sh h:/tmp && ssh h bash /tmp/x.sh): what runs there is not in the command",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if c.Name == "ssh" {
					if f := uploadedScript(e, c); f != "" && !uploadedShown(e, i) {
						return fmt.Sprintf("ssh runs %s on %s, copied there from here in the same command; the command does not show what it does", f, sshHost(c))
					}
				}
				if c.Stdin == "" {
					continue
				}
				if c.Name == "ssh" && !c.Has("-N", "-W", "-O", "-V") && stdinShell(c.Payload) {
					return fmt.Sprintf("ssh runs %s as a shell script on %s; the command does not show what it does", strings.TrimPrefix(strings.TrimPrefix(c.Stdin, "< "), "| "), sshHost(c))
				}
				if c.Name == "ssh" && !c.Has("-N", "-W", "-O", "-V") {
					if db := sshSQLClient(c.Payload); db != "" {
						return fmt.Sprintf("ssh feeds %s to %s on %s; the command does not show the statements (they may DROP, DELETE or TRUNCATE)", strings.TrimPrefix(strings.TrimPrefix(c.Stdin, "< "), "| "), db, sshHost(c)) // pack_sql_feed.go
					}
				}
				if where := remoteWrapper(c); where != "" && (callfacts.IsShell(c.Name) || callfacts.IsInterpreter(c.Name)) && c.Payload == "" && stdinShell(c.String()) {
					return fmt.Sprintf("%s runs %s through %s; the command does not show what it does", c.Name, strings.TrimPrefix(strings.TrimPrefix(c.Stdin, "< "), "| "), where)
				}
			}
			return ""
		},
		Catch: []string{"scp deploy.sh prod:/tmp/ && ssh prod 'bash /tmp/deploy.sh'", "rsync -a fix.py h:~/ && ssh h python3 fix.py", "ssh host bash -s < cleanup.sh", "ssh host 'bash -s' < wipe.sh", "cat nuke.sh | ssh prod bash", "ssh host < deploy.sh", "ssh h sudo bash < x.sh", "kubectl exec -i db-0 -- sh < reset.sh", "ssh h python3 - < job.py", "ssh db1 'psql shop' < fix.sql", "cat purge.sql | ssh db1 sudo -u postgres psql app"},
		Allow: []string{"ssh host uptime", "ssh host 'bash -s' <<'EOF'\nuptime\nEOF", "echo uptime | ssh host bash", "ssh -N -L 5432:localhost:5432 bastion < /dev/null", "bash -s < local.sh", "ssh host bash /srv/run.sh", "ssh -T git@github.com", "scp app.tar.gz prod:/tmp/ && ssh prod 'tar xzf /tmp/app.tar.gz'", "scp run.sh a:/tmp/ && ssh b bash /tmp/run.sh", "ssh db1 'psql -c \"select 1\"' < /dev/null"},
	}
}

// devDBMigration: c runs a project's SQL file (not named like a teardown
// or a dump) into a database named for development or tests (sqlcmd -S
// sqldev03 -d Billing_dev -i migrations/V42.sql), and the line names no
// production place: the developer's own schema moves forward.
func devDBMigration(e *Env, c *Cmd) bool {
	src := sqlFileOf(c)
	n := sqlDBName(e, c)
	if src == "" || strings.HasPrefix(src, "its input (|") || n == "" || !devName(n) || prodMarker.MatchString(lineWithPayloads(e)) || callfacts.UnknownValue(src) {
		return false
	}
	file := strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(src, "its input ("), ")"), "< ")
	return under(e.abs(c, file), e.F.Project) && !destructiveSQLName.MatchString(file[strings.LastIndexByte(file, '/')+1:])
}
