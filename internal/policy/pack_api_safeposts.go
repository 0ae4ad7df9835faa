package policy

import "strings"

// Three kinds of credentialed POST that change nothing others use, read
// from remoteops.txt: model inference on a model provider's API (the
// answer is computed for the caller), an RPC-style method that reads
// (Slack's auth.test, conversations.list), and a call to a service's
// sandbox (a Mailgun sandbox domain, PayPal's or Plaid's sandbox hosts,
// SendGrid's sandbox_mode), which delivers nowhere real. The secret's
// own host is still checked by the send rules (pack_send.go).

// inferenceCall: every URL of r is an inference endpoint of a model
// provider's host (api-inference-host, api-inference).
func inferenceCall(r apiCall) bool {
	if r.method != "POST" || len(r.urls) == 0 {
		return false
	}
	hosts, words := opsList("api-inference-host"), opsList("api-inference")
	for _, u := range r.urls {
		if !hostInList(strings.ToLower(urlHost(u)), hosts) {
			return false
		}
		if opsList("api-inference-only")[strings.ToLower(urlHost(u))] {
			continue // api-inference.huggingface.co/models/ORG/MODEL: a model run, whatever the path
		}
		p := urlPath(u)
		if i := strings.IndexAny(p, "?#"); i >= 0 {
			p = p[:i]
		}
		last := p[strings.LastIndexByte(p, '/')+1:]
		if _, method, ok := strings.Cut(last, ":"); ok {
			last = method // Gemini and Vertex: models/x:generateContent
		}
		if !words[last] && !words[path2(p)] {
			return false
		}
	}
	return true
}

// path2 is the second-to-last element of p ("chat" of /v1/chat/completions
// is read with its last; "messages" of /v1/messages/count_tokens).
func path2(p string) string {
	p = strings.TrimSuffix(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[:i]
	}
	return p[strings.LastIndexByte(p, '/')+1:]
}

// hostInList: host is one of hosts, or ends with one after "." or "-",
// or starts with one before ".".
func hostInList(host string, hosts map[string]bool) bool {
	if host == "" {
		return false
	}
	for h := range hosts {
		if host == h || strings.HasSuffix(host, "."+h) || strings.HasSuffix(host, "-"+h) || strings.HasPrefix(host, h+".") {
			return true
		}
	}
	return false
}

// rpcReadVerbs are the verbs an RPC method's name starts with when it
// only reads (GetTitleData, ListUsers, describeStream, searchItems).
var rpcReadVerbs = map[string]bool{"get": true, "list": true, "describe": true, "search": true, "query": true, "find": true, "lookup": true, "count": true, "read": true, "show": true, "view": true, "fetch": true}

// rpcReportRun: a method named for running a report (GA4's runReport,
// batchRunPivotReports, runRealtimeReport): a report computed from the
// data for the caller, nothing changed.
func rpcReportRun(w []string) bool {
	l := w[len(w)-1]
	return (w[0] == "run" || w[0] == "batch") && (l == "report" || l == "reports")
}

// queryMethod is the RPC method a URL's query names (?method=
// VisitsSummary.get), "" for none.
func queryMethod(u string) string {
	_, q, ok := strings.Cut(u, "?")
	if !ok {
		return ""
	}
	for _, kv := range strings.Split(q, "&") {
		if k, v, _ := strings.Cut(kv, "="); strings.EqualFold(k, "method") && v != "" && !strings.ContainsAny(v, "$`") {
			return v
		}
	}
	return ""
}

// rpcWriteVerbs are the words after a read verb that make a method
// name a write (VAN's people/findOrCreate, getOrInsert, fetchAndDelete).
var rpcWriteVerbs = map[string]bool{"create": true, "insert": true, "update": true, "upsert": true, "add": true, "set": true, "save": true,
	"delete": true, "remove": true, "put": true, "write": true, "make": true, "register": true, "replace": true}

// rpcMakes: the words after a method's leading read verb join a write
// (findOrCreate, getAndDelete).
func rpcMakes(rest []string) bool {
	for i, w := range rest {
		if (w == "or" || w == "and" || w == "then") && i+1 < len(rest) && rpcWriteVerbs[rest[i+1]] {
			return true
		}
	}
	return false
}

