package policy

import (
	"strings"
)

// A schema migration taken down, reset or cleaned on a database the line
// names as production. Against a database hidden in a variable the tool
// asks (external.systems:migrate-down-hidden): it may be a dev copy. When
// the variable, host or option says production ($PROD_DATABASE_URL,
// -database postgres://db.prod…, --env production), the tables and their
// rows go on the live service: deny. The tools and down verbs are the
// same data (policy/remoteops.txt migrate-tools, migrate-down).

// migrateDownProd: what names production for a down migration c, "".
func migrateDownProd(e *Env, c *Cmd) string {
	if onlyHelp(c) || e.dryRun(c) {
		return ""
	}
	down := false
	for _, p := range c.Pos {
		if opsList("migrate-down")[strings.ToLower(p)] {
			down = true
			break
		}
	}
	if !down {
		return ""
	}
	for i, a := range c.Args {
		if prodVar.MatchString(a) || i > 0 && strings.HasPrefix(c.Args[i-1], "-") && !strings.HasPrefix(a, "-") && prodWord.MatchString(a) {
			return a
		}
		if strings.HasPrefix(a, "-") && strings.Contains(a, "=") && prodWord.MatchString(a[strings.IndexByte(a, '=')+1:]) {
			return a
		}
	}
	if m, _ := prodMarkerOf(e, c); m != "" {
		return m
	}
	return ""
}

func migrateDownProdRule() Rule {
	return cmdRule("external.systems:migrate-down-prod", Deny, "A schema migration tool run down, reset or cleaned against a database the line names as production ($PROD_DATABASE_URL, a prod host, --env production): the live tables and their rows go; the tools and verbs are data (policy/remoteops.txt migrate-tools, migrate-down)", opsNames("migrate-tools"),
		func(e *Env, c *Cmd) string {
			if w := migrateDownProd(e, c); w != "" {
				return c.Name + " takes the schema down on the production database " + w + " names: " + c.String()
			}
			return ""
		},
		[]string{`migrate -path db/migrations -database "$PROD_DATABASE_URL" down 3`, `goose -dir migrations postgres "$PRODUCTION_DSN" down-to 0`, `dbmate --url postgres://app@db.prod.internal/app drop`, `flyway -url=jdbc:postgresql://prod-db:5432/shop clean`},
		[]string{`migrate -path db/migrations -database "$DATABASE_URL" down -all`, `migrate -path db/migrations -database "$PROD_DATABASE_URL" up`, `goose -dir migrations postgres "$PROD_DSN" status`, `dbmate --url postgres://localhost/app_dev rollback`, `flyway -url=$PROD_JDBC_URL info`})
}
