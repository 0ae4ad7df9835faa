package policy

import "strings"

// The physical world through an API (net14): a POST to a home or
// building automation platform that opens a lock, disarms an alarm,
// moves a garage door or replaces a device's firmware, or any service
// call of Home Assistant's REST API (/api/services/DOMAIN/SERVICE: the
// house's devices act). Such hosts live on the home network
// (homeassistant.local), where other API rules see a developer's own
// server; reads (GET /api/states) stay allowed. The path words are data
// (remoteops.txt api-actuate).
func net14HomeRule() Rule {
	return cmdRule("external.systems:home-actuate", Ask, "An HTTP call that acts on the physical world through a home or building automation API: a Home Assistant service call (POST /api/services/lock/unlock, /api/services/homeassistant/restart), a lock opened, an alarm disarmed, a garage door moved or firmware replaced; states and reads stay allowed; the words are data (policy/remoteops.txt api-actuate)", apiClients,
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) {
				return ""
			}
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
		},
		[]string{`curl -X POST -H "Authorization: Bearer $HASS_TOKEN" -d '{"entity_id":"lock.back_door"}' http://homeassistant.local:8123/api/services/lock/unlock`,
			`curl -X POST -H "Authorization: Bearer $T" http://hass.lan:8123/api/services/homeassistant/restart`,
			`http POST http://alarm.lan/api/v1/partitions/1/disarm code=1234`, `curl -s "http://pihole.lan/admin/api.php?disable=300&auth=$PIHOLE_TOKEN"`,
			`curl "http://cam1.lan/cgi-bin/admin.cgi?reboot=1"`},
		[]string{`curl -s -H "Authorization: Bearer $HASS_TOKEN" http://homeassistant.local:8123/api/states/lock.back_door`,
			`curl -X POST http://homeassistant.local:8123/api/template -d '{"template":"{{ states(\"sun.sun\") }}"}'`,
			`curl -s "http://pihole.lan/admin/api.php?summary&auth=$PIHOLE_TOKEN"`, `curl "https://api.example.com/v1/items?status=disabled"`})
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

// net14LoginItemRule: what starts at every login of the user's Mac
// changed through osascript; listing the login items reads.
func net14LoginItemRule() Rule {
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
