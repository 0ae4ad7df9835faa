package policy

import (
	"net/url"
	"strings"
)

// the admin HTTP APIs of servers others use (Elasticsearch and
// OpenSearch, Kibana, Grafana, RabbitMQ's management plugin, Consul,
// Nomad, Vault, the Kubernetes API, ClickHouse's HTTP interface) read as
// data: a change sent to one asks even when the line carries no
// credential (an internal cluster often has none); a role of superuser
// given in a list, a role binding to everyone, a shard allocated with
// data loss accepted, a retention policy that deletes at once, a
// statement that drops or opens the database: denied. SQL sent over HTTP
// (a ClickHouse query in the body or the ?query= parameter, Trino's
// /v1/statement, Elasticsearch's _sql, Druid's /druid/v2/sql) is judged
// as the SQL it carries. The ports and path words are data
// (policy/remoteops.txt api-admin-port, api-admin-path, api-everyone,
// api-binding-path).

// urlPort is a URL's port, "" when none is written.
func urlPort(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	u, _, _ = strings.Cut(u, "/")
	u, _, _ = strings.Cut(u, "?")
	if i := strings.LastIndexByte(u, '@'); i >= 0 {
		u = u[i+1:]
	}
	if i := strings.LastIndexByte(u, ']'); i >= 0 {
		u = u[i+1:]
	}
	_, p, _ := strings.Cut(u, ":")
	return p
}

// adminAPIURL says which port or path word makes u a server's admin API.
func adminAPIURL(u string) string {
	if p := urlPort(u); p != "" && opsList("api-admin-port")[p] {
		return "port " + p
	}
	paths := opsList("api-admin-path")
	p := strings.ToLower(urlPath(u))
	p, _, _ = strings.Cut(p, "?")
	for _, seg := range strings.Split(p, "/") {
		if paths[seg] {
			return seg
		}
	}
	for w := range paths {
		if strings.Contains(w, "/") && strings.Contains(p, w) {
			return w
		}
	}
	return ""
}

var (
	// bodyArray: "key": [ values ] in a JSON body
	bodyArray = re(`(?is)"?(\w+)"?\s*:=?\s*'?\[([^\]\[]*)\]`) // JSON, or httpie's roles:='["admin"]'
	// ilmDeleteNow: a lifecycle policy whose delete phase starts at age 0
	ilmDeleteNow = re(`(?is)"delete"\s*:\s*\{[^{}]*"min_age"\s*:\s*"0(ms|s|m|h|d|nanos|micros)?"`)
)

// apiAdminUnsafe: a body that grants a superuser role in a list, binds a
// role to everyone, or deletes every index's data at once.
func apiAdminUnsafe(r apiCall) string {
	roleKeys, admin := opsList("api-role-key"), opsList("api-admin-part")
	for _, m := range bodyArray.FindAllStringSubmatch(r.body, -1) {
		if !roleKeys[strings.ToLower(m[1])] {
			continue
		}
		v := strings.ToLower(m[2])
		for a := range admin {
			if strings.Contains(v, a) {
				return m[1] + "=[" + strings.TrimSpace(m[2]) + "] (a role raised to administrator)"
			}
		}
	}
	binding := false
	for _, u := range r.urls {
		for _, seg := range strings.Split(strings.ToLower(urlPath(u)), "/") {
			binding = binding || opsList("api-binding-path")[seg]
		}
	}
	if binding {
		l := strings.ToLower(r.body)
		for _, w := range opsWords("api-everyone") {
			if strings.Contains(l, w) {
				return "a role bound to " + w + " (access opened to everyone)"
			}
		}
		if strings.Contains(l, "cluster-admin") || strings.Contains(l, `"superuser"`) {
			return "a binding to an administrator role"
		}
	}
	if why := apiOpenToEveryone(r.body); why != "" {
		return why
	}
	if ilmDeleteNow.MatchString(r.body) {
		return "a delete phase at age 0 (every index's data deleted at once)"
	}
	return ""
}

// httpSQLLead: a text that starts as a SQL statement.
var httpSQLLead = re(`(?is)^\s*(select\s+.*\bfrom\b|select\s+[\d(]|with\s+\w+\s+as\s*\(|show\s+(tables|databases|processes|create|grants|users)\b|describe\s+(table\s+)?[\w.]+\s*$|explain\s+(select|plan|syntax|pipeline)\b|insert\s+into\s+[\w.\x60"]+\s*(\(|select\b|values\b|format\b)|update\s+[\w.\x60"]+\s+set\s+[\w\x60"]+\s*=|delete\s+from\s+[\w.\x60"]+\s*(;|$|where\b)|drop\s+(table|database|view|dictionary|user|role|partition|schema|index|materialized)\b|truncate\s+(table\s+)?[\w.\x60"]+\s*$|alter\s+(table|user|role|database|settings\s+profile|quota)\s|create\s+(table|user|role|database|view|materialized|dictionary|or\s+replace|quota|settings\s+profile|row\s+policy)\b|grant\s+.+\b(on|to)\s|revoke\s+.+\b(on|from)\s|kill\s+(query|mutation|connection)\b|system\s+(stop|start|drop|reload|flush|sync|restart|kill|shutdown|unfreeze)\b|optimize\s+table\s|rename\s+(table|database|dictionary)\s|(detach|attach)\s+(table|partition|database|dictionary|view)\b|exchange\s+tables\s|undrop\s+table\s)`)

