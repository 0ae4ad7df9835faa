package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A hosted service's copy, clone or move whose destination — the last
// operand — is named for production and whose source is not (algolia
// indices copy products_staging products_prod, a search index, a bucket
// or a table copied over the live one) replaces production's data with
// another environment's: denied. Copying from production into staging
// or dev only reads production, and stays with the change rules.

// copyWords are the verbs that write their last operand from another.
var copyWords = map[string]bool{"copy": true, "cp": true, "clone": true, "move": true, "mv": true, "replace": true, "overwrite": true}

// copyOverProd is the destination c's copy overwrites when that is a
// production-named object and the source is not, "" otherwise.
func copyOverProd(c *Cmd) string {
	at := -1
	for i, p := range c.Pos {
		l := strings.ToLower(p)
		if _, v, ok := strings.Cut(l, ":"); ok {
			l = v // indices:copy
		}
		if copyWords[l] {
			at = i
			break
		}
	}
	if at < 0 {
		return ""
	}
	ops := c.Pos[at+1:]
	if len(ops) < 2 {
		return ""
	}
	src, dst := ops[len(ops)-2], ops[len(ops)-1]
	if prodWord.MatchString(dst) && !prodWord.MatchString(src) && !strings.HasPrefix(dst, "-") && !strings.ContainsAny(dst+src, "/:") {
		return dst
	}
	return ""
}

func copyOverProdRule() Rule {
	return cmdRuleIf("external.systems:copy-over-prod", Deny, "A hosted service's copy, clone or move whose destination is named for production and whose source is not (algolia indices copy products_staging products_prod): production's data is replaced by another environment's", callfacts.RemoteActionTools(),
		func(e *Env, c *Cmd) bool { return e.remoteAction(c) == "change" },
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || e.dryRun(c) || e.remoteAction(c) != "change" {
				return ""
			}
			if d := copyOverProd(c); d != "" {
				return c.Name + " overwrites the production " + d + " with a copy: " + c.String()
			}
			return ""
		},
		[]string{"algolia indices copy products_staging products_prod --confirm", "algolia indices copy catalog_tmp catalog_production", "algolia indices move search_next search_prod"},
		[]string{"algolia indices copy products_prod products_staging --confirm", "gh secret set NPM_TOKEN < token.txt", "algolia indices copy products_staging products_dev", "algolia indices list"})
}
