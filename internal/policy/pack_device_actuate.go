package policy

import (
	"net/url"
	"strings"
)

// d17dev: an appliance's web API that acts on a plain GET. Cameras,
// door stations, smart plugs and relays are switched by the URL itself:
// a CGI script named for what it does (axis-cgi/restart.cgi,
// factorydefault.cgi) or a query pair that sets an output (Tasmota's
// cm?cmnd=Power Off, Shelly's relay/0?turn=on, a switch's
// ctrl?action=off). Read by external.systems:api-control-call
// (homeActuateWhy) beside actuatingQuery; the words are data (remoteops.txt api-actuate-key,
// api-actuate-pair).

// actuatingURL: the script name or query pair of a URL among args that
// makes a GET act, "" for none.
func actuatingURL(args []string) string {
	for _, u := range args {
		if strings.HasPrefix(u, "-") || !strings.Contains(u, "/") {
			continue
		}
		p, q, _ := strings.Cut(urlPath(u), "?")
		seg := strings.ToLower(p[strings.LastIndexByte(p, '/')+1:])
		if base, ok := strings.CutSuffix(seg, ".cgi"); ok && opsList("api-actuate-key")[base] {
			return seg
		}
		if q == "" {
			continue
		}
		pairs := opsList("api-actuate-pair")
		for q != "" {
			var kv string
			kv, q, _ = strings.Cut(q, "&")
			if d, err := url.QueryUnescape(kv); err == nil {
				kv = d
			}
			k, v, ok := strings.Cut(strings.ToLower(kv), "=")
			if !ok {
				continue
			}
			// a pair names the key and the first word of its value
			// (cmnd=power matches cmnd=Power Off, cmnd=Power%20Off)
			if w := strings.Fields(v); len(w) > 0 && pairs[k+"="+w[0]] {
				return "?" + kv
			}
		}
	}
	return ""
}

// scpiCommand: the first word of a line sent to an instrument's raw port
// is a SCPI command that sets something: a colon-separated header
// (:SOUR1:VOLT, OUTP:STAT, SYST:REM), the question mark of a query
// already ruled out by the caller. A URL (http://…), a time (12:30) or a
// key:value pair of another protocol has no letters-only header.
func scpiCommand(w string) bool {
	w = strings.TrimPrefix(w, ":")
	parts := strings.Split(w, ":")
	if len(parts) < 2 || strings.Contains(w, "//") {
		return false
	}
	for _, p := range parts {
		p = strings.TrimRight(p, "0123456789")
		if len(p) < 3 || strings.Trim(p, "abcdefghijklmnopqrstuvwxyz") != "" {
			return false
		}
	}
	return true
}