// httpSQLRead: a statement that only reads.
var httpSQLRead = re(`(?is)^\s*(select|with|show|describe|desc|explain|exists|use)\b`)

// bodySQLFields: JSON fields that carry a statement ({"query": "…"},
// {"sql": "…"}, Hasura's run_sql args).
var bodySQLFields = re(`(?is)"(query|sql|stmt|statement)"\s*:\s*"((?:[^"\\]|\\.)*)"`)

// httpSQL is the SQL an HTTP call carries: the body as it is, a JSON
// field holding a statement, or a query= / q= / sql= parameter.
func httpSQL(c *Cmd, r apiCall) string {
	var parts []string
	add := func(s string) {
		if httpSQLLead.MatchString(s) {
			parts = append(parts, s)
		}
	}
	// the parts are cut in place, not split into a slice: every curl
	// the SQL rules meet is read here
	for rest, more := r.body, true; more; {
		var b string
		b, rest, more = strings.Cut(rest, "&")
		b = strings.TrimSpace(b)
		if strings.HasPrefix(b, "{") {
			for _, m := range bodySQLFields.FindAllStringSubmatch(b, -1) {
				add(strings.ReplaceAll(m[2], `\"`, `"`))
			}
			continue
		}
		if k, v, ok := strings.Cut(b, "="); ok && (k == "query" || k == "sql") {
			if d, err := url.QueryUnescape(v); err == nil {
				v = d
			}
			add(v)
			continue
		}
		add(b)
	}
	for _, u := range r.urls {
		for rest, more := urlQuery(u), true; more; {
			var kv string
			kv, rest, more = strings.Cut(rest, "&")
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k != "query" && k != "sql" {
				continue
			}
			if d, err := url.QueryUnescape(v); err == nil {
				v = d
			}
			add(v)
		}
	}
	return strings.Join(parts, ";")
}

// httpSQLJudge judges the SQL an HTTP call to a remote server carries.
func httpSQLJudge(e *Env, c *Cmd) (Mode, string) {
	i := e.cmdIndex(c)
	if i < 0 || i >= len(e.sqlMemo) {
		return httpSQLJudgeOnce(e, c)
	}
	m := &e.sqlMemo[i]
	if !m.known {
		m.known = true
		m.v, m.why = httpSQLJudgeOnce(e, c)
	}
	return m.v, m.why
}

// httpSQLJudgeOnce is httpSQLJudge, uncached.
func httpSQLJudgeOnce(e *Env, c *Cmd) (Mode, string) {
	if onlyHelp(c) {
		return Off, ""
	}
	r := e.apiCall(c)
	if len(r.urls) == 0 || apiHostLocal(r.urls) {
		return Off, ""
	}
	text := httpSQL(c, r)
	if text == "" {
		return Off, ""
	}
	host := urlHost(r.urls[0])
	short := func(s string) string {
		if len(s) > 80 {
			return s[:80] + "…"
		}
		return s
	}
	if stmt, anyHost := sqlRisk(text); stmt != "" {
		if anyHost {
			return Deny, c.Name + " sends SQL that creates a login connecting from any host: " + short(stmt)
		}
		return Deny, c.Name + " sends " + short(stmt) + " to the database at " + host + ", not this machine"
	}
	if stmt, deny, _ := sqlKindOf(text); stmt != "" {
		if deny {
			return Deny, c.Name + " sends " + short(stmt) + " to the database at " + host
		}
		return Ask, c.Name + " sends " + short(stmt) + " to the database at " + host
	}
	for _, s := range strings.Split(text, ";") {
		if strings.TrimSpace(s) != "" && !httpSQLRead.MatchString(s) {
			return Ask, c.Name + " sends " + short(strings.TrimSpace(s)) + " to the database at " + host + ": a change in a database others use"
		}
	}
	return Off, ""
}

