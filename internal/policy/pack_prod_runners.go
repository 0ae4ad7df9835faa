package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Production reached through a project's own runners and frameworks: a
// task named for a change and for production (make migrate-prod), a
// framework command forced past its production guard (php artisan
// migrate --force) or pointed at production by its environment option
// (rails runner -e production), SQL that writes on a server the line
// hides in a variable or names for production, a schema migration tool
// taken down against such a server. The words are data
// (policy/remoteops.txt).

// prodTaskRule: a task whose name says it changes something and says
// production (make migrate-prod, npm run db:seed:production, just
// backfill-prd), run where its definition cannot be read.
func prodTaskRule() Rule {
	return cmdRule("external.systems:prod-task", Ask, "A task runner's task named for a change and for production at once (make migrate-prod, npm run db:seed:production, just backfill-prd) whose definition is not on disk to read: it changes production's data or schema by its name; the words are data (policy/remoteops.txt prod-task-change)", taskRunnerNames(),
		prodTaskHit,
		[]string{"make migrate-prod", "npm run db:seed:production", "just backfill-prd", "yarn db:reset:prod", "task sync-live-data", "pnpm run migrate:production"},
		[]string{"make migrate", "make build-prod", "npm run start:prod", "npm run test:prod", "make prod-logs", "make -n migrate-prod", "npm run lint:production"})
}

// frameworkProdEnv: the production environment a framework runner is
// pointed at by its own option (rails runner -e production, rake
// --environment=production), "" for none.
func frameworkProdEnv(c *Cmd) string {
	return prodOptValue(c, opsList("framework-env-opt"))
}

// prodOptValue returns "option value" for the first of c's options in
// opts (--env production, -e=prod) whose value names production, "" for
// none.
func prodOptValue(c *Cmd, opts map[string]bool) string {
	return optValueWhere(c, opts, func(v string) bool {
		if c.Payload != "" && v == c.Payload && !payloadChangesProd(v) {
			return false // python -c CODE that names production only in a local file's path or in read calls (pack_payload_prodname.go)
		}
		return prodWord.MatchString(v)
	})
}

// optValueWhere returns "option value" for the first of c's options in
// opts (--opt value or --opt=value) whose value ok accepts, "" for none.
func optValueWhere(c *Cmd, opts map[string]bool, ok func(v string) bool) string {
	for i, a := range c.Args {
		k, v, hasV := strings.Cut(a, "=")
		if !opts[k] {
			continue
		}
		if !hasV && i+1 < len(c.Args) {
			v = c.Args[i+1]
		}
		if ok(v) {
			return k + " " + v
		}
	}
	return ""
}

// siteReads are drush and wp-cli subcommands that only print.
var siteReads = map[string]bool{"status": true, "st": true, "core-status": true, "uli": true, "watchdog-show": true, "ws": true, "option": true, "plugin": true, "sql-query": false}

// frameworkReads are a framework runner's subcommands that only print.
var frameworkReads = map[string]bool{"routes": true, "about": true, "stats": true, "notes": true, "-T": true, "--tasks": true, "-v": true, "--version": true,
	"assets:precompile": true, "db:version": true, "db:migrate:status": true, "migrate:status": true, "route:list": true, "list": true, "env": true, "--help": true, "help": true,
	// ops14, fp14: Django's and artisan's checks and listings: they print the schema's or the
	// code's state (not settings' values: diffsettings, config:show print secrets)
	"showmigrations": true, "check": true, "sqlmigrate": true, "inspectdb": true, "schedule:list": true, "event:list": true, "model:show": true}

