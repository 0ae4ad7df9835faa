package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// s21 disguise: interpreter code is judged as the command that does the
// same. `aws --profile prod s3 rb …` or `heroku pg:reset -a x-prod` is
// denied (external.systems:prod-destroy); the same destroy spelled as
// library calls on a client the code points at production —
// [i.delete() for i in gis.content.search(…)] with profile='prod',
// Volume.get_collection(…) each .delete()d on 'ontap-prod-c1',
// initIndex('listings_production').clearObjects() — got only the ask of
// a change, because the verb sat inside "i.delete()" where the command
// reader looks for words. Here the code's own calls are read: a method
// named for destroying (delete, destroy, purge, truncate, wipe, flush,
// terminate…, and drop_/clear_/remove_ of a store's noun) in code whose
// string literals name production, on a client that is not this
// machine's, a test double or a dry run. Reads of production in code
// (objects.filter(…).limit(20), a connection's SELECT) stay with the
// read reading (pack_prodread.go sdkReads).

// codeMethodCall: a method called in code (.name( ); its receiver is
// the word just before the dot, "" after a call's parenthesis.
var codeMethodCall = re(`(\w*)\s*\.\s*([A-Za-z_]\w*)\s*\(`)

// codeDestroyHeads: a method's first word that ends what it is called on.
var codeDestroyHeads = map[string]bool{"delete": true, "destroy": true, "purge": true, "truncate": true, "wipe": true, "flush": true, "flushall": true, "flushdb": true, "terminate": true, "deregister": true, "decommission": true, "teardown": true, "undeploy": true, "nuke": true, "obliterate": true, "expunge": true, "erase": true}

// codeDestroyNouns: drop, clear and remove end a store's contents only
// when the method names what (drop_table, clearObjects, remove_user);
// alone they are a data frame's, a dict's or a list's own.
var codeDestroyNouns = map[string]bool{"table": true, "tables": true, "database": true, "db": true, "collection": true, "collections": true, "index": true, "indices": true, "indexes": true, "schema": true, "user": true, "users": true, "bucket": true, "keyspace": true, "project": true, "repo": true, "objects": true, "all": true, "records": true, "items": true, "volume": true, "volumes": true, "queue": true, "topic": true, "namespace": true, "cluster": true}

// codeLocalReceivers: modules whose calls act on this machine's files or
// processes; the path and process readers judge them.
var codeLocalReceivers = map[string]bool{"os": true, "shutil": true, "pathlib": true, "Path": true, "path": true, "subprocess": true, "fs": true, "FileUtils": true, "File": true, "Dir": true, "tempfile": true, "proc": true, "process": true, "p": true, "child": true, "thread": true, "pool": true, "executor": true}

// codeDestroyMethod is the first method of code named for destroying
// what a client holds ("" for none).
func codeDestroyMethod(code string) string {
	for _, m := range codeMethodCall.FindAllStringSubmatch(code, 64) {
		if codeLocalReceivers[m[1]] {
			continue
		}
		words := methodWords(m[2])
		if len(words) == 0 {
			continue
		}
		if codeDestroyHeads[words[0]] {
			return m[1] + "." + m[2]
		}
		if (words[0] == "drop" || words[0] == "clear" || words[0] == "remove") && len(words) > 1 && codeDestroyNouns[words[1]] {
			return m[1] + "." + m[2]
		}
	}
	return ""
}

// methodWords splits a snake_case or camelCase name into its lower-case
// words (clearObjects: clear, objects; delete_items: delete, items).
func methodWords(name string) []string {
	var out []string
	start := 0
	name = strings.TrimLeft(name, "_")
	for i := 1; i <= len(name); i++ {
		if i == len(name) || name[i] == '_' || name[i] >= 'A' && name[i] <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z' {
			if w := strings.ToLower(strings.Trim(name[start:i], "_")); w != "" {
				out = append(out, w)
			}
			start = i
		}
	}
	return out
}

// codeProdDestroy is what code whose literals name production calls to
// destroy there ("" for nothing), as "receiver.method" or the method:
// a method named for destroying (codeDestroyMethod), or, on a client
// the code makes (codeClient), a delete_* call with an argument
// (codeDestroyCall: delete_project('LEGACY')) or a bulk delete with none
// (codeBulkDelete: gr.delete_multiple()). Code on this machine's client,
// a test double or a dry run destroys nothing there.
func codeProdDestroy(text string) (call, prod string) {
	if text == "" || !strings.Contains(text, "(") {
		return "", ""
	}
	prod = codeNamesProd(text)
	if prod == "" || codeLocalClient.MatchString(text) || callfacts.SDKLocal(text) || callfacts.SDKDryRun(text) {
		return "", ""
	}
	if m := codeDestroyMethod(text); m != "" {
		return m, prod
	}
	if !codeClient.MatchString(text) {
		return "", ""
	}
	m := codeBulkDelete.FindString(text)
	if m == "" {
		m = codeDestroyCall.FindString(text)
	}
	if m == "" {
		return "", ""
	}
	return strings.TrimSpace(m[1:strings.IndexByte(m, '(')]), prod
}

