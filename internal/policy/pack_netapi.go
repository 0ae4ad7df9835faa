package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// An HTTP client given a method and a body is a remote API's CLI: what
// it changes is said by the method, the URL's path and the body. A call
// that changes something on a remote API with credentials (or posts a
// message to people through a webhook) needs the user; one whose path or
// body names an action that removes, locks out or exposes (…/deactivate,
// conversations.archive, v1/refunds, visibility=public, scope "*") is
// denied. Reads (GET) and calls to this machine stay allowed.

// apiClients are the programs whose requests the line spells out.
var apiClients = []string{"gh", "glab", "curl", "wget", "http", "https", "xh", "xhs", "curlie", "invoke-restmethod", "invoke-webrequest", "irm", "iwr"}

// apiCall is what an HTTP client's arguments say about its request.
type apiCall struct {
	method string   // upper case; "" for a plain GET
	urls   []string // as written
	body   string   // every body part, joined
	creds  string   // what carries a credential, "" when nothing does
}

var httpMethods = map[string]bool{"GET": true, "HEAD": true, "OPTIONS": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true}

// forgeAPICall reads gh api / glab api: the forge's REST path, -X, and
// -f/-F fields (which make it a POST); the CLI signs in for the user.
func forgeAPICall(c *Cmd) apiCall {
	r := apiCall{creds: c.Name + "'s login"}
	host := "api.github.com"
	if c.Name == "glab" {
		host = "gitlab.com/api/v4"
	}
	if h := optValue(c, "--hostname"); h != "" {
		host = h
	}
	for i, a := range c.Args {
		next := ""
		if i+1 < len(c.Args) {
			next = c.Args[i+1]
		}
		k, v, hasV := strings.Cut(a, "=")
		if !hasV {
			v = next
		}
		switch k {
		case "-X", "--method":
			r.method = strings.ToUpper(v)
		case "-f", "-F", "--field", "--raw-field", "--input":
			r.body += "&" + v
		}
	}
	if len(c.Pos) > 1 {
		r.urls = []string{"https://" + host + "/" + strings.TrimPrefix(c.Pos[1], "/")}
		if c.Pos[1] == "graphql" && !strings.Contains(strings.ToLower(r.body), "mutation") {
			return apiCall{} // a GraphQL query reads
		}
	}
	if r.method == "" && r.body != "" {
		r.method = "POST"
	}
	return r
}

// readAPICall reads c's request: its method (explicit, or implied by a
// body or an upload), URLs, body and credentials.
func readAPICall(c *Cmd) apiCall {
	if (c.Name == "gh" || c.Name == "glab") && sub(c) == "api" {
		return forgeAPICall(c)
	}
	var r apiCall
	get := false
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		l := strings.ToLower(a)
		switch {
		case a == "-X" || a == "--request" || l == "--method" || l == "-method":
			r.method = strings.ToUpper(next())
		case strings.HasPrefix(a, "-X") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			r.method = strings.ToUpper(a[2:])
		case strings.HasPrefix(a, "--request=") || strings.HasPrefix(l, "--method="):
			r.method = strings.ToUpper(a[strings.IndexByte(a, '=')+1:])
		case a == "-G" || a == "--get" || c.Name == "curl" && len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a, 'G') > 0 && shortFlags(a[1:]):
			get = true
		case a == "-T" || a == "--upload-file" || strings.HasPrefix(a, "--upload-file="):
			if r.method == "" {
				r.method = "PUT"
			}
			if !strings.Contains(a, "=") {
				next()
			}
		case l == "-body" || l == "-infile":
			r.body += "&" + next()
			if r.method == "" {
				r.method = "POST"
			}
		case l == "-headers":
			if h := next(); authHeader(h) || strings.Contains(strings.ToLower(h), "authorization") {
				r.creds = "a credential header"
			}
		case l == "-uri":
			r.urls = append(r.urls, next())
		case l == "-credential" || l == "-token":
			r.creds = "a credential option"
			next()
		case strings.HasPrefix(l, "--post-file") || strings.HasPrefix(l, "--body-file"):
			if r.method == "" {
				r.method = "POST"
			}
		}
	}
	for _, p := range requestParts(c) {
		switch p.kind {
		case "url":
			if !httpMethods[strings.ToUpper(p.val)] {
				r.urls = append(r.urls, httpieURL(c, p.val))
			}
		case "data":
			r.body += "&" + p.val
		case "header":
			if authHeader(p.name) {
				r.creds = "the " + p.name + " header"
			}
		case "auth":
			r.creds = "credentials (" + p.val + ")"
		}
	}
	if c.Name == "http" || c.Name == "https" || c.Name == "xh" || c.Name == "xhs" {
		// [METHOD] URL ITEM…: the method may be lower case (xh post URL)
		if pos := httpieOperands(c); len(pos) > 1 && httpMethods[strings.ToUpper(pos[0])] {
			r.method = strings.ToUpper(pos[0])
			r.urls, r.body = []string{httpieURL(c, pos[1])}, ""
			for _, a := range pos[2:] {
				switch p := httpieItem(a); p.kind {
				case "data":
					r.body += "&" + p.val
				case "header":
					if authHeader(p.name) {
						r.creds = "the " + p.name + " header"
					}
				}
			}
		}
		if r.method == "" && strings.TrimSpace(r.body) != "" {
			r.method = "POST" // httpie sends a body item with POST
		}
	}
	if r.method == "" && !get && strings.TrimSpace(r.body) != "" {
		r.method = "POST"
	}
	if r.creds == "" {
		for _, a := range c.Args {
			for _, v := range varNames(a) {
				if secretVarName(v) {
					r.creds = "$" + v
				}
			}
		}
	}
	if r.creds == "" {
		keys := opsList("api-bodykey")
		for _, k := range bodyPairs(r.body) {
			if keys[k[0]] {
				r.creds = "the body's " + k[0]
			}
		}
		for _, u := range r.urls {
			for _, w := range wordsOf(urlQuery(u)) {
				if keys[w] || w == "key" || w == "sig" {
					r.creds = "a key in the URL"
				}
			}
		}
	}
	return r
}

