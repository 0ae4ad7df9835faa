package policy

import (
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A request that may change state, sent to another machine the line
// does not place. api-mutating-call asks about a change made with a
// credential on the line or to a host named for production, and
// api-change-unshown-env about a spelled-out PUT or PATCH; a POST with
// no key on the line (curl -X POST https://api.example.com/v1/items -d
// @x.json, http POST api.foo.io/things name=x, wget --post-data=…,
// Invoke-RestMethod -Method Post, grpcurl …/CreateOrder, requests.post
// in a one-liner) went through, although the key may sit in ~/.netrc, a
// cookie jar, a client certificate or the network's trust, and what the
// request creates, sends or triggers is there for good. Which
// environment the host is, only the user knows: the guard asks.
//
// What a POST only reads stays allowed, read as the other HTTP rules
// read it: a search, count, query, GraphQL query (no mutation), login or
// token exchange, a validation, render or dry run (apiReads, readPath,
// apiDryRun, apiFormRead, rpcRead, sqlReads, renderCall), a model run, a
// read-only gRPC method (Get…, List…), a call to a sandbox. So does a
// request to this machine, a compose service, a private or link-local
// address, a host named for development or tests or a public echo
// service. (A tunnel's host, ngrok's or Cloudflare's, is a file-drop
// host to the secret rules, which deny a send there.) Credentialed calls, production hosts and webhooks are left
// to api-mutating-call, whose verdict is the stronger one; DELETE to
// destructive-verb and api-destructive-call.

// httpChangeRemote says what change c's request makes on a machine whose
// environment the line does not show, "" for none.
func httpChangeRemote(e *Env, c *Cmd) string {
	if onlyHelp(c) {
		return ""
	}
	if c.Name == "grpcurl" {
		return grpcChangeRemote(c)
	}
	if c.Name == "gh" || c.Name == "glab" || offline(c) {
		return "" // gh api signs in: api-mutating-call's; http --offline prints the request
	}
	cm := clusterMethod(c) // curl -sX POST URL, which readAPICall leaves unread
	if cm == "" && !mayMutate(c) {
		return ""
	}
	r := e.apiCall(c)
	if r.method == "" {
		r.method = cm
	}
	if r.method == "" && c.Name == "curlie" {
		r = curlieItems(c, r) // curlie post URL name=x: httpie's grammar over curl's options
	}
	if c.Name == "wget" && !wgetSends(c) {
		return "" // wget -T 30 is a timeout, not an upload
	}
	switch r.method {
	case "POST", "PUT", "PATCH":
	default:
		return ""
	}
	if !remoteChangeUnshown(e, c, r) {
		return ""
	}
	where := urlHost(r.urls[0])
	if apiHostLocal(r.urls) {
		where += " inside another machine's shell or pod" // ssh host 'curl -X POST localhost:8080/…'
	}
	return c.Name + " " + r.method + " to " + where + ": a change to a remote resource whose environment the line does not show: " + c.String()
}

// remoteChangeUnshown: r changes state on a host the line does not place
// and no other HTTP rule judges it.
func remoteChangeUnshown(e *Env, c *Cmd, r apiCall) bool {
	if len(r.urls) == 0 || r.creds != "" {
		return false // a credential on the line: api-mutating-call's
	}
	if apiHostLocal(r.urls) && !remoteLoopback(e, c) || !remoteHosts(r.urls) {
		return false
	}
	if strings.Contains(strings.ToLower(r.body), "mutation") && strings.Contains(strings.ToLower(strings.Join(r.urls, " ")), "graphql") {
		return true // a GraphQL mutation changes whatever its path's read words say
	}
	if prodURLHost(r.urls) != "" || sandboxCall(r, c) {
		return false // api-mutating-call's, or only test data
	}
	if apiDryRun(r) || apiFormRead(r) || apiReads(r) || readPath(r) || rpcRead(r) || inferenceCall(r) || renderCall(c, r) || computePath(r) || jsonRPCReads(r) {
		return false
	}
	if r.method == "POST" && (sqlReads(c, r.body) || pipedSQLReads(e, c, r.body)) {
		return false
	}
	return true
}

// computePath: a step of a URL's path names a search or a computation
// whose answer is the point (…/search, /api/interpreter of Overpass, a
// SPARQL endpoint, …/predict, …/translate, …/lint): the server answers
// and keeps nothing. Unlike apiReads, words in the body do not count
// against it: a search for "delete from my account" is still a search.
func computePath(r apiCall) bool {
	if r.method != "POST" {
		return false
	}
	words, write := opsList("http-compute-path"), opsList("api-write")
	for _, u := range r.urls {
		p, _, _ := strings.Cut(urlPath(u), "?")
		found := false
		for _, w := range wordsOf(p) {
			if write[w] {
				return false
			}
			found = found || words[w]
		}
		if !found {
			return false
		}
	}
	return len(r.urls) > 0
}

// jsonRPCReads: a JSON-RPC body whose every method's name holds no verb
// that changes state (eth_blockNumber, getblockchaininfo, eth_call; not
// eth_sendRawTransaction, sendrawtransaction, personal_unlockAccount).
func jsonRPCReads(r apiCall) bool {
	if r.method != "POST" || !strings.Contains(r.body, "jsonrpc") {
		return false
	}
	ms := rpcMethodName.FindAllStringSubmatch(r.body, -1)
	if len(ms) == 0 {
		return false
	}
	verbs := opsList("grpc-change-verb")
	for _, m := range ms {
		name := m[1]
		if i := strings.LastIndexAny(name, "_."); i >= 0 {
			name = name[i+1:] // eth_, author_, wallet.
		}
		w := actionWords(name)
		if len(w) == 0 {
			return false
		}
		for _, x := range w {
			if verbs[x] {
				return false
			}
		}
		for v := range verbs {
			if len(v) > 2 && strings.HasPrefix(w[0], v) {
				return false // sendrawtransaction, unlockaccount written as one word
			}
		}
	}
	return true
}

// remoteHosts: every URL's host may be another machine's service
// (sharedHosts: not a private or link-local address, which the HTTP rules
// leave to the LAN-device rules, not a dev/test host or an echo service),
// and is not Docker's name for this machine.
func remoteHosts(urls []string) bool {
	for _, u := range urls {
		if h := strings.ToLower(urlHost(u)); h == "host.docker.internal" || strings.HasPrefix(h, "host.docker.internal:") {
			return false
		}
	}
	return sharedHosts(urls)
}

// offline: httpie's and xh's --offline build and print the request
// without sending it.
func offline(c *Cmd) bool {
	return c.Name != "curl" && c.Name != "wget" && slices.Contains(c.Args, "--offline")
}

// curlieItems reads curlie's httpie-style operands, which requestParts
// reads as curl's: a method word and key=value or key:=json items (a
// body, so POST when no method is named); key==value is a query.
func curlieItems(c *Cmd, r apiCall) apiCall {
	ops := httpieOperands(c)
	if len(ops) > 0 && httpMethods[strings.ToUpper(ops[0])] {
		r.method = strings.ToUpper(ops[0])
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return r
	}
	r.urls = []string{httpieURL(c, ops[0])}
	for _, a := range ops[1:] {
		if p := httpieItem(a); p.kind == "data" {
			r.body += "&" + p.val
		}
	}
	if r.method == "" && r.body != "" {
		r.method = "POST"
	}
	return r
}

// clusterMethod reads a method set inside a cluster of curl's one-letter
// options (-sX POST, -sXPOST), which readAPICall leaves unread.
func clusterMethod(c *Cmd) string {
	if c.Name != "curl" && c.Name != "curlie" {
		return ""
	}
	for i, a := range c.Args {
		if len(a) < 3 || a[0] != '-' || a[1] == '-' {
			continue
		}
		j := strings.IndexByte(a, 'X')
		if j < 2 || !shortFlags(a[1:j]) {
			continue
		}
		if j+1 < len(a) {
			return strings.ToUpper(a[j+1:])
		}
		if i+1 < len(c.Args) {
			return strings.ToUpper(c.Args[i+1])
		}
	}
	return ""
}

// wgetSends: a wget option that sets a method or sends a body (its -T is
// a timeout).
func wgetSends(c *Cmd) bool {
	for _, a := range c.Args {
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "--method") || strings.HasPrefix(l, "--post-") || strings.HasPrefix(l, "--body-") {
			return true
		}
	}
	return false
}

