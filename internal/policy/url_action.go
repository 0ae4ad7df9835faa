package policy

import (
	"net/url"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A request whose URL names the action, so its method misleads. RPC-style
// APIs take every call as a GET (a registrar's
// xml.response?Command=namecheap.domains.dns.setCustom, a reseller's
// api/call?command=RenewDomain, a weather station's
// updateweatherstation.php?action=updateraw, a sensor cloud's
// json/SensorRemove/KEY), and a control surface on this machine is
// pressed by a POST no other HTTP rule reads as a change
// (localhost:8000/api/location/1/0/1/press inside its container). The
// function's name is read into a verb (remoteops.txt url-action-*): a
// verb that changes (set, renew, remove, restart, press…) makes the call
// a change on the service, whatever its method; a read (get, list,
// search, status) leaves it alone. A plain REST path (/users/42, /docs/
// start, /install) names no function and is left to the method: only a
// query key that carries a function, or a segment that is a function's
// name joined by camelCase or _, counts. This machine's own servers are
// routine (a web app's /api/users/1/deactivate under test), except for
// a device's act (press, reboot, unlock), which no web app under test
// serves.

// urlFunctionWords are the words of a function's name, its namespace
// dropped.
func urlFunctionWords(name string) []string {
	if i := strings.LastIndexAny(name, ".:/"); i >= 0 {
		name = name[i+1:] // namecheap.domains.dns.setCustom, accounts:update
	}
	return actionWords(name)
}

// urlChangeName: a function's name (setCustom, RenewDomain, SensorRemove,
// updateraw) starts, or ends, with a verb that changes state; the verb,
// "" for none. oneWord allows a one-word name matched by prefix
// (updateraw, removeacct), which a path segment does not (settings,
// updates, install).
func urlChangeName(name string, oneWord bool) string {
	w := urlFunctionWords(name)
	if len(w) == 0 || httpMethods[strings.ToUpper(name)] {
		return ""
	}
	first, last := opsList("url-action-change"), opsList("url-action-change-last")
	if rpcReadVerbs[w[0]] || len(w) > 1 && opsList("url-action-readtail")[w[len(w)-1]] {
		return "" // getStatus, listMarketBook, updateCheck: it reads
	}
	if len(w) > 1 && !oneWord {
		// a path segment: send-checklist, purge-guide are kebab-case
		// resources; change_request, update_history snake_case ones
		// unless the verb is no noun (delete_user, restart_service)
		if strings.Contains(name, "-") {
			return ""
		}
		if strings.Contains(name, "_") {
			if first[w[0]] && !opsList("url-action-noun")[w[0]] {
				return w[0]
			}
			return ""
		}
	}
	if len(w) > 1 {
		if first[w[0]] {
			return w[0]
		}
		if last[w[len(w)-1]] {
			return w[len(w)-1]
		}
		return ""
	}
	if first[w[0]] {
		if oneWord {
			return w[0]
		}
		return ""
	}
	if !oneWord {
		return ""
	}
	for _, v := range opsWords("url-action-change") {
		if rest, ok := strings.CutPrefix(w[0], v); ok && len(v) >= 5 && len(rest) >= 3 && !inflection[rest] {
			return v // updateraw, renewdomain, removeacct
		}
	}
	return ""
}

// inflection: endings that make a verb another word (deleted, updates,
// removers, resetting), not a verb joined to its object.
var inflection = map[string]bool{"ers": true, "ing": true, "ed": true, "able": true, "ment": true, "ments": true, "tion": true, "ions": true, "ion": true,
	"ive": true, "ance": true, "ted": true, "ting": true, "ped": true, "ping": true, "ged": true, "ging": true, "ful": true, "less": true}

// urlActionChange says which function that changes state u names, and
// where: an RPC query key's value or a joined path segment; "" for none.
func urlActionChange(u string) string {
	p, q, _ := strings.Cut(urlPath(u), "?")
	args := strings.Contains(q, "=")
	keys := opsList("url-action-key")
	for q != "" {
		var kv string
		kv, q, _ = strings.Cut(q, "&")
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !keys[strings.ToLower(k)] || v == "" || strings.HasPrefix(v, "$") {
			continue
		}
		if d, err := url.QueryUnescape(v); err == nil {
			v = d
		}
		if verb := urlChangeName(v, true); verb != "" {
			return k + "=" + v
		}
		// a command a device or a service carries out (Function=Cut,
		// command=StoreCue, action=run): device_text.go's act verbs,
		// less the words a page's navigation also uses (home, go)
		if verb := deviceTextAct(urlFunctionWords(v)); verb != "" && !opsList("url-action-nav")[verb] {
			return k + "=" + v
		}
	}
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
	for i := len(segs) - 1; i >= 0 && i >= len(segs)-2; i-- {
		s := segs[i]
		script := false
		for _, ext := range []string{".php", ".cgi", ".asp", ".aspx", ".jsp", ".pl", ".do", ".action"} {
			if t, ok := strings.CutSuffix(s, ext); ok {
				s, script = t, true
			}
		}
		if strings.ContainsAny(s, "$%{") {
			continue // a key in a variable (…/DeviceDelete/$KEY): look one back
		}
		if strings.Contains(s, ".") {
			break // a file (openapi.json)
		}
		if urlChangeName(s, script) != "" {
			return segs[i]
		}
		if i == len(segs)-1 && args && opsList("url-action-bare")[strings.ToLower(s)] {
			return segs[i] // Dyn's /nic/update?hostname=…: a verb called with its arguments
		}
		if strings.Trim(s, "0123456789") != "" && len(s) < 16 {
			break // a word: the segment before it is no function of this one
		}
		// a number or a key-like token (…/SensorRemove/KEY): look one back
	}
	return ""
}

// urlDeviceAct: u's last path word (or the one before a number) is a
// device's act (press, reboot, unlock).
func urlDeviceAct(u string) string {
	p, _, _ := strings.Cut(urlPath(u), "?")
	dev := opsList("url-action-device")
	for _, w := range lanLastWords(p) {
		if dev[w] {
			return w
		}
	}
	return ""
}

// urlNamesChange says why c's request changes state by what its URL
// names, "" when it does not (or when the method already says so and
// another rule reads it).
func urlNamesChange(e *Env, c *Cmd) string {
	if onlyHelp(c) || c.Name == "gh" || c.Name == "glab" || offline(c) {
		return ""
	}
	r := e.apiCall(c)
	if len(r.urls) == 0 {
		return ""
	}
	if r.method == "" {
		r.method = clusterMethod(c)
	}
	return urlChangeWhy(e, c, r)
}

func urlChangeWhy(e *Env, c *Cmd, r apiCall) string {
	for _, u := range r.urls {
		local := apiHostLocal([]string{u}) && !remoteLoopback(e, c)
		if local || lanDeviceHost(u) {
			// this machine's or the LAN's: a device's act only (the LAN's
			// other calls are lan-device-call's)
			if r.method == "HEAD" || r.method == "OPTIONS" {
				continue
			}
			if local && !callfacts.InRemoteShell(c) && !containerExec(c) {
				continue
			}
			if w := urlDeviceAct(u); w != "" {
				return c.Name + " " + methodName(r) + " " + urlHost(u) + " …/" + w + ": the URL names a device's act (" + w + "), which a web app under test does not serve: the device acts: " + c.String()
			}
			continue
		}
		switch r.method {
		case "", "GET":
		default:
			continue // POST, PUT…: the method already says change (http-change-remote, api-mutating-call)
		}
		// the function the URL names is read before the host and the
		// sandbox tests, which cost more: most URLs (curl -s
		// https://x.io/i) name none, and each test only clears the call
		if f := urlActionChange(u); f != "" && sharedHosts([]string{u}) && !sandboxCall(r, c) {
			return c.Name + " " + methodName(r) + " " + urlHost(u) + " calls " + f + ": the URL names a function that changes state, so the GET changes the service as a POST would: " + c.String()
		}
	}
	return ""
}

func methodName(r apiCall) string {
	if r.method == "" {
		return "GET"
	}
	return r.method
}

// interpGetCall: an interpreter one-liner's GET (requests.get, httpx.get,
// urlopen, fetch with no method) of a URL literal, the string it begins
// with when the code adds a key to it ('…/json/SensorRemove/' + key).
var interpGetCall = re(`(?i)\b(?:requests|httpx|session|s|client|urllib\.request|axios)\.(?:get|urlopen)\(\s*[fr]?['"](https?://[^'"]+)['"]|\b(?:urlopen|fetch)\(\s*[fr]?['"](https?://[^'"]+)['"]\s*\)`)

func interpURLNamesChange(e *Env, c *Cmd) string {
	if !strings.Contains(c.Payload, "http") {
		return ""
	}
	for _, m := range interpGetCall.FindAllStringSubmatch(c.Payload, 4) {
		u := m[1] + m[2]
		if why := urlChangeWhy(e, c, apiCall{method: "GET", urls: []string{u}}); why != "" {
			return c.Name + " code GETs " + u + ": " + why[strings.Index(why, ": ")+2:]
		}
	}
	return ""
}

func urlNamesChangeRule() Rule {
	names := append(append([]string{}, apiClients...), sdkRunners...)
	return cmdRuleIf("external.systems:url-names-change", Ask, "A request whose URL names an action that changes state, whatever its method: an RPC-style GET whose command, action or method parameter (Command=…setCustom, command=RenewDomain) or whose path's function name (SensorRemove, restart_service) starts or ends with a changing verb (set, renew, remove, restart…), and a device's act (press, reboot, unlock) on this machine's port inside a container or another host's shell; functions that read (get…, list…, status) and this machine's own web app are left alone", names,
		func(e *Env, c *Cmd) bool {
			if c.Payload != "" {
				return strings.Contains(c.Payload, "://")
			}
			for _, a := range c.Args {
				if strings.Contains(a, "://") || strings.Contains(a, "localhost") {
					return true
				}
			}
			return false
		},
		func(e *Env, c *Cmd) string {
			if callfacts.IsInterpreter(c.Name) {
				return interpURLNamesChange(e, c)
			}
			return urlNamesChange(e, c)
		},
		[]string{`curl -s "https://api.registrar.example/xml.response?ApiUser=ops&Command=domains.dns.setHosts&SLD=acme&TLD=com"`,
			`wget -qO- "https://api.reseller.example/api/call?s_login=ops&command=RenewDomain&domain=acme.io"`,
			`curl "https://panel.host.example/api/json-api/UserDelete?user=bob"`,
			`docker exec surface-ctl curl -s -X POST http://localhost:8000/api/location/1/0/1/press`,
			`python3 -c "import requests; requests.get('https://cloud.sensors.example/json/SensorRemove/' + key)"`},
		[]string{`curl -s "https://api.registrar.example/xml.response?ApiUser=ops&Command=domains.dns.getHosts&SLD=acme"`,
			`curl -s https://example.com/install`, `curl -X POST http://localhost:3000/api/users/1/deactivate`,
			`curl -s "https://en.wikipedia.org/w/api.php?action=query&titles=Go&format=json"`,
			`curl -s https://api.example.com/v1/settings`, `curl -s http://localhost:8000/api/location/1/0/1/press`})
}