// secretVarName: a variable named for a credential ($SLACK_BOT_TOKEN,
// $STRIPE_SECRET_KEY, $TWILIO_SID).
func secretVarName(v string) bool {
	u := strings.ToUpper(v)
	for _, w := range []string{"TOKEN", "KEY", "SECRET", "PASS", "SID", "_PAT", "CREDENTIAL", "AUTH"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}

func urlQuery(u string) string {
	if _, q, ok := strings.Cut(u, "?"); ok {
		return q
	}
	return ""
}

// urlPath is a URL's path and query, without scheme and host.
func urlPath(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexByte(u, '/'); i >= 0 {
		return u[i:]
	}
	if i := strings.IndexByte(u, '?'); i >= 0 {
		return u[i:]
	}
	return ""
}

// bodyPairs reads key=value and "key": value pairs of a body, lower case,
// quotes and spaces dropped.
func bodyPairs(body string) [][2]string {
	if body == "" {
		return nil
	}
	var out [][2]string
	s := bodyQuotes.Replace(strings.ToLower(body))
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == '{' || r == '}' || r == ',' || r == '&' || r == '[' || r == ']' }) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			k, v, ok = strings.Cut(f, ":")
		}
		if !ok {
			continue
		}
		k = strings.TrimRight(k, ":") // httpie/xh private:=false, a JSON field
		if i := strings.LastIndexAny(k, ".:"); i >= 0 {
			k = k[i+1:] // persistent.action.destructive_requires_name
		}
		out = append(out, [2]string{k, v})
	}
	return out
}

// bodyQuotes strips a body's quotes, spaces and escapes: built once (a
// Replacer builds its tables on first use, each one made per call cost
// more than the rule).
var bodyQuotes = strings.NewReplacer(`"`, "", `'`, "", " ", "", "\n", "", "\\", "")

// apiHostLocal: every URL is this machine, its mDNS name (box.local) or a
// compose service (a name with no dot); false when no URL is named. A name
// deeper under .local (splunk.corp.local) is an organisation's internal
// DNS zone, the shared servers of a company network, not this machine.
func apiHostLocal(urls []string) bool {
	n := 0
	for _, u := range urls {
		h := urlHost(u)
		if h == "" || strings.HasPrefix(h, "-") {
			continue
		}
		n++
		if strings.HasPrefix(h, "$") {
			return false
		}
		if !(isLocalEndpoint(u) || strings.HasSuffix(h, ".local") && strings.Count(h, ".") == 1 || !strings.Contains(h, ".") && !strings.Contains(h, ":")) {
			return false
		}
	}
	return n > 0
}