// interpProdDestroyRule: one rule for interpreter code that destroys on
// production through a client, whichever way the code spells the call
// (a method named for destroying, a client's delete_* or bulk delete):
// it was two rules (client-destroy-prod, prod-destroy-call) with the
// same reading of production (codeNamesProd), the same exemptions and
// the same verdict.
func interpProdDestroyRule() Rule {
	return cmdRule("core.interp:prod-destroy-call", Deny, "Interpreter code that destroys on production through a client: a method named for destroying (delete, destroy, purge, truncate, wipe, flush, terminate; drop_, clear_ or remove_ of a table, index, collection, objects…), a client's delete_* call or a query's bulk delete (GlideRecord's delete_multiple()), where the code's string literals name production ([i.delete() for i in GIS(url, profile='prod').content.search(…)], initIndex('listings_production').clearObjects(), ServiceNowClient('acmeprod', …), a host db-prod-01): what `… delete` aimed at production by the service's CLI is; a client on this machine, a test double or a dry run is not flagged", sdkRunners,
		func(e *Env, c *Cmd) string {
			m, lit := codeProdDestroy(runtimeText(c))
			if m == "" {
				return ""
			}
			return c.Name + " code calls " + m + " on production (" + lit + ")"
		},
		[]string{`python3 -c "from arcgis.gis import GIS; g=GIS('https://city.maps.arcgis.com', profile='prod'); [i.delete() for i in g.content.search('owner:x')]"`,
			`python3 -c "from elasticsearch import Elasticsearch; es=Elasticsearch('https://es-prod.acme.io'); es.delete_by_query(index='orders', body={'query': {'match_all': {}}})"`,
			`node -e "const a=require('algoliasearch')(process.env.A, process.env.K); a.initIndex('products_production').clearObjects()"`,
			`python3 -c "import redis; redis.Redis.from_url('redis://cache.prod.acme.internal:6379').flushdb()"`,
			`python3 -c "import pymongo; pymongo.MongoClient('mongodb://db.prod.acme.internal').shop.orders.drop_indexes(); pymongo.MongoClient('mongodb://db.prod.acme.internal').shop.drop_collection('orders')"`,
			`python3 -c "from pysnc import ServiceNowClient; c=ServiceNowClient('globexprod', auth); gr=c.GlideRecord('cmdb_ci'); gr.add_query('install_status','7'); gr.query(); gr.delete_multiple()"`,
			`python3 -c "from jira import JIRA; JIRA('https://jira.prod.acme.io', token_auth=t).delete_project('LEGACY')"`,
			`python -c "from elasticsearch import Elasticsearch; Elasticsearch('https://es-prod-01.acme.net:9200').indices.delete(index='orders-2023')"`,
			`node -e "const c=new Client({host:'crm-production.acme.io'}); c.records.deleteMany()"`,
			`python3 -c "import pymongo; pymongo.MongoClient('mongodb://mongo-prd.acme.internal').shop.carts.delete_many()"`,
			`python3 -c "from simple_salesforce import Salesforce; sf=Salesforce(instance='acmeprod.my.salesforce.com', session_id=s); sf.Lead.delete_all()"`},
		[]string{`python3 -c "from arcgis.gis import GIS; g=GIS('https://city.maps.arcgis.com', profile='prod'); [print(i.title) for i in g.content.search('owner:x')]"`,
			`python3 -c "import pandas as pd; df=pd.read_csv('prod_export.csv'); print(df.drop(columns=['ssn']).drop_duplicates().head())"`,
			`python3 -c "import os; os.remove('logs/prod.log')"`,
			`python3 -c "from elasticsearch import Elasticsearch; es=Elasticsearch('https://es-staging.acme.io'); es.indices.delete(index='orders')"`,
			`python3 -c "import redis; redis.Redis('localhost').delete('prod-flag')"`,
			`python3 -c "d={'env': 'prod'}; d.clear(); print(d)"`,
			`python3 -c "from pysnc import ServiceNowClient; c=ServiceNowClient('globexprod', auth); gr=c.GlideRecord('cmdb_ci'); gr.query(); print(gr.get_row_count())"`,
			`python3 -c "from pysnc import ServiceNowClient; c=ServiceNowClient('globexdev', auth); gr=c.GlideRecord('incident'); gr.query(); gr.delete_multiple()"`,
			`python3 -c "from jira import JIRA; print(JIRA('https://jira.prod.acme.io').projects())"`,
			`python3 -c "import redis; redis.Redis('localhost').delete('prod-cache-key')"`,
			`python3 -c "print('delete_multiple() on acmeprod is dangerous')"`,
			`python3 -c "import pandas as pd; df=pd.read_csv('prod.csv'); print(df.shape)"`})
}

// codeConnBound: a variable bound to a connection (h =
// kx.SyncQConnection('kdb-rdb-prod01', 5011), c = pyodbc.connect(…)).
var codeConnBound = re(`\b(\w+)\s*=\s*(?:[\w.]+\.)?(?:\w*Connection|connect)\s*\(`)

// connQueryReads: the code calls a connection it bound with a query
// literal, as q's and some drivers' handles take their statement
// (h('select last price by sym from trade')): 1 when every such query
// reads, -1 when one changes, 0 for none.
func connQueryReads(code string) int {
	got := 0
	for _, m := range codeConnBound.FindAllStringSubmatch(code, 4) {
		call := re(`\b` + m[1] + `\s*\(\s*['"]([^'"]+)['"]`)
		for _, q := range call.FindAllStringSubmatch(code, 8) {
			if !sqlReadOnly(q[1]) {
				return -1
			}
			got = 1
		}
	}
	return got
}
