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
// core.interp:client-destroy-prod denies, as a vendor CLI's delete on
// production is denied.

// codeBulkDelete: a bulk delete called with no argument.
var codeBulkDelete = re(`\.(?:delete_multiple|deleteMultiple|delete_all|deleteAll|destroy_all|destroyAll|delete_many|deleteMany)\s*\(\s*\)`)

// gluedProd: an instance or host name that ends in prod or prd glued to
// the company's name, as SaaS instances are named (acmeprod,
// acmeprod.service-now.com, contosoprd).
var gluedProd = re(`(?i)^[a-z][a-z0-9-]*[a-z0-9](?:prod|prd)(?:\.[a-z0-9.-]+)?$`)

// codeNamesProd is the first literal of code that names production, ""
// for none; a name that also says dev (acme-prod-dev-copy) is not
// production's. Both interpreter rules that deny deletes on production
// (client-destroy-prod, prod-destroy-call) read production by it.
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

func clientDestroyProdRule() Rule {
	return cmdRule("core.interp:client-destroy-prod", Deny, "Interpreter code that deletes through a remote service's client (a delete_* call, a query's bulk delete such as GlideRecord's delete_multiple()) where the client or its target is named for production (ServiceNowClient('acmeprod', …), a host db-prod-01): production's records are gone, as with the vendor CLI's delete on production", sdkRunners,
		func(e *Env, c *Cmd) string {
			text := runtimeText(c)
			if text == "" || !strings.Contains(text, "(") {
				return ""
			}
			m := codeBulkDelete.FindString(text)
			if m == "" {
				m = codeDestroyCall.FindString(text)
			}
			if m == "" || !codeClient.MatchString(text) || codeLocalClient.MatchString(text) || callfacts.SDKLocal(text) || callfacts.SDKDryRun(text) {
				return ""
			}
			p := codeNamesProd(text)
			if p == "" {
				return ""
			}
			return c.Name + " code calls " + strings.TrimSpace(m[1:strings.IndexByte(m, '(')]) + " on a client of production (" + p + ")"
		},
		[]string{
			`python3 -c "from pysnc import ServiceNowClient; c=ServiceNowClient('globexprod', auth); gr=c.GlideRecord('cmdb_ci'); gr.add_query('install_status','7'); gr.query(); gr.delete_multiple()"`,
			`python3 -c "from jira import JIRA; JIRA('https://jira.prod.acme.io', token_auth=t).delete_project('LEGACY')"`,
			`python -c "from elasticsearch import Elasticsearch; Elasticsearch('https://es-prod-01.acme.net:9200').indices.delete(index='orders-2023')"`,
			`node -e "const c=new Client({host:'crm-production.acme.io'}); c.records.deleteMany()"`,
			`python3 -c "import pymongo; pymongo.MongoClient('mongodb://mongo-prd.acme.internal').shop.carts.delete_many()"`,
			`python3 -c "from simple_salesforce import Salesforce; sf=Salesforce(instance='acmeprod.my.salesforce.com', session_id=s); sf.Lead.delete_all()"`,
		},
		[]string{
			`python3 -c "from pysnc import ServiceNowClient; c=ServiceNowClient('globexprod', auth); gr=c.GlideRecord('cmdb_ci'); gr.query(); print(gr.get_row_count())"`,
			`python3 -c "from pysnc import ServiceNowClient; c=ServiceNowClient('globexdev', auth); gr=c.GlideRecord('incident'); gr.query(); gr.delete_multiple()"`,
			`python3 -c "from jira import JIRA; print(JIRA('https://jira.prod.acme.io').projects())"`,
			`python3 -c "import redis; redis.Redis('localhost').delete('prod-cache-key')"`,
			`python3 -c "print('delete_multiple() on acmeprod is dangerous')"`,
			`python3 -c "import pandas as pd; df=pd.read_csv('prod.csv'); print(df.shape)"`,
		})
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