// frameworkProdRule: a framework's command pointed at production by
// its own environment option (rails runner -e production, rails c -e
// production) or forced past its production guard (php artisan migrate
// --force: artisan refuses in production without it).
func frameworkProdRule() Rule {
	return cmdRule("external.systems:framework-prod", Ask, "A framework command aimed at production by its own option or variable (rails runner -e production, symfony console --env=prod, manage.py migrate --settings=…production, DJANGO_SETTINGS_MODULE=…prod, drush @prod) or forced past the guard it keeps for production (php artisan migrate --force, db:seed --force): it changes the live database; reads (routes, about, status) stay allowed; the subcommands are data (policy/remoteops.txt force-prod-php, framework-env-opt, framework-env-var)", []string{"rails", "rake", "php", "artisan", "mix", "symfony", "python", "python3", "drush", "wp"},
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || e.dryRun(c) {
				return ""
			}
			pos := c.Pos
			artisan := false
			switch {
			case c.Name == "php" && len(pos) > 0 && strings.HasSuffix(pos[0], "artisan"):
				pos, artisan = pos[1:], true
			case (c.Name == "php" || strings.HasPrefix(c.Name, "python")) && len(pos) > 0 && (strings.HasSuffix(pos[0], "console") || strings.HasSuffix(pos[0], "manage.py")):
				pos = pos[1:] // php bin/console …, python manage.py …
			case c.Name == "symfony" && len(pos) > 0 && pos[0] == "console":
				pos = pos[1:]
			case c.Name == "php" || strings.HasPrefix(c.Name, "python"):
				return ""
			case c.Name == "drush" || c.Name == "wp":
				if c.AdminAction() == nil {
					return "" // drush @prod config:get system.site: the site tool's table says the verb reads (callfacts/admin.txt)
				}
				for _, p := range pos {
					if strings.HasPrefix(p, "@") && prodWord.MatchString(p) && len(pos) > 1 && !frameworkReads[pos[len(pos)-1]] && !siteReads[pos[len(pos)-1]] {
						return c.Name + " " + p + " runs against the production site: " + c.String()
					}
				}
				return ""
			}
			if len(pos) > 0 && (frameworkReads[pos[0]] || readsByWord(pos[0]) || opsList("local-sub")[c.Name+"/"+pos[0]]) {
				return "" // showmigrations, check --deploy, migrate:status (pack_read_words.go)
			}
			if c.OwnTarget(true) {
				return "" // --env=testing: the framework's own test environment
			}
			if artisan || c.Name == "artisan" {
				if len(pos) == 0 || !c.Has("--force") || artisanLocalEnv(e, c) {
					return ""
				}
				for _, p := range opsWords("force-prod-php") {
					if strings.HasPrefix(pos[0], p) {
						return "artisan " + pos[0] + " --force runs past its production guard: " + c.String()
					}
				}
				return ""
			}
			if env := frameworkProdEnv(c); env != "" {
				return c.Name + " runs against production (" + env + "): " + c.String()
			}
			if len(pos) > 0 {
				vars := opsList("framework-env-var")
				for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
					if vars[m[1]] && prodWord.MatchString(strings.Trim(m[2], `"'`)) {
						return c.Name + " runs against production (" + m[1] + "=" + m[2] + "): " + c.String()
					}
				}
			}
			return ""
		},
		[]string{"php artisan migrate --force", "php artisan db:seed --class=Plans --force", "bin/rails runner -e production 'User.update_all(confirmed: true)'", "rails c -e production", "bundle exec rake data:fix --environment=production", "php artisan migrate:rollback --step=1 --force",
			"symfony console doctrine:migrations:migrate --env=prod --no-interaction", "python manage.py migrate --settings=config.settings.production", "DJANGO_SETTINGS_MODULE=app.settings.prod python manage.py createsuperuser", "drush -y @prod updb", "MIX_ENV=prod mix ecto.migrate"},
		[]string{"php artisan migrate", "php artisan migrate:status --force", "rails runner -e development 'puts 1'", "bin/rails routes -e production", "php artisan route:list", "rails c", "php -r 'echo 1;'", "php artisan serve --force",
			"python manage.py migrate", "DJANGO_SETTINGS_MODULE=app.settings.prod python -c 'print(1)'", "drush @prod status", "symfony console cache:clear --env=dev", "python train.py -c configs/prod.yaml"})
}

// hiddenServer: the database server c connects to is named by a variable
// the line does not show ($DATABASE_URL, -h "$DB_HOST"), or by a name for
// production (-h prod-db…, PGPASSWORD=$PROD_…): what it says.
func hiddenServer(e *Env, c *Cmd) string {
	if m, _ := prodMarkerOf(e, c); m != "" {
		return m
	}
	if n := sqlProdConn(e, c, ""); n != "" && !oracleAdminLogin(c) {
		return n // hdbsql -U PRDKEY, sqlplus u/p@PRODDB
	}
	if h := sqlServer(c); h != "" {
		if prodWord.MatchString(h) && !callfacts.UnknownValue(h) {
			return h
		}
		if callfacts.UnknownValue(h) {
			return h
		}
		return ""
	}
	for _, a := range c.Args {
		if callfacts.UnknownValue(a) && (strings.Contains(strings.ToUpper(a), "URL") || strings.Contains(strings.ToUpper(a), "DSN") || strings.Contains(strings.ToUpper(a), "URI")) {
			return a
		}
	}
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		if v := m[2]; strings.Contains(v, "$") && strings.Contains(strings.ToUpper(v), "PROD") {
			return m[1] + "=" + v
		}
	}
	return ""
}

