package policy

import (
	"path"
	"strings"
)

// Schema migration tools against a shared database. flyway, liquibase,
// goose, dbmate, atlas and their kin — also as build-tool goals (mvn
// flyway:clean, gradle flywayMigrate) — say which database they change by
// a URL (-url=jdbc:postgresql://ledger-prod…, -Dflyway.url=…, --url, a
// DSN operand), a configuration file (-configFiles=conf/prod.conf,
// -Dflyway.configFiles=…/flyway-prod.conf, --defaults-file) or an
// environment (-environment=prod). When that database is production or a
// server that is not this machine nor named for development or tests,
// emptying it (clean, dropAll, reset) is denied — every table and row of
// a database others use goes — and any other change (migrate, repair,
// baseline, update, rollback, up) asks — and is denied when the database
// is named as production (prod_rewrite.go); reads (info, validate, status,
// history, update-sql) and the developer's own database stay allowed.
// The verbs are data (remoteops.txt migrate-empty, migrate-read).

// migrateTools are the programs whose verbs this reads (remoteops.txt
// migrate-tools) and the build tools that run them as goals or tasks.
func migrateToolNames() []string {
	return append(opsNames("migrate-tools", "migrate-orm-tools"), "mvn", "mvnw", "./mvnw", "gradle", "gradlew", "./gradlew")
}

// migrateVerb is the migration verb c runs, lower-case ("clean",
// "migrate"), "" for none: a tool's first verb operand, a Maven goal
// (flyway:clean, liquibase:dropAll) or a Gradle task (flywayMigrate).
func migrateVerb(c *Cmd) string {
	switch path.Base(c.Name) {
	case "mvn", "mvnw":
		for _, p := range c.Pos {
			if t, v, ok := strings.Cut(p, ":"); ok && (t == "flyway" || t == "liquibase") {
				return strings.ToLower(v)
			}
		}
		return ""
	case "gradle", "gradlew":
		for _, p := range c.Pos {
			if v, ok := strings.CutPrefix(p, "flyway"); ok && v != "" && v[0] >= 'A' && v[0] <= 'Z' {
				return strings.ToLower(v)
			}
		}
		return ""
	}
	if groupsOf(c.Name) && (len(c.Pos) == 0 || !opsList("migrate-tool-group")[path.Base(c.Name)+"/"+strings.ToLower(c.Pos[0])]) {
		return "" // atlas clusters update: MongoDB's atlas, not Ariga's (atlas schema apply, atlas migrate apply)
	}
	// the words of its first operands (prisma migrate status, knex
	// migrate:latest, sequelize db:migrate:undo): a read word anywhere
	// makes it a read, then a word that empties, then any other change
	var words []string
	n := 0
	for _, p := range c.Pos {
		if optionBefore(c.Args, p) {
			continue // goose -dir migrations …: an option's value
		}
		if n++; n > 3 {
			break
		}
		l := strings.ToLower(p)
		words = append(words, l)
		if strings.Contains(l, ":") && !strings.Contains(l, "/") {
			words = append(words, strings.Split(l, ":")...)
		}
	}
	for _, list := range []string{"migrate-read", "migrate-empty", "migrate-change", "migrate-down"} {
		for _, w := range words {
			if opsList(list)[w] {
				return w
			}
		}
	}
	return ""
}

// groupsOf: the migration tool name is shared with another program, and
// its migrations run under command groups (remoteops.txt
// migrate-tool-group: atlas/schema, atlas/migrate).
func groupsOf(name string) bool {
	for _, w := range opsWords("migrate-tool-group") {
		if t, _, _ := strings.Cut(w, "/"); t == path.Base(name) {
			return true
		}
	}
	return false
}

// migrateTarget says which database c changes when it is not the
// developer's own: "production (…)", a shared server's host, or "".
func migrateTarget(c *Cmd) string {
	shared := ""
	judge := func(k, v string) string {
		v = strings.Trim(v, `"'`)
		if v == "" || strings.Contains(v, "$") {
			return ""
		}
		if i := strings.Index(v, "host="); i >= 0 && strings.Contains(v, " ") {
			v, _, _ = strings.Cut(v[i+len("host="):], " ") // a libpq conninfo: "host=pg.prod.x user=app"
		}
		if prodValue(v) || strings.HasPrefix(strings.ToLower(v), "jdbc:oracle") && prodConnName(v[strings.LastIndexAny(v, "/:@")+1:]) {
			return "production (" + strings.TrimSpace(k+" "+v) + ")"
		}
		if h := jdbcHost(v); h != "" && shared == "" && !isLocalEndpoint(h) && h != "localhost" && !devName(h) && !testName(h) && !devName(v) && !testName(v) && strings.ContainsAny(h, ".-") {
			shared = h // a server that is not this machine: a managed cluster, a company host
		}
		if shared == "" && sharedEnvWord.MatchString(v) {
			shared = "the shared staging database (" + strings.TrimSpace(k+" "+v) + ")" // -configFiles=conf/flyway.staging.conf: others test on it
		}
		return ""
	}
	build := strings.HasPrefix(path.Base(c.Name), "mvn") || strings.HasPrefix(path.Base(c.Name), "gradle")
	for i, a := range c.Args {
		if build && strings.HasPrefix(a, "-P") && len(a) > 2 && prodValue(a[2:]) {
			return "production (the build profile " + a + ")" // mvn -Pprod flyway:migrate
		}
		k, v, hasV := strings.Cut(a, "=")
		if strings.HasPrefix(k, "-") && !hasV && i+1 < len(c.Args) && !strings.HasPrefix(c.Args[i+1], "-") && opsList("migrate-target-opt")[k] {
			v = c.Args[i+1]
		}
		if !strings.HasPrefix(a, "-") {
			k, v = "", a // an operand: goose postgres "postgres://…" up
		}
		if !strings.HasPrefix(a, "-") || opsList("migrate-target-opt")[k] || strings.HasPrefix(k, "-Dflyway.") || strings.HasPrefix(k, "-Dliquibase.") {
			if p := judge(k, v); p != "" {
				return p
			}
		}
	}
	return shared
}