func adminAPIRules() []Rule {
	sqlFire := func(want Mode) func(e *Env, c *Cmd) string {
		return func(e *Env, c *Cmd) string {
			if m, why := httpSQLJudge(e, c); m == want && why != "" {
				return why
			}
			return ""
		}
	}
	return []Rule{
		cmdRule("external.systems:sql-over-http-destroy", Deny, "SQL sent over HTTP to a database that is not this machine (ClickHouse's :8123 body or ?query=, Trino /v1/statement, Elasticsearch _sql, Druid /druid/v2/sql) that drops, truncates, empties a table, grants administration or creates a login with no password or from any host: judged as the SQL it carries", apiClients,
			sqlFire(Deny),
			[]string{`curl 'http://ch-1.corp.example.com:8123/' --data-binary 'DROP TABLE analytics.events'`,
				`curl -s "http://clickhouse.example.net:8123/?query=TRUNCATE%20TABLE%20logs.requests"`,
				`curl -X POST https://ch.example.com:8443/ -u "default:$CH_PASS" -d "CREATE USER bi IDENTIFIED WITH no_password HOST ANY"`},
			[]string{`curl 'http://localhost:8123/' --data-binary 'DROP TABLE analytics.events'`, `curl 'http://ch-1.corp.example.com:8123/' --data-binary 'SELECT count() FROM analytics.events'`,
				`curl -X POST https://api.helpdesk.example.com/v2/search -d '{"q":"delete from my account"}'`, `curl -s "http://clickhouse.example.net:8123/?query=SHOW%20TABLES"`}),
		cmdRule("external.systems:sql-over-http-change", Ask, "SQL sent over HTTP to a database that is not this machine that changes it (KILL QUERY, SYSTEM STOP MERGES, ALTER, INSERT, OPTIMIZE): judged as the SQL it carries", apiClients,
			sqlFire(Ask),
			[]string{`curl -s 'http://ch-prod-01.example.internal:8123/?user=admin' --data-binary "KILL QUERY WHERE query_id = 'abc'"`,
				`curl 'http://ch-1.corp.example.com:8123/' --data-binary 'SYSTEM STOP MERGES analytics.events'`,
				`curl -X POST http://trino.corp.example.com:8080/v1/statement -H 'X-Trino-User: etl' -d 'INSERT INTO hive.sales.orders SELECT * FROM staging.orders'`},
			[]string{`curl 'http://ch-1.corp.example.com:8123/?query=SELECT%201'`, `curl -X POST http://localhost:8123/ -d 'SYSTEM STOP MERGES t'`,
				`curl -X POST https://es.example.com:9200/_sql?format=txt -H 'Content-Type: application/json' -d '{"query": "SELECT count(*) FROM logs"}'`}),
		cmdRule("external.systems:admin-api-change", Ask, "A change sent to a server's admin HTTP API (Elasticsearch/OpenSearch _cluster, _ilm, _security, index settings; Kibana, RabbitMQ management, Consul, Nomad, Vault, the Kubernetes API) on another host, even with no credential on the line; the ports and paths are data (policy/remoteops.txt api-admin-port, api-admin-path)", apiClients,
			func(e *Env, c *Cmd) string {
				if onlyHelp(c) || !mayMutate(c) {
					return ""
				}
				r := e.apiCall(c)
				if r.method == "" || r.method == "GET" || r.method == "HEAD" || r.method == "OPTIONS" || r.method == "LIST" || len(r.urls) == 0 || apiHostLocal(r.urls) || apiReads(r) || pipedSQLReads(e, c, r.body) || sandboxCall(r, c) { // LIST: Vault's listing of keys
					return ""
				}
				if m, _ := httpSQLJudge(e, c); m != Off || httpSQL(c, r) != "" {
					return "" // judged as the SQL it carries
				}
				for _, u := range r.urls {
					if why := adminAPIURL(u); why != "" {
						return c.Name + " " + r.method + " to the admin API at " + urlHost(u) + " (" + why + "): a change in a server others use"
					}
				}
				return ""
			},
			[]string{`curl -X PUT "http://es-prod.example.internal:9200/_cluster/settings" -H 'Content-Type: application/json' -d '{"persistent":{"cluster.routing.allocation.enable":"primaries"}}'`,
				`curl -XPUT http://search.example.net/logs-*/_settings -d '{"index":{"number_of_replicas":0}}'`,
				`curl -X PUT http://consul.example.net:8500/v1/kv/config/api/max_conns -d 200`},
			[]string{`curl -X POST http://es-prod.example.internal:9200/logs/_search -d '{"query":{"match_all":{}}}'`, `curl http://es-prod.example.internal:9200/_cluster/health`,
				`curl -X PUT http://localhost:9200/_cluster/settings -d '{"persistent":{}}'`}),
	}
}

// apiOpenToEveryone: a body that lists everyone (public, anonymous, *,
// allUsers) among the groups, users or principals of a grant and gives
// them write or every access (Ranger's policyItems [{"groups":["public"],
// "accesses":[{"type":"all"}]}], a share's members ["everyone"]): the
// data opened to every user. The words are data (remoteops.txt
// api-grantee-key, api-everyone-name, api-open-access).
func apiOpenToEveryone(body string) string {
	if len(body) < 8 || !strings.Contains(body, "[") {
		return ""
	}
	keys, names := opsList("api-grantee-key"), opsList("api-everyone-name")
	for _, m := range bodyArray.FindAllStringSubmatch(body, -1) {
		if !keys[strings.ToLower(m[1])] {
			continue
		}
		for _, el := range strings.Split(m[2], ",") {
			el = strings.ToLower(strings.Trim(strings.TrimSpace(el), `"'`))
			if !names[el] {
				continue
			}
			l := strings.ToLower(body)
			for _, w := range opsWords("api-open-access") {
				if strings.Contains(l, w) {
					return m[1] + "=[" + strings.TrimSpace(m[2]) + "] with " + w + " (access opened to everyone)"
				}
			}
		}
	}
	return ""
}