// sqlWrites: a statement that changes rows, schema or rights.
var sqlWrites = re(`(?is)((^|;)\s*(insert|update|delete|merge|alter|create|drop|truncate|grant|revoke|replace|upsert|copy\s+\w+\s+from|vacuum|reindex|rename)\b)|` +
	`(\.(update|delete|insert|replace)(one|many)\s*\(|\.(drop|dropdatabase|remove|renamecollection|deletemany|bulkwrite)\s*\()|` +
	// the mongo shell's schema, index, user and profiler changes
	`(\.(createindex(es)?|dropindex(es)?|createcollection|createview|createuser|dropuser|updateuser|grantrolestouser|revokerolesfromuser|findoneand(update|delete|replace)|reindex|converttocapped|setprofilinglevel|hideindex|unhideindex)\s*\()`)

// hiddenSQLServerRule: SQL that changes rows or schema, sent to a server
// the line hides in a variable or names for production: it may well be
// the live database, and the WHERE is the only guard.
func hiddenSQLServerRule() Rule {
	return cmdRule("external.systems:sql-hidden-server", Ask, "SQL that writes (INSERT, UPDATE, DELETE, ALTER, CREATE …) sent to a server the line hides in a variable ($DATABASE_URL, -h \"$DB_HOST\") or names for production (-h prod-db…, PGPASSWORD=$PROD_…): it may be the live database; reads and local servers stay allowed", netSQLClients,
		func(e *Env, c *Cmd) string {
			text := sqlToJudge(e, c)
			// resid: the statement kinds sql-write-shared reads too
			// (REFRESH MATERIALIZED VIEW, CLUSTER, COMMENT ON, UNDROP,
			// PUT/REMOVE on a stage) write on a hidden server as much
			if !sqlWrites.MatchString(text) && !sqlWriteStmt.MatchString(text) {
				return ""
			}
			if where := hiddenServer(e, c); where != "" {
				st := strings.TrimSpace(text)
				if len(st) > 80 {
					st = st[:80] + "…"
				}
				return c.Name + " writes on the server " + where + " names: " + st
			}
			return ""
		},
		[]string{`psql "$DATABASE_URL" -c "DELETE FROM sessions WHERE created_at < now() - interval '1 day';"`, `PGPASSWORD=$PROD_PG_PASS psql -h prod-db.example.internal -U app -c "UPDATE accounts SET plan='pro' WHERE id=4211;"`,
			`mysql -h "$DB_HOST" -u app -e "INSERT INTO flags VALUES (1)"`, `psql $PG_URL -c 'ALTER TABLE users ADD COLUMN x int'`, `mongosh "$MONGO_URI" --eval 'db.users.updateMany({}, {$set: {plan: "free"}})'`},
		[]string{`psql "$DATABASE_URL" -c "SELECT count(*) FROM sessions"`, `psql -h localhost -c "DELETE FROM sessions WHERE id=1"`, `psql -h db.example.com -c "UPDATE users SET x=1 WHERE id=1"`, `psql "$DATABASE_URL" -f queries/report.sql`, `psql -h prod-db.example.internal -c "SELECT 1"`, `mongosh "$MONGO_URI" --eval 'db.users.countDocuments({})'`})
}

