package policy

import (
	_ "embed"
	"strings"
)

// clusterSQLRunners submit SQL to a shared cluster or its metastore
// (Spark, Hive, Impala, Trino): a DROP or TRUNCATE in any of their
// arguments, a job's --sql option included, runs there.
var clusterSQLRunners = []string{"spark-submit", "spark-sql", "pyspark", "beeline", "hive", "impala-shell", "trino", "presto", "sql-client.sh"}

// clusterSQLDropRule: DROP DATABASE/TABLE/SCHEMA or TRUNCATE handed to a
// cluster job or SQL shell, whatever option carries it.
func clusterSQLDropRule() Rule {
	return cmdRule("external.systems:cluster-sql-drop", Deny, "DROP DATABASE/SCHEMA/TABLE or TRUNCATE handed to a cluster's job or SQL shell (spark-submit job.py --sql \"DROP DATABASE prod CASCADE\", spark-sql -e, beeline -e, hive -e): the shared metastore's data goes; a local Spark master is left alone",
		clusterSQLRunners,
		func(e *Env, c *Cmd) string {
			for i, a := range c.Args {
				if a == "--master" && i+1 < len(c.Args) && strings.HasPrefix(c.Args[i+1], "local") || strings.HasPrefix(a, "--master=local") {
					return "" // a Spark session on this machine
				}
			}
			var text strings.Builder
			for _, a := range append(c.Args, c.Heredoc) {
				if !explainOnly(a) {
					text.WriteString(blankSQLStrings(a) + "\n") // WHERE query LIKE '%DROP TABLE%': a value searched for, not a statement
				}
			}
			if m := sqlDrop.FindString(text.String()); m != "" {
				return c.Name + " runs " + strings.ToUpper(m) + " on the cluster: " + c.String()
			}
			return ""
		},
		[]string{"spark-submit --master yarn --deploy-mode cluster jobs/sql_runner.py --sql \"DROP DATABASE prod_features CASCADE\"", "spark-sql -e 'DROP TABLE warehouse.events'",
			"beeline -u jdbc:hive2://hs2:10000 -e 'TRUNCATE TABLE sales'", "hive -e 'drop schema staging cascade'", "impala-shell -i impalad:21000 -q 'DROP TABLE logs PURGE'"},
		[]string{"spark-submit --master yarn jobs/backfill.py --date 2024-06-01", "spark-submit --master local[4] jobs/sql_runner.py --sql 'DROP TABLE tmp'", "spark-sql -e 'SELECT count(*) FROM events'",
			"beeline -u jdbc:hive2://hs2:10000 -e 'SHOW TABLES'", "hive -e 'describe formatted sales'"})
}
