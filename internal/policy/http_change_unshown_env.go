package policy

import (
	"net/netip"
	"strings"
)

// HTTP calls that change another machine's service although the line
// carries no credential api-mutating-call could see. The key may sit in
// ~/.netrc, a cookie jar, a client certificate or the network's trust,
// so a missing Authorization header says nothing of who may write; what
// the request does is said by its method, its body or its path:
//
//   - PUT and PATCH replace or edit the document the URL names (a IIIF
//     manifest, a feature flag, a search index's settings): unlike POST,
//     which echo services, form tests and searches use every day, these
//     two methods exist to change what is stored;
//   - a JSON-RPC or REST call that broadcasts a signed transaction
//     (CometBFT's broadcast_tx_sync, eth_sendRawTransaction, Bitcoin's
//     sendrawtransaction, a Cosmos REST /cosmos/tx/v1beta1/txs): once a
//     node relays it, it cannot be taken back;
//   - a GET signed for an API (checksum=, signature=, sig=) whose last
//     path word is an act (BigBlueButton's /api/end, /api/deleteRecordings):
//     APIs that take their calls as signed GETs act on a GET.
//
// This machine, a private network address, a host named dev, test,
// local or sandbox, a test network and a dry run are left alone; calls
// with a credential or to a production host are api-mutating-call's and
// api-destructive-call's (pack_netapi.go). The words are data
// (remoteops.txt api-chain-send, api-chain-send-path, api-get-act).

// httpChangeUnshown says what change a credential-less HTTP call makes on
// a service whose environment the line does not show, "" for none.
func httpChangeUnshown(e *Env, c *Cmd) string {
	if onlyHelp(c) {
		return ""
	}
	if !mayMutate(c) {
		return signedGetAct(e, c)
	}
	r := e.apiCall(c)
	if len(r.urls) == 0 || apiDryRun(r) || apiHostLocal(r.urls) && !remoteLoopback(e, c) || !sharedHosts(r.urls) {
		return ""
	}
	if w := chainBroadcast(r); w != "" {
		return c.Name + " broadcasts a signed transaction (" + w + ") through another machine's node: it cannot be taken back: " + c.String()
	}
	if r.method != "PUT" && r.method != "PATCH" || !methodSpelled(c) {
		return "" // curl -T's upload is a PUT too: the upload rules judge it
	}
	if r.creds != "" || prodURLHost(r.urls) != "" || readPath(r) || sandboxCall(r, c) || webhookURL(strings.Join(r.urls, " ")) {
		return "" // api-mutating-call judges these (pack_netapi.go)
	}
	return c.Name + " " + r.method + " replaces or edits what " + urlHost(r.urls[0]) + " stores, a service whose environment the line does not show: " + c.String()
}

// methodSpelled: c names its request method (-X PUT, --request=PATCH,
// --method PUT, httpie's and xh's PATCH word) rather than implying it.
func methodSpelled(c *Cmd) bool {
	for _, a := range c.Args {
		l := strings.ToLower(a)
		switch {
		case a == "-X" || a == "--request" || l == "--method" || l == "-method",
			strings.HasPrefix(a, "-X") && !strings.HasPrefix(a, "--"),
			strings.HasPrefix(a, "--request=") || strings.HasPrefix(l, "--method="),
			c.Name != "curl" && c.Name != "wget" && (a == "PUT" || a == "PATCH" || a == "put" || a == "patch"):
			return true
		}
	}
	return false
}

// sharedHosts: every URL's host may be a service others use — not a
// private or link-local address (a lab device, a VM on this machine), not
// a host named for development, tests or a sandbox, not a public echo or
// mock service (httpbin.org/put stores nothing).
func sharedHosts(urls []string) bool {
	for _, u := range urls {
		h := urlHost(u)
		if h == "" || strings.HasPrefix(h, "-") {
			continue
		}
		hh := h
		if i := strings.LastIndexByte(hh, ':'); i > 0 && !strings.Contains(hh[:i], ":") {
			hh = hh[:i]
		}
		if a, err := netip.ParseAddr(strings.Trim(hh, "[]")); err == nil && (a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast()) {
			return false
		}
		if devName(hh) || chainTestHost(hh) || hostInList(strings.ToLower(hh), opsList("api-echo-host")) {
			return false
		}
	}
	return true
}

// chainTestHost: a host named for a test network (rpc.sepolia.org,
// rpc.testnet.cosmos.network, api.devnet.solana.com).
func chainTestHost(h string) bool {
	for _, w := range wordsOf(h) {
		switch strings.TrimRight(w, "0123456789") {
		case "testnet", "devnet", "sepolia", "goerli", "holesky", "hoodi", "signet", "regtest", "localnet", "amoy", "fuji", "mumbai":
			return true
		}
	}
	return false
}