// hiddenMigrateDownRule: a schema migration tool taken down, reset or
// cleaned (migrate … down -all, goose down, dbmate rollback, flyway
// clean) against a database the line hides in a variable or names for
// production.
func hiddenMigrateDownRule() Rule {
	return cmdRule("external.systems:migrate-down-hidden", Ask, "A schema migration tool run down, reset, cleaned or forced (migrate down -all, goose reset, dbmate rollback, flyway clean, atlas schema clean) against a database the line hides in a variable or names for production: tables and their data go; the tools and verbs are data (policy/remoteops.txt migrate-tools, migrate-down)", opsNames("migrate-tools"),
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || e.dryRun(c) {
				return ""
			}
			down := ""
			for _, p := range c.Pos {
				if opsList("migrate-down")[strings.ToLower(p)] {
					down = p
					break
				}
			}
			if down == "" {
				return ""
			}
			where := ""
			for i, a := range c.Args {
				if callfacts.UnknownValue(a) || prodWord.MatchString(a) && i > 0 && strings.HasPrefix(c.Args[i-1], "-") && !strings.HasPrefix(a, "-") {
					where = a
				}
			}
			if m, _ := prodMarkerOf(e, c); m != "" {
				where = m
			}
			for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
				if strings.Contains(m[1], "DATABASE") || strings.Contains(m[1], "DB_") {
					if v := m[2]; prodWord.MatchString(v) || strings.Contains(v, "$") {
						where = m[1] + "=" + v
					}
				}
			}
			if where == "" {
				return ""
			}
			return c.Name + " " + down + " changes the schema of the database " + where + " names: " + c.String()
		},
		[]string{`migrate -path db/migrations -database "$DATABASE_URL" down -all`, `goose -dir migrations postgres "$PROD_DSN" reset`, `dbmate --url "$DATABASE_URL" rollback`, `flyway -url=$PROD_JDBC_URL clean`},
		[]string{`migrate -path db/migrations -database "$DATABASE_URL" up`, `migrate -path db/migrations -database postgres://localhost:5432/app_dev down 1`, `goose -dir migrations status`, `dbmate up`, `flyway info`})
}

// frameworkProdDestroyRule: a framework's or site tool's command that
// drops the whole database, forced past its production guard (php
// artisan migrate:fresh --force, db:wipe --force) or aimed at a
// production site alias (drush @prod sql-drop).
func frameworkProdDestroyRule() Rule {
	return cmdRule("external.systems:framework-prod-destroy", Deny, "A framework's or site tool's command that drops the whole database, forced past its production guard (php artisan migrate:fresh --force, db:wipe --force) or aimed at a production site alias (drush @prod sql-drop, drush @live site:install): the live data is gone; the subcommands are data (policy/remoteops.txt framework-destroy)", []string{"php", "artisan", "drush"},
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || e.dryRun(c) {
				return ""
			}
			destroy := opsList("framework-destroy")
			pos := c.Pos
			if c.Name == "php" {
				if len(pos) == 0 || !strings.HasSuffix(pos[0], "artisan") {
					return ""
				}
				pos = pos[1:]
			}
			if c.Name != "drush" {
				if len(pos) > 0 && destroy[pos[0]] && c.Has("--force") && !c.OwnTarget(false) && !artisanLocalEnv(e, c) {
					return "artisan " + pos[0] + " --force drops the database past its production guard: " + c.String()
				}
				return ""
			}
			alias := ""
			for _, p := range pos {
				if strings.HasPrefix(p, "@") && (prodWord.MatchString(p) || strings.Contains(strings.ToLower(p), "live")) {
					alias = p
				}
			}
			for _, p := range pos {
				if alias != "" && destroy[p] {
					return "drush " + p + " drops the database of " + alias + ": " + c.String()
				}
			}
			return ""
		},
		[]string{"php artisan migrate:fresh --force", "php artisan db:wipe --force", "drush -y @prod sql-drop", "drush @live site:install standard -y"},
		[]string{"php artisan migrate:fresh", "php artisan migrate:fresh --seed", "drush @dev sql-drop -y", "drush @prod status", "php artisan migrate --force"})
}

// prodTaskHit is why c runs a task named for a change to production
// whose definition is not read, "" when it does not.
func prodTaskHit(e *Env, c *Cmd) string {
	if !mayNameProd(e.F.Command) && !strings.Contains(e.F.Command, "live") {
		return "" // the everyday task: no word for production on the line
	}
	if onlyHelp(c) || e.dryRun(c) || c.Has("-n", "--just-print", "--dry-run", "--list", "-l") && c.Name != "npm" || definitionRead(e, c) {
		return ""
	}
	change, stay := opsList("prod-task-change"), opsList("local-task")
	for _, t := range runnerTasks(c) {
		prod, hit := false, ""
		for _, w := range wordsOf(strings.ToLower(t)) {
			switch {
			case stay[w]:
				hit = ""
				prod = false
			case w == "prod" || w == "production" || w == "prd" || w == "live":
				prod = true
			case change[w] && hit == "":
				hit = w
			}
			if stay[w] {
				break
			}
		}
		if prod && hit != "" {
			return c.Name + " " + t + " runs a " + hit + " task against production by its name: " + c.String()
		}
	}
	return ""
}