// jdbcHost is the server host of a database URL (jdbc:postgresql://h:5432/d,
// jdbc:oracle:thin:@h:1521/S, postgres://u@h/d, sqlserver://h;…), "" when
// v is none or names a file or memory database.
func jdbcHost(v string) string {
	l := strings.ToLower(v)
	if strings.Contains(l, "://") {
		return urlHost(strings.SplitN(l, ";", 2)[0]) // sqlserver://h:1433;databaseName=x
	}
	if strings.HasPrefix(l, "jdbc:oracle") {
		if _, id, ok := strings.Cut(l, "@"); ok {
			id = strings.TrimPrefix(id, "//")
			h, _, _ := strings.Cut(strings.SplitN(id, "/", 2)[0], ":")
			return h
		}
	}
	return ""
}

func sharedMigrateRules() []Rule {
	judge := func(e *Env, c *Cmd) (string, string) {
		if onlyHelp(c) || e.dryRun(c) {
			return "", ""
		}
		v := migrateVerb(c)
		if v == "" || opsList("migrate-read")[v] || strings.HasSuffix(v, "-sql") || strings.HasSuffix(v, "sql") && v != "executesql" {
			return "", "" // info, validate, updateSQL: prints, changes nothing
		}
		where := migrateTarget(c)
		if m := prodConnEnv(e); where == "" && m != "" {
			where = "production (" + m + ")" // DATABASE_URL=postgresql://…prod… alembic upgrade head
		}
		if where == "" {
			return "", ""
		}
		if opsList("migrate-empty")[v] && !strings.HasPrefix(where, "the shared staging") {
			return "deny", c.Name + " " + v + " empties the database of " + where + ", which others use: " + short80(c.String())
		}
		return "ask", c.Name + " " + v + " changes the schema of " + where + ": " + short80(c.String())
	}
	return []Rule{
		cmdRule("external.systems:migrate-empty-shared", Deny, "A schema migration tool told to empty a database (flyway clean, liquibase dropAll, mvn flyway:clean, gradle flywayClean, dbmate drop) that is production or a server that is not this machine nor named for development or tests: every table and row others use goes; the verbs are data (policy/remoteops.txt migrate-empty)", migrateToolNames(),
			atLevel(judge, "deny"),
			[]string{"mvn flyway:clean -Dflyway.url=jdbc:mysql://orders.cluster-abc.eu-west-1.rds.amazonaws.com:3306/orders -Dflyway.cleanDisabled=false", "flyway -configFiles=conf/prod.conf clean", "liquibase --url=jdbc:postgresql://billing-db.corp.example.com/billing dropAll", "./gradlew flywayClean -Pflyway.url=x -Dflyway.url=jdbc:postgresql://db-prod-1:5432/app"},
			[]string{"mvn flyway:clean -Dflyway.url=jdbc:postgresql://localhost:5432/app_test", "flyway -url=jdbc:h2:mem:test clean", "flyway -configFiles=conf/dev.conf clean", "liquibase --url=jdbc:postgresql://db-dev.internal/app dropAll", "mvn flyway:info -Dflyway.configFiles=flyway-prod.conf"}),
		cmdRule("external.systems:migrate-shared", Ask, "A schema migration tool changing a database that is production or a server that is not this machine nor named for development or tests (flyway migrate/repair/baseline, liquibase update/rollback, mvn flyway:migrate with a prod conf file, goose up on a cloud host): the live schema changes under its users; reads (info, validate, status, update-sql) stay allowed; the verbs are data (policy/remoteops.txt migrate-change, migrate-read)", migrateToolNames(),
			atLevel(judge, "ask"),
			[]string{"flyway -url=jdbc:postgresql://ledger-prod.c9x.eu-west-1.rds.amazonaws.com:5432/ledger -user=flyway migrate", "mvn flyway:migrate -Dflyway.configFiles=src/main/resources/flyway-prod.conf", "flyway -configFiles=conf/prod.conf repair",
				"liquibase --url=jdbc:oracle:thin:@ora-prd-scan.example.local:1521/ORAPRD1 --changelog-file=db/changelog.xml update", "flyway -environment=production migrate", "goose -dir migrations postgres \"postgres://app@orders.cluster-x.rds.amazonaws.com/app\" up", "knex migrate:latest --env production", "alembic -x db=prod upgrade head", "DATABASE_URL=postgresql://gis_admin@gis-prod.db.internal/gisdb alembic upgrade head"},
			[]string{"flyway -url=jdbc:postgresql://localhost:5432/app migrate", "flyway -configFiles=conf/prod.conf info", "mvn flyway:validate -Dflyway.configFiles=flyway-prod.conf", "liquibase --url=jdbc:oracle:thin:@ora-prd-scan:1521/ORAPRD1 update-sql",
				"flyway migrate", "mvn -q flyway:migrate -Dflyway.url=jdbc:postgresql://db-test:5432/app", "goose -dir migrations postgres \"postgres://app@localhost/app\" up", "mvn package -Pprod", "knex migrate:latest --env development", "knex migrate:status --env production", "DATABASE_URL=postgresql://app@localhost/app alembic upgrade head", "DATABASE_URL=postgresql://app@db-prod.internal/app alembic current"}),
	}
}
