package policy

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// SQL carried in an option of a cloud data service's CLI (aws athena
// start-query-execution --query-string, aws redshift-data
// execute-statement --sql, aws rds-data, dynamodb execute-statement's
// PartiQL): the statement runs on the service, a server that is not
// this machine, so it is read as a database client's statement aimed at
// a remote server is: a drop, a truncate, an every-row or bulk DELETE or
// UPDATE, an administration grant → deny; a warehouse statement of
// sqlkinds.txt at its level (a deny one denies, an ask one asks);
// connection words naming a dev or test database keep it the
// developer's own. The CLI itself is no SQL client: only the options
// cloudsql.txt names carry a statement (aws's --query is JMESPath).

//go:embed cloudsql.txt
var cloudSQLText string

type cloudSQLEntry struct {
	words []string
	opts  []string
}

var cloudSQLTable = sync.OnceValue(func() map[string][]cloudSQLEntry {
	out := map[string][]cloudSQLEntry{}
	datatable.Must("cloudsql.txt", cloudSQLText, 3, func(l datatable.Line) error {
		f := l.Fields
		out[f[0]] = append(out[f[0]], cloudSQLEntry{words: f[1 : len(f)-1], opts: strings.Split(f[len(f)-1], ",")})
		return nil
	})
	return out
})

// cloudSQLNames are the programs cloudsql.txt lists.
var cloudSQLNames = sync.OnceValue(func() []string {
	var out []string
	for n := range cloudSQLTable() {
		out = append(out, n)
	}
	return out
})

// cloudSQLOf is the statement text c carries in a cloudsql.txt option
// and the other arguments (the connection words), "" when none.
func cloudSQLOf(c *Cmd) (string, []string) {
	for _, en := range cloudSQLTable()[c.Name] {
		if len(c.Pos) < len(en.words) {
			continue
		}
		ok := true
		for i, w := range en.words {
			if c.Pos[i] != w {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		var b strings.Builder
		var rest []string
		for i := 0; i < len(c.Args); i++ {
			k, v, hasV := strings.Cut(c.Args[i], "=")
			hit := false
			for _, o := range en.opts {
				hit = hit || k == o
			}
			if !hit {
				rest = append(rest, c.Args[i])
				continue
			}
			if !hasV && i+1 < len(c.Args) {
				i++
				v = c.Args[i]
			}
			b.WriteString(v + ";")
		}
		return b.String(), rest
	}
	return "", nil
}

func cloudSQLRules() []Rule {
	judge := func(e *Env, c *Cmd) (string, string) {
		if onlyHelp(c) || e.dryRun(c) {
			return "", ""
		}
		text, rest := cloudSQLOf(c)
		if text == "" {
			return "", ""
		}
		for _, w := range rest {
			for _, n := range sqlWordNames(w) {
				if devDBName.MatchString(n) || localDBWord[strings.ToLower(n)] {
					return "", "" // --database analytics_dev: the developer's own
				}
			}
		}
		svc := c.Name + " " + c.Pos[0]
		if stmt, _ := sqlRisk(text); stmt != "" {
			if len(stmt) > 80 {
				stmt = stmt[:80] + "…"
			}
			return "deny", svc + " runs " + stmt + " on the cloud service"
		}
		if stmt, deny, _ := sqlKindOf(text); stmt != "" {
			if len(stmt) > 80 {
				stmt = stmt[:80] + "…"
			}
			if deny {
				return "deny", svc + " runs " + stmt + " on the cloud service"
			}
			return "ask", svc + " runs " + stmt + " on the cloud service"
		}
		return "", ""
	}
	desc := "a cloud data service's option (athena --query-string, redshift-data/rds-data --sql, dynamodb execute-statement): it runs on the service, not this machine (policy/cloudsql.txt)"
	return []Rule{
		cmdRule("external.systems:sql-cloud-carried", Deny, "A statement that drops, truncates, empties or bulk-changes a table, grants administration, or a deny statement of sqlkinds.txt, carried in "+desc, cloudSQLNames(),
			atLevel(judge, "deny"),
			[]string{`aws athena start-query-execution --work-group primary --query-string "DROP TABLE sales.orders"`, `aws redshift-data execute-statement --cluster-identifier dw --database analytics --sql "TRUNCATE events"`,
				`aws rds-data execute-statement --resource-arn arn:aws:rds:us-east-1:1:cluster:c --secret-arn arn:s --sql "UPDATE accounts SET plan = 'free'"`},
			[]string{`aws athena start-query-execution --work-group primary --query-string "SELECT count(*) FROM sales.orders"`, `aws athena get-query-results --query-execution-id abc`,
				`aws redshift-data execute-statement --cluster-identifier dw --database analytics_dev --sql "TRUNCATE events"`, `aws ec2 describe-instances --query 'Reservations[].Instances[].InstanceId'`}),
		cmdRule("external.systems:sql-cloud-maintenance", Ask, "A warehouse statement of sqlkinds.txt's ask level (history expired, a table's files rewritten, a warehouse sized up, data copied out) carried in "+desc, cloudSQLNames(),
			atLevel(judge, "ask"),
			[]string{`aws athena start-query-execution --work-group etl --query-string "CALL iceberg.system.expire_snapshots('db', 'events')"`, `aws athena start-query-execution --query-string "OPTIMIZE db.events REWRITE DATA USING BIN_PACK"`,
				`aws athena start-query-execution --query-string "CALL system.remove_orphan_files(table => 'db.events')"`},
			[]string{`aws athena start-query-execution --work-group etl --query-string "SELECT * FROM \"db\".\"events$snapshots\""`, `aws athena start-query-execution --query-string "SHOW TBLPROPERTIES db.events"`,
				`aws athena start-query-execution --query-string "OPTIMIZE db.events_dev REWRITE DATA USING BIN_PACK" --query-execution-context Database=analytics_dev`}),
	}
}