// rpcRead: every URL of r calls an RPC-style method whose last word only
// reads (auth.test, users.info, getMe).
func rpcRead(r apiCall) bool {
	if r.method != "POST" || len(r.urls) == 0 {
		return false
	}
	if opFieldReads(r) {
		return true // {"command":"statistic-get-all"}, <cmd action="read_val">, ?method=VisitsSummary.get: every operation named reads (pack_api_opfield_reads.go)
	}
	if rpcBodyReads(r.body) {
		return true // {"method":"tlm"}, {"tdc:GetDoorInfoList":{}}: an RPC that reads (lan_device_call.go)
	}
	read := opsList("api-read-method")
	if m := jsonRPCMethod.FindStringSubmatch(r.body); m != nil {
		name := m[1] + m[2]
		last := strings.ToLower(name[strings.LastIndexByte(name, '.')+1:])
		return read[last] || last == "get" || last == "login" || last == "version" // Zabbix's host.get, user.login over JSON-RPC
	}
	for _, u := range r.urls {
		p := urlPath(u)
		if i := strings.IndexAny(p, "?#"); i >= 0 {
			p = p[:i]
		}
		p = strings.TrimRight(p, "/") // …/listMarketBook/
		last := p[strings.LastIndexByte(p, '/')+1:]
		if m := queryMethod(u); m != "" {
			last = m // index.php?module=API&method=VisitsSummary.get: the method rides in the query (Matomo, Flickr, Last.fm)
		}
		if i := strings.LastIndexByte(last, ':'); i >= 0 && i+1 < len(last) {
			last = last[i+1:] // a resource's custom method, named verb first (googleAds:searchStream)
		}
		if i := strings.LastIndexByte(last, '.'); i >= 0 {
			last = last[i+1:]
		} else if w := actionWords(last); len(w) > 1 && (rpcReadVerbs[w[0]] || rpcReportRun(w)) {
			if rpcMakes(w[1:]) {
				return false // findOrCreate, getOrInsert: it makes what it does not find
			}
			continue // a method named verb-first in camel case (PlayFab's Admin/GetTitleData, listUsers): its verb reads
		} else if !strings.HasPrefix(last, "get") {
			return false // a plain REST path (/v1/test) is not a method name
		}
		if !read[last] {
			return false
		}
	}
	return true
}

// testKey finds a test-mode credential on a line: a variable named for
// tests or a sandbox ($STRIPE_TEST_SECRET_KEY, $PAYPAL_SANDBOX_TOKEN),
// or a key in a service's documented test form (Stripe's sk_test_,
// Postmark's POSTMARK_API_TEST token).
var testKey = re(`\$\{?[A-Z0-9_]*_(?:TEST|SANDBOX)(?:_[A-Z0-9_]*)?\b|\b[sprk]k_test_\w|\bPOSTMARK_API_TEST\b`)

// sandboxCall: the call uses a test-mode credential (testKey), every URL
// of r goes to a service's sandbox (a host label or a domain in the path
// starting with "sandbox": api.sandbox.paypal.com, sandbox.plaid.com,
// api.mailgun.net/v3/sandbox4f2c.mailgun.org), or the body turns the
// service's sandbox mode on (SendGrid's sandbox_mode).
func sandboxCall(r apiCall, c *Cmd) bool {
	if len(r.urls) == 0 {
		return false
	}
	if testKey.MatchString(strings.Join(c.Args, " ")) {
		return true
	}
	b := strings.ToLower(strings.Join(strings.Fields(r.body), ""))
	if strings.Contains(b, `"sandbox_mode":{"enable":true}`) {
		return true
	}
	for _, u := range r.urls {
		if !sandboxURL(u) {
			return false
		}
	}
	return true
}

// sandboxURL: a host label starts with "sandbox" (api-m.sandbox.paypal.com,
// sandbox.plaid.com) or has a word of a practice endpoint (paper-api,
// testnet), or a domain named in the path does
// (/v3/sandbox4f2c.mailgun.org/messages); a repository or file named
// sandbox-x is not a sandbox.
func sandboxURL(u string) bool {
	if sandboxHost(u) {
		return true
	}
	p := strings.ToLower(urlPath(u))
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	for _, seg := range strings.Split(p, "/") {
		if strings.Count(seg, ".") >= 2 && strings.HasPrefix(seg, "sandbox") {
			return true
		}
	}
	return false
}

// sandboxHosts: every URL of r is on a sandbox or practice host (the
// host's own labels say so, not a name in its path).
func sandboxHosts(r apiCall) bool {
	for _, u := range r.urls {
		if !sandboxHost(u) {
			return false
		}
	}
	return len(r.urls) > 0
}

// sandboxHost: a label of u's host starts with "sandbox" or has a word
// of a practice endpoint.
func sandboxHost(u string) bool {
	for _, l := range strings.Split(strings.ToLower(urlHost(u)), ".") {
		if strings.HasPrefix(l, "sandbox") || strings.HasSuffix(l, "sandbox") {
			return true // connect.squareupsandbox.com: the provider's sandbox domain
		}
		for _, w := range strings.Split(l, "-") {
			if w == "paper" || w == "testnet" || w == "sandbox" {
				return true // paper-api.alpaca.markets, testnet.binance.vision: the provider's practice endpoint
			}
		}
	}
	return false
}

// jsonRPCMethod: a JSON-RPC body's dotted method ("method":"host.get").
var jsonRPCMethod = re(`"jsonrpc"\s*:\s*"2\.0".*?"method"\s*:\s*"([A-Za-z]+\.[A-Za-z.]+)"|"method"\s*:\s*"([A-Za-z]+\.[A-Za-z.]+)".*?"jsonrpc"`)
