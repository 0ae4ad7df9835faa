package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Orchestrators, warehouses' loaders and ML platforms acting on what
// others share. Each is judged by the place it acts on: a backend store
// or metadata database named by a URL that is not this machine, a
// command run on the platform's host (ssh, kubectl exec), a dbt target
// or a BigQuery dataset that is not named for development. Their own
// scratch places — an AIRFLOW_HOME in a temp or project directory, a
// file or sqlite backend store, a dev target or dataset — stay allowed.

// toolHomeScratch: the line points c's own state directory at a scratch
// or project directory (AIRFLOW_HOME=/tmp/airflow-dev airflow db reset,
// DAGSTER_HOME=$(mktemp -d), GNUPGHOME=./.gnupg-test): what the command
// resets or deletes is that throwaway state, and none of the line's
// variables points it at a server elsewhere.
func toolHomeScratch(e *Env, c *Cmd) bool {
	if !strings.Contains(e.F.Command, "HOME=") {
		return false
	}
	pre := strings.ToUpper(strings.ReplaceAll(c.Name, "-", "_"))
	found := false
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		k, v := m[1], strings.Trim(m[2], `"'`)
		if !strings.HasPrefix(k, pre) && !(pre == "GPG" && k == "GNUPGHOME") {
			continue
		}
		switch {
		case strings.HasSuffix(k, "HOME"):
			if v == "" || callfacts.UnknownValue(v) && !strings.Contains(v, "mktemp") {
				return false
			}
			if strings.Contains(v, "mktemp") {
				found = true
				continue
			}
			if !e.scratchPath(c, v) {
				return false
			}
			found = true
		case strings.Contains(k, "CONN") || strings.HasSuffix(k, "_URL") || strings.HasSuffix(k, "_URI"):
			if !localStoreURI(v) {
				return false // AIRFLOW__DATABASE__SQL_ALCHEMY_CONN=postgresql://…prod…: the metadata database is shared
			}
		}
	}
	return found && len(c.Wrappers) == 0 && runsHere(e)
}

// localStoreURI: a backend store or database URI on this machine: a
// path, file:, sqlite, or a server at a loopback address.
func localStoreURI(v string) bool {
	l := strings.ToLower(v)
	switch {
	case v == "" || callfacts.UnknownValue(v):
		return false
	case !strings.Contains(l, "://"):
		return !strings.Contains(l, "@") // ./mlruns, /tmp/store
	case strings.HasPrefix(l, "file:") || strings.HasPrefix(l, "sqlite"):
		return true
	}
	return isLocalEndpoint(v)
}

// storeURIOf: the backend store an ML platform's command names
// (--backend-store-uri, the URL operand of mlflow db, the tracking URI
// variable), "" when the line names none (a local ./mlruns).
func storeURIOf(e *Env, c *Cmd) string {
	for _, o := range []string{"--backend-store-uri", "--tracking-uri", "--tracking_uri"} {
		if v := optValue(c, o); v != "" {
			return v
		}
	}
	for _, p := range c.Pos {
		if strings.Contains(p, "://") || callfacts.UnknownValue(p) && strings.Contains(strings.ToUpper(p), "URI") {
			return p
		}
	}
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if m[1] == "MLFLOW_TRACKING_URI" || m[1] == "MLFLOW_BACKEND_STORE_URI" {
			return strings.Trim(m[2], `"'`)
		}
	}
	return ""
}

// mlflowShared: mlflow's command acts on a backend store that is not
// this machine's (a database server elsewhere, a tracking server's URL).
func mlflowShared(e *Env, c *Cmd) string {
	u := storeURIOf(e, c)
	if u == "" || localStoreURI(u) || callfacts.UnknownValue(u) && !strings.Contains(strings.ToUpper(u), "URI") {
		return ""
	}
	return u
}

// orchestratorRuns: an Airflow command that starts, reruns, clears or
// resets runs or its metadata database (verb pairs; --reset-dagruns
// anywhere).
var airflowChanges = map[string]bool{"dags trigger": true, "dags backfill": true, "dags pause": true, "dags unpause": true, "dags delete": true,
	"tasks clear": true, "tasks run": true, "tasks state": false, "db reset": true, "db clean": true, "db downgrade": true, "db upgrade": true,
	"db migrate": true, "db init": true, "dags reserialize": true, "backfill create": true, "variables set": true, "variables delete": true,
	"variables import": true, "connections add": true, "connections delete": true, "connections import": true, "pools set": true, "pools delete": true}