// rpcMethodName finds a JSON-RPC body's method ("method":"broadcast_tx_sync").
var rpcMethodName = re(`"method"\s*:\s*"([A-Za-z_.]+)"`)

// chainBroadcast: the method or path that sends a signed transaction, ""
// for none.
func chainBroadcast(r apiCall) string {
	if r.method != "POST" && r.method != "PUT" {
		return ""
	}
	if strings.Contains(r.body, "method") {
		send := opsList("api-chain-send")
		for _, m := range rpcMethodName.FindAllStringSubmatch(r.body, -1) {
			if send[strings.ToLower(m[1])] {
				return m[1]
			}
		}
	}
	paths := opsList("api-chain-send-path")
	for _, u := range r.urls {
		p, _, _ := strings.Cut(urlPath(u), "?")
		p = strings.TrimRight(p, "/")
		for w := range paths {
			if strings.HasSuffix(p, w) {
				return w
			}
		}
	}
	return ""
}

// signKeys are the query keys that sign an API call made as a GET.
var signKeys = map[string]bool{"checksum": true, "signature": true, "sig": true, "hmac": true, "apikey": true, "api_key": true}

// signedGetAct: a GET to another machine whose query is signed for an API
// and whose last path word is an act (api-get-act: end, delete…,
// create, publish…).
func signedGetAct(e *Env, c *Cmd) string {
	if c.Name != "curl" && c.Name != "wget" && c.Name != "http" && c.Name != "https" && c.Name != "xh" && c.Name != "xhs" {
		return ""
	}
	acts := opsList("api-get-act")
	for _, a := range c.Args {
		if !strings.Contains(a, "://") || !strings.Contains(a, "?") {
			continue
		}
		if apiHostLocal([]string{a}) || !sharedHosts([]string{a}) {
			continue
		}
		p, q, _ := strings.Cut(urlPath(a), "?")
		signed := false
		for _, kv := range strings.Split(q, "&") {
			k, _, _ := strings.Cut(kv, "=")
			signed = signed || signKeys[strings.ToLower(k)]
		}
		if !signed {
			continue
		}
		last := strings.TrimRight(p, "/")
		last = last[strings.LastIndexByte(last, '/')+1:]
		if w := actionWords(last); len(w) > 0 && acts[w[0]] {
			return c.Name + " calls " + last + " on " + urlHost(a) + " as a signed GET: an act on a service others use: " + c.String()
		}
	}
	return ""
}

func httpChangeUnshownRule() Rule {
	return cmdRule("external.systems:api-change-unshown-env", Ask, "An HTTP call that changes another machine's service with no credential on the line (a .netrc, a cookie or the network may carry it): a PUT or PATCH that replaces or edits a stored document, a signed transaction broadcast through a node's JSON-RPC or REST API, a signed GET to an action endpoint (BigBlueButton's /api/end); private addresses, dev/test hosts and test networks are left alone; the words are data (remoteops.txt)", apiClients,
		httpChangeUnshown,
		[]string{`curl -X PUT -H 'Content-Type: application/json' -d @page.json https://wiki.corp.example.org/rest/api/content/991`,
			`curl -s -X PATCH https://cms.example.net/api/articles/77 -d '{"status":"draft"}'`,
			`curl -s -X POST https://bsc-dataseed.example.org -d '{"jsonrpc":"2.0","method":"eth_sendRawTransaction","params":["0xf86b"],"id":1}'`,
			`curl -X POST https://lcd.example-chain.net/cosmos/tx/v1beta1/txs -d @tx.json`,
			`curl "https://meet.example.edu/bigbluebutton/api/deleteRecordings?recordID=abc&checksum=$SUM"`},
		[]string{`curl -X PUT http://localhost:9200/idx -d '{}'`, `curl -X PUT http://192.168.1.40/api/config -d @c.json`,
			`curl -X PATCH https://api.dev.example.com/items/1 -d '{"a":1}'`,
			`curl -s -X POST https://rpc.sepolia.org -d '{"jsonrpc":"2.0","method":"eth_sendRawTransaction","params":["0x"],"id":1}'`,
			`curl -s -X POST https://rpc.example.net -d '{"jsonrpc":"2.0","method":"eth_getBalance","params":["0x1","latest"],"id":1}'`,
			`curl "https://meet.example.edu/bigbluebutton/api/getMeetings?checksum=$SUM"`, `curl -X PUT --help`})
}
