package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A client's bulk delete takes no argument: it deletes every record the
// query before it matched (pysnc's GlideRecord gr.query();
// gr.delete_multiple(), ServiceNow's deleteMultiple(), an ORM's
// delete_all / destroy_all). core.interp:client-destroy-call reads it as
// the delete it is (ask); when the code's client names production (a
// host or an instance named for it: 'acme-prod', 'acmeprod',
// 'acmeprod.service-now.com'), the records are production's and
// core.interp:prod-destroy-call denies (codeProdDestroy), as a vendor
// CLI's delete on production is denied.

// codeBulkDelete: a bulk delete called with no argument.
var codeBulkDelete = re(`\.(?:delete_multiple|deleteMultiple|delete_all|deleteAll|destroy_all|destroyAll|delete_many|deleteMany)\s*\(\s*\)`)

// gluedProd: an instance or host name that ends in prod or prd glued to
// the company's name, as SaaS instances are named (acmeprod,
// acmeprod.service-now.com, contosoprd).
var gluedProd = re(`(?i)^[a-z][a-z0-9-]*[a-z0-9](?:prod|prd)(?:\.[a-z0-9.-]+)?$`)

// codeNamesProd is the first literal of code that names production, ""
// for none; a name that also says dev (acme-prod-dev-copy) is not
// production's. The interpreter rule that denies deletes on production
// (prod-destroy-call) reads production by it.
func codeNamesProd(code string) string {
	for _, l := range callfacts.Literals(code) {
		if len(l) > 120 || strings.ContainsAny(l, " \n") {
			continue // a message or a query, not a name
		}
		if (prodWord.MatchString(l) || gluedProd.MatchString(l)) && !devName(l) {
			return l
		}
	}
	return ""
}

// clientNamesDev: the first literal the code's client is made with names
// a development or test instance (ServiceNowClient('dev218734', …), a
// personal developer instance; Elasticsearch('https://es-dev.acme.io')):
// the developer's own, whose records they may delete.
func clientNamesDev(code string) bool {
	locs := codeClient.FindAllStringIndex(code, 1)
	if locs == nil {
		return false
	}
	q := quotedArg.FindStringSubmatch(code[locs[0][1]:])
	return q != nil && devName(q[1])
}