// webhookURL: a URL that posts a message to people (a chat webhook, or a
// variable named for one).
func webhookURL(u string) bool {
	l := strings.ToLower(u)
	for _, w := range opsWords("api-webhook") {
		if strings.Contains(l, w) {
			return true
		}
	}
	for _, v := range varNames(u) {
		for _, w := range opsWords("api-webhook-var") {
			if strings.Contains(strings.ToUpper(v), w) {
				return true
			}
		}
	}
	return false
}

// gqlAction: a GraphQL field whose name starts with a verb (deleteProject).
var gqlAction = re(`\b([a-z]+)[A-Z]\w*\s*[({]`)

// apiDestroys says which word of the call's paths or which body setting
// removes, locks out or exposes.
func apiDestroys(r apiCall) string {
	if r.method == "DELETE" {
		return "the DELETE method"
	}
	words := opsList("api-destroy")
	for _, u := range r.urls {
		for _, w := range wordsOf(urlPath(u)) {
			if words[w] {
				return "\"" + w + "\" in the URL"
			}
		}
		for _, seg := range strings.Split(urlPath(u), "/") {
			// an operation named in camelCase (ArcGIS deleteFeatures,
			// truncateTable): its leading verb
			// (deleteFeatures, truncateTable) or Pascal case (PlayFab's
			// Admin/DeleteTitle, AWS's Action=DeleteBucket)
			if w := actionWords(seg); len(w) > 1 && words[w[0]] {
				return "\"" + seg + "\" in the URL"
			}
		}
	}
	if l := strings.ToLower(r.body); strings.Contains(l, "mutation") {
		// a GraphQL mutation named for its action: deleteProject, archiveRepository
		for _, m := range gqlAction.FindAllStringSubmatch(r.body, -1) {
			if words[strings.ToLower(m[1])] {
				return "the mutation " + m[0]
			}
		}
	}
	if why := apiGrantsOrForwards(r); why != "" {
		return why
	}
	if why := apiBodyAction(r); why != "" {
		return why
	}
	if why := apiFormAction(r); why != "" {
		return why // REDCap's action=delete, _method=DELETE (pack_form_action.go)
	}
	if why := apiAdminUnsafe(r); why != "" {
		return why // roles in a list, bindings to everyone, ILM deleting at once (pack_api_admin.go)
	}
	unsafe := opsList("api-unsafe")
	for _, kv := range bodyPairs(r.body + "&" + strings.Join(r.urls, "&")) {
		if unsafe[kv[0]+"="+kv[1]] {
			return kv[0] + "=" + kv[1]
		}
	}
	return ""
}

