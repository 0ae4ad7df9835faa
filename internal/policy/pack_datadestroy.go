package policy

import (
	"slices"
	"strings"
)

// dataTasks are the tasks of frameworks and database tools that drop,
// empty or rebuild a database from nothing: program → words (a word
// matches a subcommand; "--opt" an option; "a b" two words in order).
// Adding a tool is a line here.
var dataTasks = map[string][]string{
	"rails":     {"db:drop", "db:reset", "db:schema:load", "db:purge", "db:migrate:reset", "db:truncate_all", "db:structure:load", "db:seed:replant"},
	"rake":      {"db:drop", "db:reset", "db:schema:load", "db:purge", "db:migrate:reset", "db:truncate_all", "db:structure:load"},
	"manage.py": {"flush", "reset_db", "sqlflush"}, "django-admin": {"flush", "reset_db"},
	"artisan": {"migrate:fresh", "migrate:reset", "migrate:refresh", "db:wipe"},
	"knex":    {"migrate:rollback --all"}, "sequelize": {"db:drop", "db:migrate:undo:all"}, "sequelize-cli": {"db:drop", "db:migrate:undo:all"},
	"alembic": {"downgrade base"}, "prisma": {"migrate reset", "--accept-data-loss", "--force-reset"}, "liquibase": {"dropAll", "drop-all"},
	"flyway": {"clean"}, "typeorm": {"schema:drop"}, "typeorm-ts-node-commonjs": {"schema:drop"}, "console": {"doctrine:database:drop", "doctrine:schema:drop"},
	"mix": {"ecto.drop", "ecto.reset"}, "supabase": {"db reset --linked"}, "mongorestore": {"--drop"}, "pg_restore": {"--clean", "-c"},
	"influx": {"delete", "bucket delete"}, "dropdb": {""}, "mysqladmin": {"drop"}, "diesel": {"database reset", "migration redo --all"},
	"sqlx": {"database drop", "database reset"}, "dbmate": {"drop"}, "goose": {"reset"}, "migrate": {"drop"}, "atlas": {"schema clean"},
	"hasura": {"migrate apply --down all"}, "drizzle-kit": {"drop"}, "mikro-orm": {"schema:drop", "schema:fresh"}, "cqlsh": {}, "arangodb": {},
}

var (
	prodMarker  = re(`(?i)(^|[^a-z])(prod|production|live)([^a-z]|$)|PROD_|_PROD\b`)
	localMarker = re(`(?i)(RAILS_ENV|NODE_ENV|MIX_ENV|APP_ENV|DJANGO_SETTINGS_MODULE|--env|-e)[= ](test|testing|development|dev|local)\b|\benv=(test|testing|development|dev|local)\b|localhost|127\.0\.0\.1|_test\b|settings[._](test|dev|development|local)\b|test_settings\b`)
	solrWipe    = re(`(?i)<delete>\s*<query>\s*\*:\*`)
	mcFlush     = re(`(?i)flush_all`)
)

// dataDestroyRule: a framework's or a tool's task that drops, empties or
// rebuilds a database. Against production (the line names it: an
// environment, a URL or host with prod, a PROD_ variable) it is denied,
// against a test or local database allowed, and asked otherwise: the
// line does not show which database the task's configuration points at.
func dataDestroyRule() []Rule {
	// the prod and the ask rule read the same answer: read once per call
	// (Env.dataRead)
	return dataDestroyRules(func(e *Env) (string, bool) {
		if !e.dataRead {
			e.dataWhy, e.dataProd = dataDestroyOnce(e)
			e.dataRead = true
		}
		return e.dataWhy, e.dataProd
	})
}

// dataDestroyOnce is the database-destroying task of the line and
// whether it is aimed at production ("" for none).
func dataDestroyOnce(e *Env) (string, bool) {
	line := e.F.Command
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		name := c.Name
		args := c.Args
		if (isShellOrInterp(name) || name == "php") && len(c.Pos) > 0 && (strings.HasSuffix(c.Pos[0], "manage.py") || c.Pos[0] == "artisan" || strings.HasSuffix(c.Pos[0], "bin/console")) {
			name = strings.TrimPrefix(c.Pos[0][strings.LastIndex(c.Pos[0], "/")+1:], "bin/")
			args = c.Args[slices.Index(c.Args, c.Pos[0])+1:]
		}
		words, ok := dataTasks[name]
		if !ok {
			if (name == "nc" || name == "ncat" || name == "telnet") && mcFlush.MatchString(c.Heredoc+line) {
				return "a memcached flush_all sent to " + strings.Join(c.Pos, " "), prodMarker.MatchString(line) || !localMarker.MatchString(line)
			}
			if sendsRequests[name] && solrWipe.MatchString(strings.Join(args, " ")) {
				return name + " deletes every document of a search index: " + c.String(), !localMarker.MatchString(line)
			}
			continue
		}
		a := " " + strings.Join(args, " ") + " "
		hit := ""
		for _, w := range words {
			if w == "" || strings.Contains(a, " "+w+" ") || strings.HasPrefix(w, "-") && strings.Contains(a, " "+w+"=") {
				hit = w
				break
			}
		}
		if hit == "" || e.dryRun(c) || onlyHelp(c) {
			continue
		}
		why := strings.TrimSpace(name+" "+hit) + " drops or rebuilds a database: " + c.String()
		if prodMarker.MatchString(line) {
			return why + " (production)", true
		}
		if h := dbURLElsewhere(line); h != "" {
			return why + " (a shared database at " + h + ")", true // DATABASE_URL=postgresql://…@…pooler.supabase.com/… prisma migrate reset (pack_db_place.go)
		}
		if localMarker.MatchString(line) || selfGuarded(name, line) || devByDefault(name, line) || localDevDB(e) || devConfigTask(line) { // devConfigTask: devconfig_task.go
			continue
		}
		return why, false
	}
	return "", false
}

