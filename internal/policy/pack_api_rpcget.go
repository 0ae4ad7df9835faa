package policy

import "strings"

// Admin APIs that take every call as a GET: a hosting panel's
// json-api (WHM's /json-api/removeacct, /json-api/set_tweaksetting,
// cPanel's /execute/Module/function), appliances' and routers' CGI
// endpoints. The method says nothing there; the function the path names
// does. A GET whose last path segment is a function named verb-first —
// a destroying verb (removeacct, delete_user, terminateInstance) or a
// changing one joined by _ or camelCase (set_tweaksetting,
// suspend_account, restartService) — acts on the server like a POST to
// it. Reads (listaccts, get_…) and REST paths (/users/42) stay allowed.

// rpcChangeVerbs lead a changing function's name; they must be joined to
// the rest by _ or camelCase (settings, updates are nouns).
var rpcChangeVerbs = map[string]bool{"set": true, "create": true, "add": true, "modify": true, "change": true, "update": true, "suspend": true,
	"unsuspend": true, "restart": true, "reboot": true, "install": true, "enable": true, "disable": true, "reset": true, "restore": true, "edit": true, "park": true, "unpark": true}

// rpcDestroyPrefixes lead a destroying function's name, joined or not
// (removeacct, killacct, delete_zone).
var rpcDestroyPrefixes = []string{"remove", "delete", "destroy", "kill", "terminate"}

// rpcDestroyHeads lead a destroying function's name only joined by _ or
// camelCase (drop_table, purgeCache; dropbox is a noun).
var rpcDestroyHeads = map[string]bool{"drop": true, "purge": true, "wipe": true, "erase": true, "truncate": true}

// rpcFunction is the level ("deny", "ask") and the function a GET's URL
// names, "" when it names none.
func rpcFunction(u string) (string, string) {
	p := urlPath(u)
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	seg := p[strings.LastIndexByte(p, '/')+1:]
	if seg == "" || strings.ContainsAny(seg, ".") {
		return "", ""
	}
	low := strings.ToLower(seg)
	for _, v := range rpcDestroyPrefixes {
		// removeacct, delete_zone; not deleted_items, removers, kills
		if rest, ok := strings.CutPrefix(low, v); ok && rest != "" && !strings.ContainsAny(rest[:1], "dsr") {
			return "deny", seg
		}
	}
	head := low
	if i := strings.IndexByte(low, '_'); i > 0 {
		head = low[:i]
	} else if i := strings.IndexFunc(seg, func(r rune) bool { return r >= 'A' && r <= 'Z' }); i > 0 {
		head = low[:i]
	} else {
		return "", ""
	}
	if rpcDestroyHeads[head] {
		return "deny", seg
	}
	if rpcChangeVerbs[head] && !rpcCompoundNoun(low, head) {
		return "ask", seg
	}
	return "", ""
}

func rpcGetJudge(want string) func(e *Env, c *Cmd) string {
	return func(e *Env, c *Cmd) string {
		if onlyHelp(c) {
			return ""
		}
		named := false
		for _, a := range c.Args {
			// cheap first: a word naming such a function at all (the
			// full reading of the call is for the few that do)
			if strings.Contains(a, "/") {
				if lvl, _ := rpcFunction(a); lvl == want {
					named = true
					break
				}
			}
		}
		if !named {
			return ""
		}
		r := e.apiCall(c)
		if r.method != "" && r.method != "GET" || len(r.urls) == 0 || apiHostLocal(r.urls) {
			return ""
		}
		for _, u := range r.urls {
			if lvl, fn := rpcFunction(u); lvl == want {
				return c.Name + " calls the function " + fn + " on a remote admin API: " + c.String()
			}
		}
		return ""
	}
}

func apiRPCRules() []Rule {
	return []Rule{
		cmdRule("external.systems:api-rpc-destroy", Deny, "A GET to an admin API whose path names a destroying function (WHM's /json-api/removeacct, /delete_zone, killacct): such APIs take every call as a GET; the account or site is gone", apiClients,
			rpcGetJudge("deny"),
			[]string{`curl -s -H "Authorization: whm root:$TOK" "https://whm.host.example:2087/json-api/removeacct?api.version=1&username=shop"`, `curl "https://panel.example/json-api/killacct?user=bob"`, `wget -qO- "https://router.example/cgi-bin/api/delete_rule?id=4"`},
			[]string{`curl -s "https://whm.host.example:2087/json-api/listaccts?api.version=1"`, `curl https://api.example.com/v1/removals/42`, `curl https://api.example.com/v1/deleted_items`, `curl https://api.example.com/dropbox`, `curl -X GET http://localhost:2087/json-api/removeacct?user=x`}),
		cmdRule("external.systems:api-rpc-change", Ask, "A GET to an admin API whose path names a changing function (WHM's /json-api/set_tweaksetting, suspend_account, restartService): the server's settings change though the method is GET", apiClients,
			rpcGetJudge("ask"),
			[]string{`curl -s -H "Authorization: whm root:$TOK" "https://whm.host.example:2087/json-api/set_tweaksetting?api.version=1&key=x&value=1"`, `curl "https://nas.example/api/restartService?name=smb"`, `curl "https://whm.host.example:2087/json-api/suspend_account?user=bob"`},
			[]string{`curl https://api.example.com/v1/settings`, `curl https://api.example.com/updates`, `curl "https://whm.host.example:2087/json-api/get_tweaksetting?key=x"`, `curl https://example.com/setup.sh -o setup.sh`}),
	}
}

// rpcRecordNouns follow change/update in the name of a kind of record
// (ServiceNow's /api/now/ui/meta/change_request, a change_log, an
// update_history): the segment names a table, no function.
var rpcRecordNouns = map[string]bool{"request": true, "requests": true, "log": true, "logs": true, "set": true, "sets": true, "history": true,
	"record": true, "records": true, "ticket": true, "tickets": true, "window": true, "windows": true, "task": true, "tasks": true}

// rpcCompoundNoun: low (lower-cased segment) is change_/update_ joined
// to a record noun (change_request, changeRequest, update_log).
func rpcCompoundNoun(low, head string) bool {
	if head != "change" && head != "update" {
		return false
	}
	rest := strings.TrimLeft(low[len(head):], "_")
	if i := strings.IndexByte(rest, '_'); i >= 0 {
		rest = rest[:i]
	}
	return rpcRecordNouns[rest]
}