// airflowPlace says where an airflow command acts when the line shows it
// is shared: run on another host (ssh airflow-prod-1, kubectl exec into
// the scheduler) or pointed at a metadata database elsewhere.
func airflowPlace(e *Env, c *Cmd) string {
	for _, w := range c.Wrappers {
		if strings.HasPrefix(w, "ssh") || strings.HasPrefix(w, "kubectl") || strings.HasPrefix(w, "oc ") {
			return "run through " + w
		}
	}
	if c.Remote != "" {
		return "run on " + c.Remote
	}
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if strings.HasPrefix(m[1], "AIRFLOW__") && strings.Contains(m[1], "CONN") && !localStoreURI(strings.Trim(m[2], `"'`)) {
			return m[1]
		}
	}
	return ""
}

// dbtTarget: the target a dbt command names (--target, -t, DBT_TARGET).
func dbtTarget(e *Env, c *Cmd) string {
	for _, o := range []string{"--target", "-t"} {
		if v := optValue(c, o); v != "" {
			return v
		}
	}
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if m[1] == "DBT_TARGET" {
			return strings.Trim(m[2], `"'`)
		}
	}
	return ""
}

// dbtWrites are dbt's commands that build or load relations in the
// target's warehouse (compile, ls, docs, test, debug, parse only read).
var dbtWrites = map[string]bool{"run": true, "build": true, "seed": true, "snapshot": true, "run-operation": true, "clone": true, "retry": true}

// bqReplace: the table a BigQuery load, copy or query writes, and
// whether the command replaces or fills it (load --replace, cp
// -f/--force, query --destination_table).
func bqReplace(c *Cmd) (dest string, ok bool) {
	switch sub(c) {
	case "load":
		if !c.Has("--replace", "--replace=true") || len(c.Pos) < 2 {
			return "", false
		}
		return c.Pos[1], true
	case "cp":
		if !c.Has("-f", "--force", "-force", "--force=true") || len(c.Pos) < 3 {
			return "", false
		}
		return c.Pos[len(c.Pos)-1], true
	case "query":
		// --destination_table: the result replaces (--replace), extends
		// (--append_table) or creates a table others query
		if d := optValue(c, "--destination_table"); d != "" {
			return d, true
		}
	}
	return "", false
}

// bqDevTable: a table under a project or dataset named for development
// or tests (acme-dev:marts.x, acme-analytics:dbt_jdoe_dev.x, scratch).
func bqDevTable(t string) bool {
	parts := strings.FieldsFunc(t, func(r rune) bool { return r == ':' || r == '.' })
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if prodWord.MatchString(p) {
			return false
		}
	}
	for _, p := range parts[:len(parts)-1] {
		if devName(p) || testName(p) {
			return true
		}
	}
	return false
}

