package policy

import "strings"

// a machine's control endpoint reached over HTTP. Printers'
// (Moonraker, OctoPrint), instruments', building controllers' and
// appliances' own web APIs take POSTs that move, heat, reboot or stop
// the machine, and they are usually reached with no credential on the
// line (a lab network trusts its hosts), so api-mutating-call never
// sees them. A write (POST, PUT, PATCH) to another host whose URL path
// names a machine-control action (reboot, restart, shutdown, an
// emergency stop, a G-code script, a setpoint, a print started or
// cancelled, a failover) or whose body's command/action field does (an
// OctoPrint job {"command":"cancel"}) asks. Reads stay allowed (a GET of
// /printer/objects/query, a POST to a search); so does this machine's
// own server (localhost, a compose service's one-word name). An mDNS
// name (voron-03.local) is another machine here: the device on the
// bench, not the developer's own. The words are data
// (policy/remoteops.txt api-control, api-control-phrase,
// api-control-command).

// controlAPIWhy says which word of the call's path or body names a
// machine-control action, "" when none does.
func controlAPIWhy(r apiCall) string {
	words := opsList("api-control")
	phrases := opsList("api-control-phrase")
	for _, u := range r.urls {
		if controlHostLocal(u) {
			continue
		}
		p := strings.ToLower(urlPath(u))
		for _, w := range wordsOf(p) {
			if words[w] {
				return "\"" + w + "\" in the URL"
			}
		}
		path, _, _ := strings.Cut(p, "?")
		for ph := range phrases {
			if strings.Contains(path, "/"+ph) { // a whole segment: not blueprint/start
				return "\"" + ph + "\" in the URL"
			}
		}
		if controlBodyCommand(r.body) != "" {
			return "the command " + controlBodyCommand(r.body)
		}
	}
	return ""
}

// controlBodyCommand: a body field named command, cmd or action whose
// value is a control word (start, cancel, pause, restart…).
func controlBodyCommand(body string) string {
	if body == "" {
		return ""
	}
	vals := opsList("api-control-command")
	for _, kv := range bodyPairs(body) {
		if (kv[0] == "command" || kv[0] == "cmd" || kv[0] == "action") && vals[kv[1]] {
			return kv[0] + "=" + kv[1]
		}
	}
	return ""
}

// controlHostLocal: the URL reaches this machine (loopback, a
// compose service's one-word name, a variable left unread is not).
func controlHostLocal(u string) bool {
	h := strings.ToLower(urlHost(u))
	if h == "" || strings.HasPrefix(h, "-") {
		return true
	}
	if strings.HasPrefix(h, "$") || strings.HasPrefix(h, "{") {
		return false
	}
	return isLocalEndpoint(u) || !strings.Contains(h, ".") && !strings.Contains(h, ":") && !strings.Contains(h, "$")
}

// controlAPIRule: one rule for an HTTP call that makes another machine
// act: an appliance switched by its URL or a home automation service
// called (homeActuateWhy; it was external.systems:home-actuate) or a
// write to a machine's control endpoint (controlAPIWhy). The two were
// twin rules of the same programs, mode and verdict (ask); one rule
// reads both, each with the exemptions it had: the appliance's URL
// acts on any method and host (a home device is on the home network,
// where a developer's own server would be), the control endpoint only
// on a write to another machine.
func controlAPIRule() Rule {
	return cmdRule("external.systems:api-control-call", Ask, "An HTTP call that makes a machine act: a write to another machine's control endpoint (a printer's /printer/emergency_stop, /machine/reboot, a G-code script, a print started or cancelled, an instrument's or incubator's setpoint, a service's restart or failover, an OctoPrint job {\"command\":\"cancel\"}), even with no credential on the line; a home or building automation API (a Home Assistant service call such as POST /api/services/lock/unlock, a lock opened, an alarm disarmed, a garage door moved, firmware replaced); an appliance switched by its URL whatever the method (api.php?disable=300, restart.cgi, relay/0?turn=on): the machine moves, heats, stops, opens or reboots; reads, searches and this machine's own servers stay allowed; the words are data (policy/remoteops.txt api-control*, api-actuate*)", apiClients,
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) {
				return ""
			}
			if why := homeActuateWhy(e, c); why != "" {
				return why
			}
			if !mayMutate(c) {
				return ""
			}
			r := e.apiCall(c)
			if r.method != "POST" && r.method != "PUT" && r.method != "PATCH" || len(r.urls) == 0 || apiReads(r) || sandboxCall(r, c) {
				return ""
			}
			if why := controlAPIWhy(r); why != "" {
				return c.Name + " " + r.method + " to a machine's control endpoint with " + why + ": the machine or service acts on it: " + c.String()
			}
			return ""
		},
		[]string{`curl -X POST http://ender5.local/printer/firmware_restart`,
			`curl -s -X POST "http://prusa-xl.lab.example:7125/printer/print/pause"`,
			`xh post http://spectro-2.lab.example/api/v1/lamp/shutdown`,
			`curl -X PUT https://bioreactor-4.plant.example/api/setpoint -d '{"ph":6.8}'`,
			`http POST http://10.40.2.17/api/gcode cmd=G28`,
			`curl -H "X-Api-Key: $K" -X POST http://octopi-2.lan/api/printer/command -d '{"command":"pause"}'`,
			`curl -X POST -H "Authorization: Bearer $HASS_TOKEN" -d '{"entity_id":"lock.back_door"}' http://homeassistant.local:8123/api/services/lock/unlock`,
			`curl -X POST -H "Authorization: Bearer $T" http://hass.lan:8123/api/services/homeassistant/restart`,
			`http POST http://alarm.lan/api/v1/partitions/1/disarm code=1234`, `curl -s "http://pihole.lan/admin/api.php?disable=300&auth=$PIHOLE_TOKEN"`,
			`curl "http://cam1.lan/cgi-bin/admin.cgi?reboot=1"`},
		[]string{`curl -s http://ender5.local/printer/objects/query?extruder`, `curl -X POST http://localhost:7125/machine/services/restart?service=klipper`,
			`curl -s "http://prusa-xl.lab.example:7125/printer/info"`, `curl -X POST http://api:8000/v1/restart`,
			`curl -X POST https://search.example.com/api/search -d q=reboot`, `curl -X POST https://api.example.com/v1/items -d '{"name":"gcode"}'`,
			`curl -s -H "Authorization: Bearer $HASS_TOKEN" http://homeassistant.local:8123/api/states/lock.back_door`,
			`curl -X POST http://homeassistant.local:8123/api/template -d '{"template":"{{ states(\"sun.sun\") }}"}'`,
			`curl -s "http://pihole.lan/admin/api.php?summary&auth=$PIHOLE_TOKEN"`, `curl "https://api.example.com/v1/items?status=disabled"`})
}
