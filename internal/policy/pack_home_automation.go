package policy

import "strings"

// The physical world through an API: a POST to a home or
// building automation platform that opens a lock, disarms an alarm,
// moves a garage door or replaces a device's firmware, or any service
// call of Home Assistant's REST API (/api/services/DOMAIN/SERVICE: the
// house's devices act). Such hosts live on the home network
// (homeassistant.local), where other API rules see a developer's own
// server; reads (GET /api/states) stay allowed. The path words are data
// (remoteops.txt api-actuate). Read by external.systems:api-control-call
// (pack_control_api.go) beside a machine's control endpoint.

// homeActuateWhy says what in c's call makes a home or building
// appliance act, "" when nothing does: a URL whose query or script
// switches it on any method (api.php?disable=300, restart.cgi,
// ?turn=on), a Home Assistant service called, or a word of
// api-actuate in the path of a write.
func homeActuateWhy(e *Env, c *Cmd) string {
	why := actuatingQuery(c.Args)
	if why == "" {
		why = actuatingURL(c.Args) // restart.cgi, ?turn=on (pack_device_actuate.go)
	}
	if why != "" {
		return c.Name + " calls an appliance's API with " + why + ": it acts as a switch, whatever the method: " + c.String()
	}
	if !mayMutate(c) {
		return ""
	}
	r := e.apiCall(c) // (after mayMutate: reading the call allocates, and most calls are plain GETs)
	if r.method == "" || r.method == "GET" || r.method == "HEAD" || r.method == "OPTIONS" {
		return ""
	}
	words := opsList("api-actuate")
	for _, u := range r.urls {
		p := urlPath(u)
		if strings.Contains(strings.ToLower(p), "api/services/") {
			return c.Name + " " + r.method + " calls a home automation service (" + p + "): the house's devices act: " + c.String()
		}
		for _, w := range wordsOf(p) {
			if words[w] {
				return c.Name + " " + r.method + " with \"" + w + "\" in the URL acts on the physical world: " + c.String()
			}
		}
	}
	return ""
}

// actuatingQuery: a query key of a URL among args that makes an
// appliance's script act (api.php?disable=300, admin.cgi?reboot=1), ""
// for none.
func actuatingQuery(args []string) string {
	for _, u := range args {
		_, q, ok := strings.Cut(u, "?")
		if !ok || strings.HasPrefix(u, "-") {
			continue
		}
		keys := opsList("api-actuate-key")
		for q != "" {
			var kv string
			kv, q, _ = strings.Cut(q, "&")
			k, _, _ := strings.Cut(kv, "=")
			if keys[strings.ToLower(k)] {
				return "?" + kv
			}
		}
	}
	return ""
}

// loginItemEdit: AppleScript text that makes or deletes one of the Mac's
// login items through System Events ("delete login item \"Tailscale\"",
// "make login item at end with properties {path:…}").
var loginItemEdit = re(`(?i)\b(delete|make|remove|set)\b[^"']*\blogin items?\b`)

// loginItemRule: what starts at every login of the user's Mac
// changed through osascript; listing the login items reads.
func loginItemRule() Rule {
	return cmdRule("core.local:login-item", Ask, "A login item of the Mac made, changed or deleted through AppleScript (osascript -e 'tell application \"System Events\" to delete login item \"X\"'): what starts at every login changes; listing them reads", []string{"osascript"},
		func(e *Env, c *Cmd) string {
			for _, a := range c.Args {
				if loginItemEdit.MatchString(a) {
					return "osascript changes the Mac's login items: " + c.String()
				}
			}
			return ""
		},
		[]string{`osascript -e 'tell application "System Events" to delete login item "Dropbox"'`, `osascript -e 'tell application "System Events" to make login item at end with properties {path:"/Applications/X.app", hidden:false}'`,
			`osascript -e 'tell application "System Events" to delete every login item whose name is "Zoom"'`},
		[]string{`osascript -e 'tell application "System Events" to get the name of every login item'`, `osascript -e 'display notification "done"'`, `osascript -e 'tell application "System Events" to count login items'`})
}