func sharedDataPlatformRules() []Rule {
	return []Rule{
		cmdRule("external.systems:mlops-shared-gc", Deny, "mlflow gc against a backend store that is not this machine (a database server elsewhere, a tracking server): it deletes deleted runs and their artifacts for good, for everyone who shares the store; a local ./mlruns or sqlite store is the developer's own", []string{"mlflow"},
			func(e *Env, c *Cmd) string {
				if sub(c) != "gc" || onlyHelp(c) {
					return ""
				}
				if u := mlflowShared(e, c); u != "" {
					return "mlflow gc permanently deletes runs and artifacts of the shared store " + u
				}
				return ""
			},
			[]string{"mlflow gc --backend-store-uri postgresql://mlflow@mlflow-db.corp.example:5432/mlflow", "MLFLOW_TRACKING_URI=https://mlflow.corp.example mlflow gc --older-than 30d", "mlflow gc --backend-store-uri mysql://u@db.example.com/mlflow --experiment-ids 4"},
			[]string{"mlflow gc --backend-store-uri ./mlruns", "mlflow gc", "mlflow gc --backend-store-uri sqlite:///mlflow.db", "mlflow gc --backend-store-uri postgresql://mlflow@localhost:5432/mlflow"}),
		cmdRule("external.systems:mlops-shared-change", Ask, "mlflow db upgrade, or an ML platform's command that changes what a team shares (a schema migrated on a shared backend store, models deployed), against a store that is not this machine", []string{"mlflow"},
			func(e *Env, c *Cmd) string {
				if sub(c) != "db" || onlyHelp(c) {
					return ""
				}
				if u := mlflowShared(e, c); u != "" {
					return "mlflow db " + c.Sub(1) + " migrates the schema of the shared store " + u
				}
				return ""
			},
			[]string{"mlflow db upgrade postgresql://mlflow@mlflow-db.corp.example:5432/mlflow", "mlflow db upgrade mysql://u@db.example.com/mlflow", "MLFLOW_TRACKING_URI=postgresql://m@pg.corp.example/mlflow mlflow db upgrade"},
			[]string{"mlflow db upgrade sqlite:///mlflow.db", "mlflow db upgrade postgresql://mlflow@127.0.0.1:5432/mlflow", "mlflow runs list --experiment-id 1"}),
		cmdRule("external.systems:orchestrator-shared", Ask, "An Airflow command that triggers, backfills, clears, pauses or resets runs, or migrates its metadata database, run on the scheduler's host (ssh, kubectl exec) or against a metadata database elsewhere: shared pipelines rerun and their data is rewritten", []string{"airflow"},
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || len(c.Pos) < 2 || toolHomeScratch(e, c) {
					return ""
				}
				verb := strings.ToLower(c.Pos[0] + " " + c.Pos[1])
				if !airflowChanges[verb] && !c.Has("--reset-dagruns") {
					return ""
				}
				if where := airflowPlace(e, c); where != "" {
					return "airflow " + verb + " changes a shared Airflow (" + where + "): " + c.String()
				}
				return ""
			},
			[]string{"kubectl exec -n airflow deploy/airflow-scheduler -- airflow dags trigger etl_daily", "ssh airflow-1.corp 'airflow tasks clear -s 2024-01-01 -y etl_daily'",
				"AIRFLOW__DATABASE__SQL_ALCHEMY_CONN=postgresql://airflow@airflow-db.corp:5432/airflow airflow dags unpause etl_daily"},
			[]string{"airflow dags test etl_daily 2024-06-01", "kubectl exec -n airflow deploy/airflow-scheduler -- airflow dags list", "AIRFLOW_HOME=/tmp/af airflow dags trigger etl_daily", "airflow tasks test etl_daily extract 2024-06-01"}),
		cmdRule("external.systems:dbt-shared-target", Ask, "dbt run, build, seed, snapshot, clone or run-operation against a target that is not named for development (--target prod, -t staging, DBT_TARGET=prod): it rebuilds relations others query; compile, ls, docs, test and dev targets stay allowed", []string{"dbt"},
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || !dbtWrites[sub(c)] {
					return ""
				}
				t := dbtTarget(e, c)
				// a target a variable the line does not set chooses (--target
				// $DBT_TARGET) may be any: a plain run stays allowed, a
				// --full-refresh drops and rebuilds the relations there, so
				// it asks whatever the variable turns out to be
				if t == "" || devName(t) || testName(t) || callfacts.UnknownValue(t) && !prodWord.MatchString(t) && !c.Has("--full-refresh", "-f") {
					return ""
				}
				return "dbt " + sub(c) + " builds relations in the shared target " + t + ": " + c.String()
			},
			[]string{"dbt build --target prod", "dbt run -t prod -s fct_orders", "DBT_TARGET=prod dbt snapshot", "dbt seed --target staging", "dbt run --full-refresh --target $DBT_TARGET"},
			[]string{"dbt build --target dev", "dbt compile --target prod", "dbt ls --target prod", "dbt test --target prod", "dbt run", "dbt run --target ci_test", "dbt run --target $DBT_TARGET", "dbt run --full-refresh --target dev"}),
		cmdRule("external.systems:warehouse-replace", Ask, "A warehouse load, copy or query that replaces or fills a table (bq load --replace, bq cp -f, bq query --destination_table) in a dataset not named for development: what others query is swapped for the new data", []string{"bq"},
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || e.dryRun(c) {
					return ""
				}
				dest, ok := bqReplace(c)
				if !ok || bqDevTable(dest) {
					return ""
				}
				return "bq " + sub(c) + " replaces the table " + dest + ": " + c.String()
			},
			[]string{"bq load --replace --source_format=PARQUET acme:marts.dim 'gs://b/x/*.parquet'", "bq cp -f acme:staging.t acme:marts.t", "bq cp --force a:b.c a:d.e"},
			[]string{"bq load --source_format=CSV acme:marts.dim gs://b/x.csv", "bq cp acme:staging.t acme:marts.t2", "bq cp -f acme:marts.t acme-dev:scratch.t", "bq load --replace acme:dbt_jdoe_dev.t gs://b/x.csv"}),
	}
}