// renderCall: a POST whose answer is a rendering of the body (an image,
// a PDF: Accept: image/png, a path ending …/svg or …/png, a renderer's
// host such as kroki.io): the service computes and stores nothing.
func renderCall(c *Cmd, r apiCall) bool {
	if r.method != "POST" {
		return false
	}
	for _, p := range requestParts(c) {
		if p.kind == "header" && strings.EqualFold(p.name, "accept") {
			v := strings.ToLower(p.val)
			if strings.Contains(v, "image/") || strings.Contains(v, "application/pdf") {
				return true
			}
		}
	}
	hosts, formats := opsList("http-render-host"), opsList("http-render-format")
	for _, u := range r.urls {
		if hostInList(strings.ToLower(urlHost(u)), hosts) {
			continue
		}
		p, _, _ := strings.Cut(urlPath(u), "?")
		p = strings.TrimRight(p, "/")
		if !formats[strings.ToLower(p[strings.LastIndexByte(p, '/')+1:])] {
			return false
		}
	}
	return len(r.urls) > 0
}

// grpcChangeRemote: grpcurl calling, on a host the line does not place,
// a method whose name starts with a verb that changes state
// (CreateOrder, UpdateUser, SetFlag); list, describe and read methods
// (GetOrder, ListUsers, grpc.health.v1.Health/Check) are reads.
func grpcChangeRemote(c *Cmd) string {
	var pos []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && !grpcurlBoolFlags[strings.TrimLeft(a, "-")] {
				i++ // -d '{…}', -H 'k: v', -proto x.proto
			}
			continue
		}
		pos = append(pos, a)
	}
	if len(pos) < 2 || !strings.Contains(pos[1], "/") && !strings.Contains(pos[1], ".") {
		return "" // grpcurl HOST list, HOST describe X
	}
	host, method := pos[0], pos[1]
	u := "grpc://" + host
	if apiHostLocal([]string{u}) || !sharedHosts([]string{u}) || prodURLHost([]string{u}) != "" {
		return ""
	}
	name := method[strings.LastIndexAny(method, "/.")+1:]
	w := actionWords(name)
	if len(w) == 0 || !opsList("grpc-change-verb")[w[0]] {
		return ""
	}
	return "grpcurl calls " + name + " on " + host + ": a change to a remote resource whose environment the line does not show: " + c.String()
}