func netAPIRules() []Rule {
	mutating := func(e *Env, c *Cmd) (apiCall, bool) {
		if onlyHelp(c) || !mayMutate(c) {
			return apiCall{}, false
		}
		r := readAPICall(c)
		if apiDryRun(r) || apiFormRead(r) {
			return r, false // ?dryRun=true, action=export: the server stores nothing (pack_api_dryrun.go)
		}
		if r.method == "" || r.method == "GET" || r.method == "HEAD" || r.method == "OPTIONS" || r.method == "LIST" || len(r.urls) == 0 || apiHostLocal(r.urls) && !remoteLoopback(e, c) {
			return r, false
		}
		return r, true
	}
	return []Rule{
		cmdRule("external.systems:api-destructive-call", Deny, "An HTTP call to a remote API whose method, path or body removes, locks out or exposes (DELETE, …/deactivate, conversations.archive, v1/refunds, visibility=public, destructive_requires_name=false, a downtime of scope *); the words are data (policy/remoteops.txt api-destroy, api-unsafe)", apiClients,
			func(e *Env, c *Cmd) string {
				r, ok := mutating(e, c)
				if !ok || sandboxCall(r, c) {
					return "" // test-mode keys and sandbox hosts reach only test data (pack_api_safeposts.go)
				}
				if why := apiDestroys(r); why != "" {
					return c.Name + " " + r.method + " to a remote API with " + why + ": an action that removes, locks out or exposes: " + c.String()
				}
				return ""
			},
			[]string{`curl -X POST https://acme.okta.com/api/v1/users/00u9/lifecycle/deactivate -H "Authorization: SSWS $OKTA_TOKEN"`,
				`curl https://api.payments.example/v1/refunds -u "$PAY_KEY:" -d charge=ch_1`,
				`xh post https://chat.example.com/api/channels.archive channel=C1 "Authorization:Bearer $BOT_TOKEN"`,
				`http PATCH https://git.example.com/api/v4/projects/7 visibility=public "PRIVATE-TOKEN:$GL_TOKEN"`,
				`curl -X PUT https://es.example.com/_cluster/settings -d '{"persistent":{"action.destructive_requires_name":false}}'`,
				`curl -X POST https://api.monitor.example/api/v1/downtime -H "X-API-KEY: $MON_KEY" -d '{"scope": "*"}'`,
				`wget --method=POST --header="Authorization: Bearer $T" https://idp.example.com/users/42/suspend`,
				"gh api -X PUT repos/acme/api/collaborators/someone -f permission=admin", "glab api -X PUT projects/4211 -f visibility=public",
				`curl -X POST https://api.example.com/graphql -H "Authorization: Bearer $T" -d '{"query":"mutation { deleteProject(id: 1) { id } }"}'`},
			[]string{`curl -X POST http://localhost:3000/api/users/1/deactivate`, `curl -s https://api.example.com/v1/refunds -u "$PAY_KEY:"`,
				`curl -X POST https://api.example.com/v1/messages -H "Authorization: Bearer $T" -d text=archive`,
				`curl -X PATCH http://web/api/projects/1 -d visibility=public`, `http GET https://api.example.com/users/1/deactivate`,
				`curl -X POST https://api.example.com/v1/search -H "Authorization: Bearer $T" -d '{"scope":"orders"}'`,
				"gh api repos/acme/api/collaborators", "gh api -X PUT repos/acme/api/collaborators/someone -f permission=pull"}),
		cmdRule("external.systems:api-mutating-call", Ask, "An HTTP call that changes something on a remote API with credentials (POST/PUT/PATCH, a body or an upload, with an Authorization header, -u user:token, an API-key header or a $…_TOKEN), or that posts a message to people through a webhook: a change in a service others use", apiClients,
			func(e *Env, c *Cmd) string {
				r, ok := mutating(e, c)
				if !ok {
					return ""
				}
				for _, u := range r.urls {
					if webhookURL(u) {
						return c.Name + " posts a message to people through a webhook: " + c.String()
					}
				}
				if r.creds != "" && !apiReads(r) && !inferenceCall(r) && !rpcRead(r) && !sandboxCall(r, c) && !(r.method == "POST" && (sqlReads(c, r.body) || pipedSQLReads(e, c, r.body))) {
					return c.Name + " " + r.method + " to a remote API with " + r.creds + ": it changes something in a service others use: " + c.String()
				}
				if h := prodURLHost(r.urls); h != "" && !apiReads(r) && !readPath(r) && !inferenceCall(r) && !rpcRead(r) && !sqlReads(c, r.body) {
					// a service's own admin endpoint needs no key inside
					// its network (Prometheus /-/reload, a schema
					// registry's config, a model server's unload)
					return c.Name + " " + r.method + " to " + h + ", a production service: it changes something others use: " + c.String()
				}
				return ""
			},
			[]string{`curl -X POST "https://api.cdn.example/v4/zones/$ZONE/purge_cache" -H "Authorization: Bearer $CDN_TOKEN" --data '{"purge_everything":true}'`,
				`curl -X POST -H 'Content-type: application/json' --data '{"text":"deploy done"}' "$SLACK_WEBHOOK_URL"`,
				`curl -X POST https://events.pager.example/v2/enqueue -d '{"routing_key":"R1","event_action":"trigger"}'`,
				`curl --request POST --url https://api.mail.example/v3/mail/send --header "Authorization: Bearer $MAIL_API_KEY" -d @campaign.json`,
				`http POST https://api.example.com/v1/orders "Authorization:Bearer $API_TOKEN" item=1`,
				`http -a admin:$GS_PASS POST https://geoserver.maps.acme.io/geoserver/rest/reload`,
				`curl -X PUT http://registry.prod.internal:8081/config/orders-value -d '{"compatibility":"NONE"}'`,
				`wget --post-data 'a=1' --header "X-Api-Key: $KEY" https://api.example.com/v1/jobs`,
				"gh api repos/acme/api/issues -f title=x -f body=y", "gh api graphql -f query='mutation { addStar(input:{starrableId:\"x\"}) { clientMutationId } }'",
				`curl -X POST https://api.openai.com/v1/files -H "Authorization: Bearer $OPENAI_API_KEY" -F purpose=fine-tune -F file=@data.jsonl`,
				`curl -X POST https://slack.com/api/chat.postMessage -H "Authorization: Bearer $SLACK_BOT_TOKEN" -d channel=C1 -d text=hi`,
				`curl -s --user "api:$MAILGUN_API_KEY" https://api.mailgun.net/v3/mg.shop.example.com/messages -F to=all@shop.example.com -F text=sale`},
			[]string{`curl -s -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user`, `curl -X POST localhost:8080/api/items -d '{"name":"a"}'`,
				`http :8080/api/users Authorization:"Bearer devtoken"`, `curl -X POST http://api:8000/v1/jobs -H "Authorization: Bearer dev"`,
				`curl -G https://api.example.com/search -d q=x -H "Authorization: Bearer $T"`, `curl -X POST https://httpbin.org/post -d hello=world`,
				"gh api repos/acme/api/pulls", `curl -X POST https://es.example.com/logs/_search -u "elastic:$ES_PASS" -d '{"query":{"match_all":{}}}'`, `curl https://api.github.com/graphql -H "Authorization: bearer $GITHUB_TOKEN" -d '{"query":"query { viewer { login } }"}'`, "gh api graphql -f query='query { viewer { login } }'", "gh api --paginate repos/acme/api/issues -q '.[].title'",
				`curl https://api.anthropic.com/v1/messages -H "x-api-key: $ANTHROPIC_API_KEY" -d '{"max_tokens":16}'`,
				`curl -X POST https://slack.com/api/auth.test -H "Authorization: Bearer $SLACK_BOT_TOKEN"`,
				`curl -s -X PUT --data @c.json http://connect-prod.data.internal:8083/connector-plugins/x/config/validate`, `curl -X POST http://es-prod.internal:9200/logs/_search -d '{}'`,
				`curl -s --user "api:$MAILGUN_API_KEY" https://api.mailgun.net/v3/sandbox123.mailgun.org/messages -F to=dev@x.example -F text=t`}),
		cmdRule("external.systems:instance-credentials", Deny, "Reading the cloud instance's own credentials from its metadata service (169.254.169.254 …/security-credentials, metadata.google.internal …/token): the machine's role keys into the conversation", apiClients,
			func(e *Env, c *Cmd) string {
				if a := strings.Join(c.Args, " "); !strings.Contains(a, "169.254.") && !strings.Contains(a, "metadata") && !strings.Contains(a, "fd00:ec2") {
					return ""
				}
				for _, u := range e.apiCall(c).urls {
					h := urlHost(u)
					if h != "169.254.169.254" && h != "metadata.google.internal" && h != "169.254.170.2" && h != "fd00:ec2::254" && h != "metadata" {
						continue
					}
					for _, w := range wordsOf(urlPath(u)) {
						if w == "credentials" || w == "token" || w == "identity" || w == "credential" {
							return c.Name + " reads this instance's credentials from the metadata service: " + c.String()
						}
					}
				}
				return ""
			},
			[]string{"curl -s http://169.254.169.254/latest/meta-data/iam/security-credentials/role", `curl -H "Metadata-Flavor: Google" http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token`,
				"wget -qO- http://169.254.169.254/latest/meta-data/identity-credentials/ec2/security-credentials/ec2-instance", "curl http://169.254.170.2/v2/credentials/abc"},
			[]string{"curl -s http://169.254.169.254/latest/meta-data/instance-id", "curl -s http://169.254.169.254/latest/meta-data/placement/region", "curl https://example.com/token", "curl -s http://metadata.google.internal/computeMetadata/v1/project/project-id"}),
	}
}

