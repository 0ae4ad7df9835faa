package policy

import "strings"

// Access opened or security switched off through an admin
// HTTP API's change (curl -X PATCH …/plugins/ID --data enabled=false) or
// an admin CLI's update (kcadm.sh update clients/ID -s publicClient=true
// -s 'redirectUris=["*"]'): the settings are data (policy/authoff.txt,
// kind api-open); a server on this machine stays allowed.

// apiOpenProgs: admin CLIs whose update arguments are read for api-open
// settings, with the verbs that change.
var apiOpenProgs = map[string]map[string]bool{
	"kcadm.sh": {"update": true, "create": true, "set": true},
	"kcadm":    {"update": true, "create": true, "set": true},
}

// apiOpenSetting: the first api-open setting in t, "" for none.
func apiOpenSetting(t string) string {
	for _, r := range authOffTables().apiOpen {
		if m := r.FindString(t); m != "" {
			return strings.TrimSpace(m)
		}
	}
	return ""
}

func apiAccessOpen(e *Env, c *Cmd) string {
	if onlyHelp(c) {
		return ""
	}
	if verbs, ok := apiOpenProgs[c.Name]; ok {
		if !verbs[sub(c)] {
			return ""
		}
		line := strings.Join(c.Args, " ")
		l := strings.ToLower(line)
		if strings.Contains(l, "--server http://localhost") || strings.Contains(l, "--server http://127.0.0.1") {
			return ""
		}
		if m := apiOpenSetting(line); m != "" {
			return c.Name + " " + sub(c) + " opens access (" + m + ")"
		}
		return ""
	}
	if !mayMutate(c) {
		return ""
	}
	r := e.apiCall(c)
	if len(r.urls) == 0 || apiHostLocal(r.urls) || r.method == "GET" || r.method == "HEAD" || r.method == "DELETE" {
		return ""
	}
	if r.method == "" && r.body == "" {
		return ""
	}
	for _, u := range r.urls {
		p, _, _ := strings.Cut(urlPath(u), "?")
		if m := apiOpenSetting(p + " " + strings.ReplaceAll(r.body, "&", " ")); m != "" {
			return c.Name + " switches security off or opens access at " + urlHost(u) + " (" + m + ")"
		}
	}
	return ""
}

func apiAccessOpenRules() []Rule {
	return []Rule{
		cmdRule("external.systems:api-access-open", Deny, "An admin API's change or an admin CLI's update that opens access or switches security off on a shared system: a gateway's plugin disabled (curl -X PATCH …/plugins/ID --data enabled=false), a public client or a wildcard redirect or origin (kcadm.sh update clients/ID -s publicClient=true -s 'redirectUris=[\"*\"]'), 0.0.0.0/0, allUsers or anonymous granted, visibility public, TLS verification, MFA or audit off; reads and a server on this machine stay allowed; the settings are data (policy/authoff.txt, kind api-open)", append([]string{"kcadm.sh", "kcadm"}, apiClients...),
			apiAccessOpen,
			[]string{`curl -X PATCH http://gw-admin.prod:8001/plugins/4f1c --data enabled=false`,
				`kcadm.sh update clients/8a2b -r prod -s publicClient=true -s 'redirectUris=["*"]'`,
				`curl -X PUT https://api.acme-corp.com/v1/projects/7/settings -H "Authorization: Bearer $T" -d '{"visibility":"public"}'`},
			[]string{`curl -s http://gw-admin.prod:8001/plugins/4f1c`, `kcadm.sh get clients/8a2b -r prod`,
				`curl -X PATCH http://localhost:8001/plugins/4f1c --data enabled=false`}),
	}
}
