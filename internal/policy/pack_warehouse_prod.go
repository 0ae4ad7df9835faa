package policy

import (
	"strings"
)

// Data warehouse CLIs writing into production by the shape of their
// options, whatever the CLI: a production table overwritten (a copy
// forced over it, a query's result replacing it, a load replacing it),
// an expiration set on it (the table deletes itself), its models emptied
// (dbt --empty against the prod target), its data extracted to a bucket
// named for sharing, an API of the production project switched off with
// its dependents. Reads of production (bq head, a SELECT) stay with the
// production rules.

// warehouseDest: the table or place c writes to: --destination_table,
// the last positional of a copy, the first of an update or a load.
func warehouseDest(c *Cmd) string {
	for _, o := range []string{"--destination_table", "--destination-table", "--target_table", "--target-table"} {
		if v := optValue(c, o); v != "" {
			return v
		}
	}
	switch sub(c) {
	case "cp", "copy":
		if len(c.Pos) >= 3 {
			return c.Pos[len(c.Pos)-1]
		}
	case "update":
		return lastPos(c) // (an option's value may stand before it: --expiration 60)
	case "load":
		for _, p := range c.Pos[1:] {
			if strings.ContainsAny(p, ":.") && !strings.Contains(p, "://") {
				return p // the table; the source and schema follow
			}
		}
	}
	return ""
}

// replacesDest: c's options say the destination's contents are replaced.
func replacesDest(c *Cmd) bool {
	if c.Has("--replace", "--overwrite", "--force", "-f", "--truncate") {
		return true
	}
	for _, a := range c.Args {
		if strings.Contains(strings.ToUpper(a), "WRITE_TRUNCATE") {
			return true
		}
	}
	return false
}

// shareNamedBucket: a storage URL whose bucket is named for sharing or the
// public (gs://acme-public-share/…).
func shareNamedBucket(u string) bool {
	for _, s := range []string{"gs://", "s3://", "az://", "abfss://", "wasbs://"} {
		if b, ok := strings.CutPrefix(strings.ToLower(u), s); ok {
			b, _, _ = strings.Cut(b, "/")
			for _, w := range strings.FieldsFunc(b, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
				switch w {
				case "public", "share", "shared", "sharing", "open", "external", "partners", "partner", "anon", "anonymous":
					return true
				}
			}
		}
	}
	return false
}

// warehouseProdWrite says how c writes into production, "" when it does not.
func warehouseProdWrite(e *Env, c *Cmd) string {
	switch c.Name {
	case "bq":
		s := sub(c)
		for _, a := range c.Args {
			if l := strings.ToLower(a); strings.Contains(l, "allusers") || strings.Contains(l, "allauthenticatedusers") {
				if strings.Contains(s, "iam") || strings.Contains(s, "update") || strings.Contains(s, "set") {
					return "bq opens " + lastPos(c) + " to " + a + ": " + c.String()
				}
			}
		}
		if s == "extract" && !devName(strings.SplitN(c.Sub(1), ":", 2)[0]) { // a dev project's table holds no one's data
			for _, p := range c.Pos[1:] {
				if shareNamedBucket(p) {
					return "bq extracts " + c.Sub(1) + " to " + p + ", a bucket named for sharing: " + c.String()
				}
			}
		}
		d := warehouseDest(c)
		if d == "" || !prodWord.MatchString(d) {
			return ""
		}
		if s == "update" && (optValue(c, "--expiration") != "" || optValue(c, "--default_table_expiration") != "" || optValue(c, "--time_partitioning_expiration") != "") {
			return "bq sets an expiration on " + d + ", a production table that then deletes itself: " + c.String()
		}
		if (s == "cp" || s == "copy" || s == "query" || s == "load") && replacesDest(c) {
			return "bq replaces the production table " + d + ": " + c.String()
		}
	case "dbt":
		if (sub(c) == "run" || sub(c) == "build") && c.Has("--empty") && prodWord.MatchString(optValue(c, "--target")+optValue(c, "-t")) {
			return "dbt builds the production target's models empty: " + c.String()
		}
	case "gcloud":
		if sub(c) == "services" && c.Sub(1) == "disable" && c.Has("--force") && prodWord.MatchString(optValue(c, "--project")+c.Remote) {
			return "gcloud switches off an API of the production project with everything that depends on it: " + c.String()
		}
	case "gsutil":
		if sub(c) == "lifecycle" && c.Sub(1) == "set" && lifecycleDeletesNow.MatchString(e.F.Command) {
			return "gsutil sets a lifecycle rule that deletes the bucket's objects at once: " + c.String()
		}
	}
	return ""
}

// lifecycleDeletesNow: a lifecycle rule whose action deletes and whose
// condition holds for every object (age 0 or 1 day).
var lifecycleDeletesNow = re(`(?is)"type"\s*:\s*"Delete".*"age"\s*:\s*[01]\b|"age"\s*:\s*[01]\b.*"type"\s*:\s*"Delete"`)

func lastPos(c *Cmd) string {
	if len(c.Pos) == 0 {
		return ""
	}
	return c.Pos[len(c.Pos)-1]
}

func warehouseProdRules() []Rule {
	return []Rule{
		cmdRule("external.systems:warehouse-prod-write", Deny, "A data warehouse CLI replacing or expiring a production table (bq cp -f dev prod, bq query --replace --destination_table=PROD…, bq update --expiration on prod), extracting data to a bucket named for sharing, opening a dataset to allUsers, dbt --empty against the prod target, a production API switched off with --force, a lifecycle rule deleting a bucket's objects at once", []string{"bq", "dbt", "gcloud", "gsutil"},
			warehouseProdWrite,
			[]string{"bq cp -f shop-dev:tmp.events shop-prod:core.events", "bq query --nouse_legacy_sql --replace --destination_table=shop-prod:core.users 'SELECT 1'", "bq update --expiration 60 shop-prod:core.events", "bq extract shop-prod:core.users gs://shop-public-exports/users-*.csv", "bq add-iam-policy-binding --member=allUsers --role=roles/bigquery.dataViewer shop-prod:core", "dbt build -t prod --empty", "gcloud services disable pubsub.googleapis.com --project shop-prod --force",
				`echo '{"rule":[{"action":{"type":"Delete"},"condition":{"age":0}}]}' > lc.json && gsutil lifecycle set lc.json gs://shop-logs`},
			[]string{"bq cp -f shop-prod:core.events shop-dev:tmp.events", "bq query --replace --destination_table=shop-dev:tmp.users 'SELECT 1'", "bq update --description 'orders' shop-prod:core.events", "bq extract shop-prod:core.users gs://shop-internal-exports/users-*.csv", "dbt run --target prod -s fct_orders", "dbt build --target dev --empty", "gcloud services disable pubsub.googleapis.com --project shop-dev --force",
				`echo '{"rule":[{"action":{"type":"Delete"},"condition":{"age":365}}]}' > lc.json && gsutil lifecycle set lc.json gs://shop-logs`}),
	}
}