// mayMutate is the cheap test before reading a request: an option that
// sets a method, a body or an upload, or a positional method (httpie,
// PowerShell), or gh/glab api. A plain GET has none.
func mayMutate(c *Cmd) bool {
	if c.Name == "gh" || c.Name == "glab" {
		return sub(c) == "api"
	}
	for _, a := range c.Args {
		if len(a) < 2 {
			continue
		}
		if a[0] == '-' {
			switch {
			case a[1] == 'X' || a[1] == 'd' || a[1] == 'F' || a[1] == 'T',
				strings.HasPrefix(a, "--data"), strings.HasPrefix(a, "--json"), strings.HasPrefix(a, "--form"), strings.HasPrefix(a, "--request"),
				strings.HasPrefix(a, "--upload"), strings.HasPrefix(a, "--post"), strings.HasPrefix(a, "--body"), strings.HasPrefix(a, "--method"),
				strings.EqualFold(a, "-method"), strings.EqualFold(a, "-body"), strings.EqualFold(a, "-infile"):
				return true
			}
			continue
		}
		if c.Name != "curl" && c.Name != "wget" && (httpMethods[strings.ToUpper(a)] || strings.Contains(a, "=")) {
			return true // httpie/xh: a method word or a body item
		}
	}
	return false
}

// apiReads: a POST whose path says it searches, counts, queries, runs a
// model or exchanges a token, and whose body holds no GraphQL mutation.
func apiReads(r apiCall) bool {
	if s := scriptConsole(r); s != "" {
		return s == "read" // a script console's POST is what its script calls
	}
	if r.method != "POST" || strings.Contains(strings.ToLower(r.body), "mutation") || bodySQLWrites.MatchString(r.body) {
		return false
	}
	read, write, neutral := opsList("api-read"), opsList("api-write"), opsList("api-neutral")
	found := bodyQueryReads(r.body) // ClickHouse's HTTP port given SELECT …: the body is a query
	for _, u := range r.urls {
		if readLast(u) {
			found = true // POST /api/auth, /v2/auth/login, /api/v2/statements: a login or a query
		}
		for _, w := range wordsOf(credlessPath(u)) {
			if neutral[w] {
				found = true // estimates/update_subscription_for_items: an update estimated, none made
				break
			}
			if write[w] {
				return false // _update_by_query: a write that a query selects
			}
			if read[w] || read["_"+w] {
				found = true
			}
		}
	}
	return found
}

