package policy

import (
	"net"
	"path"
	"strings"
)

// a credential used for its own service is not exfiltration.
// A token file of a tool's own config dir read inline into the auth
// header of a read (curl -H "Authorization: Bearer $(cat
// ~/.config/wikictl/token)" https://wiki.example.org/api/v1/…), a generic
// token in the query parameter APIs document for it (?access_token=$TOKEN,
// &api_key=$API_KEY), and code that prints an API's response rather than
// the key it authenticated with are each the key's everyday use.

// tokenFileReaders print a token file unchanged into a substitution.
var tokenFileReaders = map[string]bool{"cat": true, "head": true, "tail": true, "tr": true, "jq": true, "yq": true}

// credStoreDirs hold keys and cloud credentials whose files are never one
// service's API token: sent anywhere they leave.
var credStoreDirs = []string{".aws", ".ssh", ".gnupg", ".kube", ".docker", ".azure", ".password-store", ".mozilla", ".local/share/keyrings"}

// tokenFileName: a file named as one token (token, .vault-token,
// api_key, access_token.txt, pat), not a credentials store or key.
func tokenFileName(base string) bool {
	b := strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(base, ".txt"), ".token"))
	if strings.HasSuffix(base, ".token") {
		return true
	}
	return strings.Contains(b, "token") || strings.Contains(b, "apikey") || strings.Contains(b, "api_key") || strings.Contains(b, "api-key") || b == "pat" || b == "key"
}

// ownTokenFile: p under home is a token file of a tool's own config dir
// (~/.config/<tool>/token, ~/.<tool>/api_key), or a token file whose name
// or directory names host (~/.vault-token to vault.example.com).
func ownTokenFile(p, home, project, host string, apiPath bool) bool {
	if home == "" || !under(p, home) || project != "" && under(p, project) || !tokenFileName(path.Base(p)) {
		return false
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(p, home), "/")
	for _, d := range credStoreDirs {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return false
		}
	}
	segs := strings.Split(rel, "/")
	if len(segs) >= 2 && strings.HasPrefix(segs[0], ".") {
		// ~/.config/<tool>/token, ~/.<tool>/token: the tool's own login,
		// to a host naming the tool or to an API; a listed service's
		// token (~/.config/fly/token) only to its own domains
		tool := strings.TrimPrefix(segs[0], ".")
		if (tool == "config" || tool == "local" || tool == "cache") && len(segs) >= 3 {
			tool = segs[1]
			if tool == "share" && len(segs) >= 4 {
				tool = segs[2]
			}
		}
		tool = strings.ToLower(tool)
		for _, suf := range []string{"-cli", "cli", "ctl"} {
			tool = strings.TrimSuffix(tool, suf)
		}
		if _, listed := secretHosts()[tool]; listed {
			return belongsTo(tool, host)
		}
		return len(tool) >= 3 && strings.Contains(host, tool) || apiPath
	}
	if len(segs) >= 2 {
		return false
	}
	// ~/.vault-token, ~/.wikictl_token: the word before token names host
	w := strings.Trim(strings.ToLower(segs[0]), ".")
	for _, cut := range []string{"token", "apikey", "api_key", "api-key"} {
		w, _, _ = strings.Cut(w, cut)
	}
	w = strings.TrimSuffix(strings.TrimRight(w, "-_."), "ctl")
	return len(w) >= 3 && strings.Contains(host, w)
}

// tokenFileAuth: every command output sender c carries sits in an auth
// header or its -u login, the line's captured commands only print files,
// each a token file of a tool's own (ownTokenFile), and the request goes
// over https to a named host that is no capture service: the token
// authenticates to the service, the way gh auth token does to GitHub.
func tokenFileAuth(e *Env, c *Cmd) bool {
	if !contains(httpClients, c.Name) || captureHost(c) != "" {
		return false
	}
	parts := e.requestParts(c)
	host, inAuth, apiPath := "", false, false
	for _, p := range parts {
		switch p.kind {
		case "url":
			if host == "" {
				if !strings.HasPrefix(strings.ToLower(p.val), "https://") {
					return false
				}
				host = urlHost(p.val)
				l := strings.ToLower(p.val)
				rest := ""
				if i := strings.Index(l, host); i >= 0 {
					rest = l[i+len(host):]
				}
				if strings.HasPrefix(rest, ":") {
					rest = rest[strings.IndexByte(rest+"/", '/'):]
				}
				apiPath = strings.HasPrefix(host, "api.") || strings.HasPrefix(rest, "/api") || strings.Contains(rest, "/api/") || apiVersionPath(rest) || apiShapedPath(rest)
			}
			if strings.Contains(p.val, "$(") {
				return false
			}
		case "header":
			if strings.Contains(p.val, "$(") {
				if !authHeader(p.name) {
					return false
				}
				inAuth = true
			}
		case "auth":
			inAuth = inAuth || strings.Contains(p.val, "$(")
		case "data":
			if strings.Contains(p.val, "$(") || strings.HasPrefix(p.val, "@") {
				return false
			}
		}
	}
	if !inAuth || host == "" || strings.Contains(host, "$") || net.ParseIP(strings.Trim(host, "[]")) != nil {
		return false
	}
	readers := map[string]bool{}
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d.Captured {
			if !tokenFileReaders[d.Name] {
				return false
			}
			readers[d.Name] = true
		}
	}
	if len(readers) == 0 {
		return false
	}
	seen := false
	for _, p := range e.F.Paths {
		if !readers[p.Via] || p.Op == OpWrite || p.Op == OpDelete {
			continue
		}
		if !ownTokenFile(p.Path, e.F.Home, e.F.Project, host, apiPath) {
			return false
		}
		seen = true
	}
	return seen
}

