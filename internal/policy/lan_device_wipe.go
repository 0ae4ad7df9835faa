package policy

import "strings"

// A device on the local network (a camera, an NVR, a relay, a gateway)
// told through its own web API to go back to its factory state or to
// erase its storage: Hikvision's PUT /ISAPI/System/factoryReset, Axis'
// factorydefault.cgi, Shelly's /rpc/Shelly.FactoryReset, an NVR's PUT
// …/hdd/1/format. Its configuration, its network settings or its
// recordings are gone, and someone has to set it up again on site:
// denied, where lan-device-call only asks about an act. The words are
// data (policy/remoteops.txt device-wipe-any, device-wipe-change).

// deviceWipeSegment: the word of a URL's last path segment that wipes a
// device ("" for none), read with dashes, underscores, a script suffix
// and a dotted namespace (Shelly.FactoryReset) dropped; change says the
// request's method changes state.
func deviceWipeSegment(u string, change bool) string {
	p, _, _ := strings.Cut(urlPath(u), "?")
	p = strings.TrimRight(p, "/")
	seg := strings.ToLower(p[strings.LastIndexByte(p, '/')+1:])
	for _, s := range []string{".cgi", ".php", ".json", ".xml", ".htm", ".html", ".asp"} {
		seg = strings.TrimSuffix(seg, s)
	}
	seg = seg[strings.LastIndexByte(seg, '.')+1:]
	w := strings.NewReplacer("-", "", "_", "").Replace(seg)
	if opsList("device-wipe-any")[w] || change && opsList("device-wipe-change")[w] {
		return w
	}
	return ""
}

func lanDeviceWipeRule() Rule {
	return cmdRule("external.systems:lan-device-wipe", Deny, "A request to a device on the local network (a private address, a .local or .lan name) whose last path segment puts it back to factory defaults or erases its storage (…/System/factoryReset, factorydefault.cgi, Shelly.FactoryReset, a PUT to …/hdd/1/format): its configuration or recordings are gone; the words are data (policy/remoteops.txt device-wipe-any, device-wipe-change)", apiClients,
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || c.Name == "gh" || c.Name == "glab" {
				return ""
			}
			r := e.apiCall(c)
			if r.method == "HEAD" || r.method == "OPTIONS" || c.Has("-I", "--head") {
				return ""
			}
			change := r.method != "" && r.method != "GET" || r.body != ""
			for _, u := range r.urls {
				if !lanDeviceHost(u) {
					continue
				}
				if w := deviceWipeSegment(u, change); w != "" {
					return c.Name + " asks " + urlHost(u) + ", a device on the local network, to " + w + ": its settings or recordings are erased: " + c.String()
				}
			}
			return ""
		},
		[]string{`curl --digest -u "admin:$CAM_PASS" -X PUT "http://192.168.1.64/ISAPI/System/factoryReset?mode=full"`,
			`curl -u root:$AXIS_PASS "http://10.0.3.21/axis-cgi/factorydefault.cgi"`,
			`curl -X POST http://shelly-plug-07.local/rpc/Shelly.FactoryReset`,
			`curl --digest -u "admin:$NVR_PASS" -X PUT http://192.168.0.10/ISAPI/ContentMgmt/Storage/hdd/2/format`,
			`http POST http://cam-dock.lan/api/v1/storage/sd/erase`},
		[]string{`curl --digest -u "admin:$CAM_PASS" "http://192.168.1.64/ISAPI/System/deviceInfo"`,
			`curl -s http://192.168.0.10/ISAPI/ContentMgmt/Storage/hdd/2/format`,
			`curl -X POST https://api.example.com/v1/devices/7/factory_reset`,
			`curl -X POST http://localhost:8080/api/format -d @src.json`,
			`curl -I http://10.0.3.21/axis-cgi/factorydefault.cgi`})
}