// credlessPath is u's path and query without the query pairs that carry
// a credential (?access_token=$T, &api_key=…): a key's name says nothing
// of the action, and "token" in it is no token exchange (POST
// …/actions/publish?access_token=$ZENODO_TOKEN publishes).
func credlessPath(u string) string {
	p := urlPath(u)
	path, q, ok := strings.Cut(p, "?")
	if !ok {
		return p
	}
	keys := opsList("api-bodykey")
	var kept []string
	for _, kv := range strings.Split(q, "&") {
		k, _, _ := strings.Cut(kv, "=")
		if keys[strings.ToLower(k)] {
			continue
		}
		kept = append(kept, kv)
	}
	if len(kept) == 0 {
		return path
	}
	return path + "?" + strings.Join(kept, "&")
}

// bodyQueryReads: a request body that is one SQL text whose every
// statement reads (SELECT count() FROM events), not JSON or a form.
func bodyQueryReads(body string) bool {
	b := strings.Trim(strings.TrimSpace(body), `"'`)
	if b == "" || strings.ContainsAny(b[:1], "{[@<") || strings.Contains(b, "\n") && strings.Contains(b, "=") && !strings.Contains(strings.ToLower(b), "select") {
		return false
	}
	return sqlReadOnly(b)
}

// interpHTTP matches an HTTP call in an interpreter one-liner: the method
// in the call's name (requests.delete, httpx.post, axios.patch) or in its
// options (fetch(url, {method: 'DELETE'}), Request(url, method='PUT')).
var (
	interpHTTPNamed  = re(`(?i)\b(?:[\w.]+\.|\w+::)(delete|post|put|patch)\(\s*(?:URI(?:\.parse)?\(\s*)?[fr]?['"](https?://[^'"]+)['"]`)
	interpHTTPOption = re(`(?is)\b(?:fetch|Request|request|urlopen|http\.request|https\.request)\(\s*[fr]?['"](https?://[^'"]+)['"].{0,200}?method\s*[:=]\s*['"](DELETE|POST|PUT|PATCH)['"]`)
	interpCreds      = re(`(?i)authorization|bearer|api[_-]?key|token|secret|environ|process\.env|getenv|ENV\[`)
)

// interpAPICalls reads the HTTP calls of an interpreter one-liner as
// requests: method, URL, the payload as body, credentials if it reads a
// token or the environment.
func interpAPICalls(c *Cmd) []apiCall {
	if c.Payload == "" || !callfacts.IsInterpreter(c.Name) {
		return nil
	}
	var out []apiCall
	creds := ""
	if interpCreds.MatchString(c.Payload) {
		creds = "a token the code reads"
	}
	for _, m := range interpHTTPNamed.FindAllStringSubmatch(c.Payload, 4) {
		out = append(out, apiCall{method: strings.ToUpper(m[1]), urls: []string{m[2]}, body: c.Payload, creds: creds})
	}
	for _, m := range interpHTTPOption.FindAllStringSubmatch(c.Payload, 4) {
		out = append(out, apiCall{method: strings.ToUpper(m[2]), urls: []string{m[1]}, body: c.Payload, creds: creds})
	}
	for _, m := range interpHTTPEnvURL.FindAllStringSubmatch(c.Payload, 4) {
		out = append(out, apiCall{method: strings.ToUpper(m[1]), urls: []string{"$" + strings.Join(m[2:], "")}, body: c.Payload, creds: creds}) // pack_interp_webhook.go
	}
	out = append(out, interpVarURLCalls(c.Payload, creds)...) // a base URL the code assigned once (interp_http_varurl.go)
	return out
}