// tokenFileFedToAuth: via reads a token file only to feed a sender's auth
// header (tokenFileAuth holds for every sender on the line).
func tokenFileFedToAuth(e *Env, via string) bool {
	if interpTokenFedToClient(e, via) {
		return true // Project(url, open('~/.redcap/token').read()): the code's client logs in with it (interp_token_use.go)
	}
	if !tokenFileReaders[via] {
		return false
	}
	fed := false
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name == via && !c.Captured {
			return false // printed, not only substituted
		}
		if contains(senders, c.Name) {
			if !tokenFileAuth(e, c) {
				return false
			}
			fed = true
		}
	}
	return fed
}

// authQueryParams are the query parameters APIs document for a key.
var authQueryParams = map[string]bool{"access_token": true, "accesstoken": true, "api_key": true, "apikey": true, "api-key": true, "key": true,
	"token": true, "auth_token": true, "authtoken": true, "api_token": true, "apitoken": true, "private_token": true, "appid": true, "app_id": true,
	"auth": true, "access_key": true, "accesskey": true, "client_token": true}

// queryAuthUse: secret is the value of a query parameter named as an
// API's key (?access_token=$TOKEN, &api_key=$API_KEY) in url, and the
// request is one tokenHeaderUse accepts (a read of an https API whose
// token names no other service).
//
// Only a name of generic words ($TOKEN, $ACCESS_TOKEN, $API_KEY): fp18
// keeps a named token in a query string denied.
func queryAuthUse(c *Cmd, secret, url string, parts []reqPart, hosts []string, plain map[string]bool) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(secret), func(r rune) bool { return r == '_' || r == '-' }) {
		if !genericWords[w] {
			return false // $PTERO_KEY in ?key=: a named token in a query string stays denied; only an ownerless one is the API's own
		}
	}
	_, q, ok := strings.Cut(url, "?")
	if !ok && strings.Contains(url, "==") && !strings.Contains(url, "://") {
		q, ok = strings.Replace(url, "==", "=", 1), true // httpie's access_token==$TOKEN
	}
	if !ok {
		return false
	}
	found := false
	for _, kv := range strings.Split(q, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if authQueryParams[strings.ToLower(k)] && (v == "$"+secret || v == "${"+secret+"}") {
			found = true
		} else if strings.Contains(v, "$"+secret) || strings.Contains(v, "${"+secret) {
			return false // the secret also rides in another parameter
		}
	}
	return found && tokenHeaderUse(c, secret, parts, hosts, plain)
}

// netCallPrinted: a printed expression that is an HTTP call's response
// (print(requests.get(…, headers={…os.environ['KEY']}).json())).
var netCallPrinted = re(`(?:requests|httpx|session|client|s|urllib\.request)\.(?:get|post|put|patch|delete|head|request|urlopen)\s*\(|\burlopen\s*\(|\bfetch\s*\(|Net::HTTP\.|\bopen\(\s*URI|\bURI\.open\(`)

// basicLoginPassword: a password variable (upper-cased name n) given as
// the request's own -u/--user login, the basic-auth form of an API's
// credential.
func basicLoginPassword(n, secret string, parts []reqPart) bool {
	if !strings.HasSuffix(n, "PASSWORD") && !strings.HasSuffix(n, "PASSWD") && !strings.HasSuffix(n, "_PASS") {
		return false
	}
	for _, p := range parts {
		if p.kind == "auth" && (strings.Contains(p.val, "$"+secret) || strings.Contains(p.val, "${"+secret)) {
			return true
		}
	}
	return false
}

// encodedForOwnService: command i prints secret s ("$TWILIO_TOKEN") into
// a pipe whose end a substitution captures (echo -n "$SID:$TOKEN" |
// base64 inside -H "Authorization: Basic $(…)"), and every HTTP request
// on the line goes to the service the variable belongs to: the login,
// encoded, goes home.
func encodedForOwnService(e *Env, i int, s string) bool {
	name, ok := strings.CutPrefix(s, "$")
	if !ok || name == "" || strings.ContainsAny(name, " ,") || !strings.Contains(strings.Join(e.F.Commands[i].Args, " "), "$") {
		return false
	}
	captured := false
	for j := i + 1; j < len(e.F.Commands) && len(e.F.Commands[j].Upstream) > 0; j++ {
		captured = captured || e.F.Commands[j].Captured
	}
	if !captured {
		return false
	}
	sent := false
	for _, c := range e.F.Cmds(httpClients...) {
		for _, p := range e.requestParts(c) {
			if p.kind != "url" || strings.Contains(p.val, "==") {
				continue
			}
			if h := urlHost(p.val); h == "" || !belongsTo(name, h) || captureHost(c) != "" {
				return false
			}
			sent = true
		}
	}
	return sent
}