// dataDestroyRules are the prod and the ask rule of dataDestroyRule.
func dataDestroyRules(match func(e *Env) (string, bool)) []Rule {
	return []Rule{
		{ID: "core.sql:destroy-task-prod", Mode: Deny, Tools: shellTools,
			Desc: "A framework's or a database tool's task that drops, empties or rebuilds a database, aimed at production (rails db:drop RAILS_ENV=production, knex migrate:rollback --all --env production, liquibase dropAll on a prod URL, pg_restore --clean into $PROD_DB_URL, mongorestore --drop)",
			Match: func(e *Env) string {
				if why, prod := match(e); prod {
					return why
				}
				return ""
			},
			Catch: []string{"DISABLE_DATABASE_ENVIRONMENT_CHECK=1 bin/rails db:drop RAILS_ENV=production", "npx knex migrate:rollback --all --env production", "liquibase dropAll --url=jdbc:postgresql://db.prod/app",
				"pg_restore --clean --if-exists -d \"$PROD_DB_URL\" dump.pgdump", "mongorestore --drop --uri \"$MONGO_PROD\" dump/", "MIX_ENV=prod mix ecto.drop", "npx sequelize-cli db:drop --env production",
				"printf 'flush_all\\r\\n' | nc cache.internal 11211", "curl -X POST 'http://solr.internal:8983/solr/core/update?commit=true' -H 'Content-Type: text/xml' -d '<delete><query>*:*</query></delete>'"},
			Allow: []string{"bin/rails db:migrate RAILS_ENV=production", "RAILS_ENV=test bin/rails db:drop", "pg_restore -l dump.pgdump", "mix ecto.migrate"}},
		{ID: "core.sql:destroy-task", Mode: Ask, Tools: shellTools,
			Desc: "A framework's or a database tool's task that drops, empties or rebuilds a database the line does not show (python manage.py flush, alembic downgrade base, prisma migrate reset, artisan migrate:fresh, flyway clean); a test or local database is routine",
			Match: func(e *Env) string {
				if why, prod := match(e); !prod {
					return why
				}
				return ""
			},
			Catch: []string{"python manage.py flush --noinput", "alembic downgrade base", "npx prisma db push --accept-data-loss", "php artisan migrate:fresh --force", "flyway clean"},
			Allow: []string{"python manage.py migrate", "alembic upgrade head", "npx prisma migrate dev", "RAILS_ENV=test rails db:reset", "dropdb -h localhost app_test", "flyway info"}},
	}
}

var (
	localHostRef = re(`(?i)localhost|127\.0\.0\.1|\[::1\]|/var/run/postgresql|/tmp/\.s\.PGSQL|\(localdb\)|\(local\)`)
	testDBRef    = re(`(?i)[_-]test\b|\btest_|\btest\b|[_-]testing\b|[_-]test[_-](tmp|temp|scratch|\d+)\b|[_-](?:it|itest|inttest|e2e)(?:[_-][0-9a-f]{2,})?\b`) // ledger_it_4f21, orders_e2e: an integration run's database
)

// localTestDB: the line names a database server on this machine and a
// test database (psql -h localhost -d app_test, mongodb://localhost/app_test).
func localTestDB(line string) bool {
	return localHostRef.MatchString(line) && (testDBRef.MatchString(line) || testDBCamel.MatchString(line)) || testDBName.MatchString(line) && !namesDBHost.MatchString(line)
}

// testDBName: the database the command names (-d, --dbname, dropdb's
// argument) is a test one; namesDBHost: the line names a server. With no
// server named a client connects to this machine's socket, so a test
// database named there is the developer's own (dropdb --if-exists app_test).
var (
	testDBName  = re(`(?i)(?:(?:^|\s)(?:-d|--dbname)[\s=]|\bdropdb\s+(?:-\S+\s+)*)['"]?(?:[\w-]*[_-]test|test_[\w-]*)['"]?(?:\s|$)`)
	namesDBHost = re(`(?:^|\s)(?:-h|--host|-S|--server|-p|--port)[\s=]|\b(?:PGHOST|PGSERVICE|DATABASE_URL|DB_HOST|host|hostaddr)=|\w+://`)
)