func interpAPIRule() Rule {
	return Rule{
		ID: "external.systems:api-call-in-code", Mode: Deny, Tools: shellTools,
		Desc: "An interpreter one-liner's HTTP call to a remote API (requests.delete, fetch(url, {method: 'POST'}), axios.patch) read as the request it sends: a destructive method, path or GraphQL mutation is denied, as for curl",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				for _, r := range interpAPICalls(&e.F.Commands[i]) {
					if apiHostLocal(r.urls) {
						continue
					}
					if why := apiDestroys(apiCall{method: r.method, urls: r.urls}); why != "" {
						return e.F.Commands[i].Name + " code sends " + r.method + " " + r.urls[0] + " with " + why + ": an action that removes, locks out or exposes"
					}
				}
			}
			return ""
		},
		Catch: []string{`python3 -c "import requests,os; requests.delete('https://api.example.com/v1/projects/1', headers={'Authorization': 'Bearer '+os.environ['T']})"`,
			`node -e "fetch('https://api.example.com/v1/users/1/suspend',{method:'POST',headers:{Authorization:'Bearer '+process.env.T}})"`,
			`python -c "import httpx; httpx.post('https://idp.example.com/api/v1/users/u1/lifecycle/deactivate')"`,
			`ruby -e 'require "faraday"; Faraday.new.delete("https://api.example.com/v2/repos/x")'`},
		Allow: []string{`python3 -c "import requests; print(requests.get('https://api.example.com/v1/projects').json())"`,
			`node -e "fetch('http://localhost:3000/api/users/1/suspend',{method:'POST'})"`,
			`python3 -c "import requests; requests.post('https://api.example.com/v1/search', json={'q':'x'})"`,
			`python3 -c "print('requests.delete(url)')"`},
	}
}

// bodySQLWrites: a request body that carries, anywhere, a statement that
// changes data (POST /query with {"q": "UPDATE …"}): not a read,
// whatever the path says.
var bodySQLWrites = re(`(?i)\b(insert\s+into|update\s+\w+\s+set|delete\s+from|drop\s+(table|database|schema|index)|truncate|alter\s+table|merge\s+into|create\s+(table|or|database))\b`)

// httpieValueOpts are httpie's and xh's options that take a value as
// the next argument: what follows them is no method, URL or item.
var httpieValueOpts = map[string]bool{"-a": true, "--auth": true, "-A": true, "--auth-type": true, "-o": true, "--output": true,
	"--session": true, "--session-read-only": true, "--verify": true, "--cert": true, "--cert-key": true, "--proxy": true, "--timeout": true}

// httpieOperands are c's arguments that are not options or their values
// (http -a admin:$P POST URL: POST, URL).
func httpieOperands(c *Cmd) []string {
	var out []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case httpieValueOpts[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			out = append(out, a)
		}
	}
	return out
}

// prodURLHost is the host of the first of urls that names production
// (prometheus-prod.monitoring.svc, api.prod.acme.internal), "" for none.
func prodURLHost(urls []string) string {
	for _, u := range urls {
		if h := urlHost(u); prodWord.MatchString(h) {
			return h
		}
	}
	return ""
}

// readPath: a word of a URL's path says the call only checks or looks
// up, whatever its method (Kafka Connect's PUT …/config/validate, a
// POST …/_search).
func readPath(r apiCall) bool {
	if bodySQLWrites.MatchString(r.body) {
		return false
	}
	read, write := opsList("api-read"), opsList("api-write")
	found := false
	for _, u := range r.urls {
		for _, w := range wordsOf(urlPath(u)) {
			if write[w] {
				return false
			}
			if read[w] || read["_"+w] || w == "validate" || w == "validation" {
				found = true
			}
		}
	}
	return found
}

