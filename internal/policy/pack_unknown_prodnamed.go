package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Production named anywhere on an unknown program's line. Beyond the
// options that pick an environment (prodOptAny), a CLI no table knows
// says it acts on production by the configuration it is given
// (ecspresso --config deploy/prod/ecspresso.yml deploy, flyway
// -configFiles=conf/prod.conf), by the server it connects to (-url
// jdbc:…//ledger-prod…, --bootstrap-server kafka-prod-1:9092) or by the
// resource it names after its verb (chamber write orders-prod). What
// the verb does then decides as for prodOptAny: a change asks, a
// destroy is denied, a read stays allowed. Output options name where a
// result is written here, and a value with spaces is a message, so
// neither names a target.

// prodNamedAny is the option value or operand of c that names
// production, "" for none.
func prodNamedAny(c *Cmd) string {
	skip := opsList("prod-value-skip-any")
	operands := 0
	for i, a := range c.Args {
		if a == "--" {
			break // what follows is another command's (aws-vault exec prod -- aws s3 ls)
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if optionBefore(c.Args[:i+1], a) && !strings.HasPrefix(c.Args[i-1], "--no-") {
				continue // an option's value: judged with its option
			}
			operands++
			if operands <= 4 && (!strings.Contains(a, "/") || strings.Contains(a, "://")) && prodValue(a) {
				return a // chamber write orders-prod: the resource the verb acts on
			}
			continue
		}
		k, v, hasV := strings.Cut(a, "=")
		if skip[k] || !hasV && strings.HasPrefix(k, "--no-") {
			continue // --no-owner, --no-acl: a negation takes no value (pg_restore --no-owner /tmp/x_prod.dump: the dump file, a local source)
		}
		if !hasV {
			if i+1 >= len(c.Args) || strings.HasPrefix(c.Args[i+1], "-") {
				continue
			}
			v = c.Args[i+1]
		}
		if prodValue(v) {
			return k + " " + v
		}
	}
	return ""
}

// prodValue: v names production as a word (orders-prod, deploy/prod/x.yml,
// jdbc:postgresql://ledger-prod.x:5432/l) and is neither a message nor
// a value the line cannot know.
func prodValue(v string) bool {
	v = strings.Trim(v, `"'`)
	return !strings.ContainsAny(v, " \t\n") && prodWord.MatchString(v) && !callfacts.UnknownValue(v)
}

// flagVerbClass reads a verb given as an option (kafka-configs --alter,
// kafka-topics --delete, --describe): "destroy", "change", or "" when one
// reads or none is there. Only whole options count: --force-new-deployment
// is no verb.
func flagVerbClass(c *Cmd) string {
	class := ""
	for _, f := range c.Flags {
		f, _, _ = strings.Cut(f, "=")
		switch {
		case opsList("read-flag-any")[f]:
			return ""
		case opsList("destroy-flag-any")[f]:
			class = "destroy"
		case opsList("change-flag-any")[f] && class == "":
			class = "change"
		}
	}
	return class
}

// prodConnEnv is the assignment on the line that points a connection at
// production (AWS_PROFILE=prod-admin, KUBECONTEXT=production,
// DB_HOST=pg.prod…: remoteops.txt prod-env, *_HOST, *_URL), "" for none:
// an unknown program reads its connection from the environment as the
// known ones do.
func prodConnEnv(e *Env) string {
	conn := opsList("prod-env")
	for _, m := range envAssign.FindAllStringSubmatch(e.F.Command, -1) {
		k, v := m[1], strings.Trim(m[2], `"'`)
		if (conn[k] || strings.HasSuffix(k, "_HOST") || strings.HasSuffix(k, "_URL") && !strings.Contains(k, "WEBHOOK")) && prodValue(v) {
			return k + "=" + v
		}
	}
	return ""
}