// dbOverwrites: a hosted database's commands that replace a database's
// contents with a copy or a backup (program → subcommand words), and the
// options naming the app or database they write into.
var dbOverwrites = map[string][]string{"heroku": {"pg:copy", "pg:backups:restore", "pg:backups restore"}, "fly": {"postgres import"}, "flyctl": {"postgres import"},
	"pscale": {"database restore-dump"}}

// dbOverwriteTarget: what c overwrites (the app or database it names),
// whether it does.
func dbOverwriteTarget(c *Cmd) (string, bool) {
	words := " " + strings.Join(c.Pos, " ") + " "
	for _, w := range dbOverwrites[c.Name] {
		if !strings.HasPrefix(words, " "+w+" ") {
			continue
		}
		for _, o := range []string{"-a", "--app", "-r", "--remote", "--confirm"} {
			if v := optValue(c, o); v != "" {
				return v, true
			}
		}
		if c.Name == "pscale" && len(c.Pos) > 3 {
			return c.Pos[2] + "/" + c.Pos[3], true // pscale database restore-dump DB BRANCH
		}
		return "", true
	}
	return "", false
}

// dbOverwriteRules: a database replaced by a copy or a backup
// (heroku pg:copy, pg:backups:restore, fly postgres import) is gone as
// it was; into an app or branch named for production it is denied, into
// any other hosted app (staging, a review app) it asks.
func dbOverwriteRules() []Rule {
	judge := func(c *Cmd) (string, bool) {
		if onlyHelp(c) {
			return "", false
		}
		t, ok := dbOverwriteTarget(c)
		if !ok {
			return "", false
		}
		prod := prodWord.MatchString(t) || c.Name == "pscale" && strings.HasSuffix(t, "/main")
		return c.Name + " replaces the database of " + orUnknown(t) + " with a copy or a backup: " + c.String(), prod
	}
	return []Rule{
		cmdRule("external.systems:db-overwrite-prod", Deny, "A hosted database replaced by a copy or a backup (heroku pg:copy, heroku pg:backups:restore, fly postgres import, pscale database restore-dump) in an app or branch named for production: its rows since are gone", []string{"heroku", "fly", "flyctl", "pscale"},
			func(e *Env, c *Cmd) string {
				if why, prod := judge(c); prod {
					return why
				}
				return ""
			},
			[]string{"heroku pg:copy shop-staging::DATABASE_URL DATABASE_URL -a shop-production --confirm shop-production", "heroku pg:backups:restore b101 DATABASE_URL -a shop-prod --confirm shop-prod", "flyctl postgres import postgres://u@old.example.com/app -a app-prod-db", "pscale database restore-dump shop main --dir dump/"},
			[]string{"heroku pg:backups:restore b101 DATABASE_URL -a shop-staging", "heroku pg:backups:capture -a shop-production", "heroku pg:backups -a shop-production", "pscale database restore-dump shop dev-alice --dir dump/"}),
		cmdRule("external.systems:db-overwrite", Ask, "A hosted database replaced by a copy or a backup (heroku pg:copy, heroku pg:backups:restore, fly postgres import) in an app not named for production (staging, a review app): others work on it", []string{"heroku", "fly", "flyctl", "pscale"},
			func(e *Env, c *Cmd) string {
				if why, prod := judge(c); why != "" && !prod {
					return why
				}
				return ""
			},
			[]string{"heroku pg:backups:restore b101 DATABASE_URL -a shop-staging", "heroku pg:copy shop-production::DATABASE_URL DATABASE_URL -a shop-staging --confirm shop-staging", "fly postgres import postgres://u@old.example.com/app -a app-staging-db"},
			[]string{"heroku pg:backups:capture -a shop-staging", "heroku pg:info -a shop-staging", "fly postgres connect -a app-staging-db"}),
	}
}