// grpcurlBoolFlags are grpcurl's options that take no value.
var grpcurlBoolFlags = map[string]bool{"plaintext": true, "insecure": true, "v": true, "vv": true, "unix": true, "emit-defaults": true,
	"allow-unknown-fields": true, "format-error": true, "use-reflection": true, "expand-headers": true, "msg-template": true, "alts": true,
	"help": true, "version": true, "h": true}

// interpChangeRemote: an interpreter one-liner's POST, PUT or PATCH
// (requests.post, httpx.put, fetch(url, {method: 'POST'})) to a host the
// line does not place, with no credential the code reads (those are
// api-change-in-code's).
func interpChangeRemote(e *Env, c *Cmd) string {
	if !strings.Contains(c.Payload, "http") {
		return ""
	}
	for _, r := range interpAPICalls(c) {
		if r.method != "POST" && r.method != "PUT" && r.method != "PATCH" {
			continue
		}
		if remoteChangeUnshown(e, c, r) {
			return c.Name + " code sends " + r.method + " to " + urlHost(r.urls[0]) + ": a change to a remote resource whose environment the line does not show"
		}
	}
	return ""
}

func httpChangeRemoteRule() Rule {
	names := append(append([]string{"grpcurl"}, apiClients...), sdkRunners...)
	return cmdRule("external.systems:http-change-remote", Ask, "An HTTP or gRPC request that may change state (POST, PUT or PATCH: -X, a body, a form, an upload; httpie's items; grpcurl's Create…/Update… methods; requests.post in a one-liner) sent to another machine with no credential on the line and no name that places it: a change to a remote resource whose environment the line does not show. Searches, queries, GraphQL queries, logins, validations, renders and dry runs, this machine, private addresses, dev/test/sandbox hosts and echo services are left alone; credentialed and production calls are api-mutating-call's", names,
		func(e *Env, c *Cmd) string {
			if callfacts.IsInterpreter(c.Name) {
				return interpChangeRemote(e, c) // python3 -m x --json is no client's option
			}
			return httpChangeRemote(e, c)
		},
		[]string{`curl -X POST https://api.example.com/v1/items -d @x.json`,
			`http POST api.foo.io/things name=x`,
			`wget --post-data='status=shipped' https://orders.example.net/api/orders/91/status`,
			`curl -sX POST https://builds.example.net/api/v1/pipelines/web/trigger`,
			`grpcurl -d '{"sku":"A1","qty":2}' orders.example.com:443 shop.v1.OrderService/CreateOrder`,
			`python3 -c "import requests; requests.post('https://inventory.example.org/api/items', json={'sku':'A1'})"`},
		[]string{`curl -X POST http://localhost:8080/api/items -d @x.json`, `curl -X POST https://search.example.com/products/_search -d '{}'`,
			`curl -X POST https://api.example.com/graphql -d '{"query":"query { me { id } }"}'`,
			`http POST api.dev.example.com/things name=x`, `wget -T 30 -qO- https://example.com/feed.xml`,
			`curl -X POST https://kroki.io/plantuml/svg --data-binary @docs/arch.puml -o arch.svg`,
			`grpcurl -d '{"id":"1"}' orders.example.com:443 shop.v1.OrderService/GetOrder`,
			`curl -X POST http://web.local/api/items -d name=a`})
}