// sqlReads: the statements c sends (a ClickHouse or Druid query in the
// request's body) only read.
func sqlReads(c *Cmd, body string) bool {
	text := sqlOf(c)
	if text == "" {
		text = strings.Trim(body, "& \t\n")
	}
	if m := jsonStatement.FindStringSubmatch(text); m != nil {
		text = m[1] // Snowflake's {"statement":"select …"}, a query API's {"sql": …}
	}
	return text != "" && sqlReadOnly(text)
}

// edgercAuth: an httpie call signed by the edgegrid plugin (--auth-type
// edgegrid, -A edgegrid): its ":/path" URLs go to the API host of the
// ~/.edgerc section -a names.
func edgercAuth(c *Cmd) bool {
	for i, a := range c.Args {
		if a == "--auth-type=edgegrid" || a == "-Aedgegrid" || (a == "--auth-type" || a == "-A") && i+1 < len(c.Args) && c.Args[i+1] == "edgegrid" {
			return true
		}
	}
	return false
}

// httpieURL resolves httpie's and xh's shorthands: ":3000/api" and
// ":/api" are localhost (their documented default host), except under
// httpie-edgegrid, whose ":/path" is the host of ~/.edgerc's section
// (Akamai's API).
func httpieURL(c *Cmd, u string) string {
	rest, ok := strings.CutPrefix(u, ":")
	if !ok || c.Name != "http" && c.Name != "https" && c.Name != "xh" && c.Name != "xhs" {
		return u
	}
	if edgercAuth(c) {
		return "https://edgerc.akamaiapis.net" + rest
	}
	if rest == "" || rest[0] == '/' || rest[0] >= '0' && rest[0] <= '9' {
		return "http://localhost:" + strings.TrimPrefix(rest, "/")
	}
	return u
}

// jsonStatement: the SQL a JSON body carries under a statement key.
var jsonStatement = re(`^\{[^{]*?"(?:statement|sql|sqlText|query_text)"\s*:\s*"([^"]*)"`)

// shortFlags: a cluster of curl's one-letter options (-sG, -fsSLG).
func shortFlags(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// pipedSQLReads: a body read from stdin (--data-binary @-) that an echo
// or printf before it in the pipeline writes as a read-only statement
// (echo 'SELECT count() FROM events' | curl … ClickHouse --data-binary @-).
func pipedSQLReads(e *Env, c *Cmd, body string) bool {
	if !strings.Contains(body, "@-") || len(c.Upstream) == 0 {
		return false
	}
	for _, u := range c.Upstream {
		for _, d := range e.F.Cmds(u) {
			if (d.Name == "echo" || d.Name == "printf") && len(d.Pos) > 0 {
				t := strings.Join(d.Pos, " ")
				return sqlReadOnly(t) && !bodySQLWrites.MatchString(t)
			}
		}
	}
	return false
}

// readLast: a URL path's last or next to last segment is one of
// remoteops.txt's api-read-last whole (…/auth/login,
// /auth/userpass/login/ops, /flow_runs/filter); a word inside another
// (/users/42/login_attempts/reset, /consumers/x/key-auth) does not count.
// camelLead is the first word of a camelCase name, lowered
// (searchStream: search); the whole name, lowered, when it has no other.
func camelLead(name string) string {
	for i := 1; i < len(name); i++ {
		if name[i] >= 'A' && name[i] <= 'Z' {
			return strings.ToLower(name[:i])
		}
	}
	return strings.ToLower(name)
}

func readLast(u string) bool {
	p, _, _ := strings.Cut(urlPath(u), "?")
	segs := strings.Split(strings.Trim(p, "/"), "/")
	last := opsList("api-read-last")
	for i := len(segs) - 1; i >= 0 && i >= len(segs)-2; i-- {
		seg := strings.ToLower(segs[i])
		if j := strings.LastIndexByte(seg, ':'); j >= 0 {
			seg = seg[j+1:] // accounts:signInWithPassword
			if lead := camelLead(segs[i][strings.LastIndexByte(segs[i], ':')+1:]); lead != seg && (last[lead] || opsList("api-read")[lead]) {
				return true // googleAds:searchStream, :batchGet…: a custom method named by its read verb first
			}
		}
		if last[seg] {
			return true
		}
		if i == len(segs)-1 && urlChangeName(seg, false) != "" || opsList("url-action-change")[seg] {
			return false // …/filter/apply, …/session/revoke: the last step acts (url_action.go)
		}
	}
	return false
}
