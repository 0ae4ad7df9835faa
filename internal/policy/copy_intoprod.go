package policy

// A copy, restore or clone INTO production overwrites production with
// what another place holds: pac admin copy --source-env …-dev
// --target-env …-prod --type FullCopy replaces the production
// environment's data with the dev environment's; a backup restored over
// a prod target, a database cloned onto a prod name do the same. The
// verb reads like a copy (which, from production into dev, only reads
// production: copiesIntoDev), so the direction decides: the option that
// names the destination (--target-env, --target, --to, --destination,
// --dest…) naming production is a destroy of production's current state.

// intoProdVerbs are the verbs whose destination is overwritten.
var intoProdVerbs = map[string]bool{"copy": true, "cp": true, "restore": true, "clone": true, "overwrite": true, "replace": true, "refresh": true, "reset": true}

// intoProdOpts name a copy's destination.
var intoProdOpts = map[string]bool{"--target-env": true, "--target-environment": true, "--to": true, "--dest-env": true,
	"--destination-env": true, "--target-env-url": true, "--to-env": true, "--target-instance": true, "--target-org": true, "--target-project": true}

// copyIntoProd says which destination of c names production, "" for
// none: c's first words hold a copy verb and a destination option's
// value names production (a word, or a tenant URL's first label). A
// bare --target is left out: dbt clone --target prod, pgcopydb --target
// URL name a connection, which the prod rules judge (ask).
func copyIntoProd(c *Cmd) string {
	verb := false
	for i, p := range c.Pos {
		if i > 2 {
			break
		}
		for _, w := range wordsOf(p) {
			if intoProdVerbs[w] {
				verb = true
			}
		}
	}
	if !verb {
		return ""
	}
	for _, val := range c.OptValues(intoProdOpts) {
		if prodWord.MatchString(val) || gluedProd.MatchString(val) {
			return val
		}
	}
	return ""
}

func copyIntoProdRule() Rule {
	return Rule{ID: "external.systems:copy-into-prod", Mode: Deny, Tools: shellTools,
		Desc: "A copy, restore or clone whose destination option (--target-env, --target, --to, --destination) names production (pac admin copy --source-env …-dev --target-env …-prod): production's data is overwritten with another environment's; a copy out of production into dev only reads it",
		On:   Trigger{Text: []string{"--target", "--to", "--dest"}},
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if e.quiet(i) || e.dryRun(c) || onlyHelp(c) {
					continue
				}
				if d := copyIntoProd(c); d != "" {
					return c.Name + " overwrites production (" + d + ") with another environment's data: " + c.String()
				}
			}
			return ""
		},
		Catch: []string{
			"pac admin copy --source-env https://fabrikam-uat.crm4.dynamics.com --target-env https://fabrikam-prod.crm4.dynamics.com --type MinimalCopy",
			"pac admin restore --source-env https://fabrikam-test.crm.dynamics.com --target-env fabrikam-production --selected-backup latest",
			"pac admin copy --source-env contoso-qa --target-env contoso-production --type FullCopy",
			"heroku pg:copy shop-staging::DATABASE_URL DATABASE_URL --to shop-production --confirm shop-production",
			"mytool env clone --from staging --to prod-eu",
			"sf data copy --source-org qa --target-org acme-prod",
		},
		Allow: []string{
			"pac admin copy --source-env https://fabrikam-prod.crm4.dynamics.com --target-env https://fabrikam-dev.crm4.dynamics.com --type MinimalCopy",
			"pac admin list",
			"heroku pg:copy shop-production::DATABASE_URL DATABASE_URL --to shop-staging",
			"mytool env clone --from prod --to dev-jsmith",
			"pac admin copy --help",
			"pac solution export --path out/x.zip --name Contoso --environment https://contoso-prod.crm.dynamics.com",
		}}
}
