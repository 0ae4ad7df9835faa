package policy

import "strings"

// A warehouse client's dev connection (snowsql -c dev, snow sql -c
// dev_jdoe) is a dev place: scratch tables there are the developer's
// own to drop, truncate or rebuild (pack_db_place.go). A whole
// schema or database dropped there is another size of thing: a cloud
// warehouse is never this machine, and DROP SCHEMA … CASCADE takes every
// table, view, stage and grant in it, whoever built them, in the account
// the team shares. It asks, whether the SQL comes as -q or on stdin
// (a here-document); production stays with core.sql:drop (deny).

// sqlDropsContainer: a statement dropping a whole schema or database.
var sqlDropsContainer = re(`(?i)\bdrop\s+(schema|database)\b`)

func devWarehouseDropRule() Rule {
	progs := []string{"snowsql", "snow", "bq", "databricks", "gcloud"} // cloudWarehouses and snow
	return cmdRule("core.sql:dev-warehouse-drop-schema", Ask, "A schema or database dropped through a cloud warehouse's dev connection (snowsql -c dev, snow sql -c dev, by -q or a here-document): every object in it goes, in the account the team shares; tables and scratch stay the developer's own", progs,
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || e.dryRun(c) || !devWarehouseConn(e, c) {
				return ""
			}
			text := strings.Join(c.Args, " ") + "\n" + c.Heredoc
			if m := sqlDropsContainer.FindString(text); m != "" {
				return c.Name + " runs " + strings.ToUpper(m) + " on the dev connection " + warehouseConn(e, c) + ": a whole schema in a shared cloud account"
			}
			return ""
		},
		[]string{"snowsql -c dev -q 'DROP SCHEMA IF EXISTS ANALYTICS_DEV.DBT_AB CASCADE'", "snowsql -c dev_jdoe <<'SQL'\nDROP DATABASE DEV_JDOE;\nSQL", "snow sql -c dev -q 'drop schema SANDBOX.MARTS'"},
		[]string{"snowsql -c dev -q 'DROP TABLE IF EXISTS DEV_A.SCRATCH.T'", "snow sql -c dev -q 'TRUNCATE TABLE DEV_A.S.E'", "snowsql -c dev <<'SQL'\nCREATE SCHEMA IF NOT EXISTS DEV_A.TMP;\nSQL", "snowsql -c dev -q 'SHOW SCHEMAS'"})
}
