package policy

import (
	"net/netip"
	"net/url"
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A request that changes state sent to a device on the local network.
// Readers, cameras, lighting consoles, aquarium controllers, model
// railway command stations, signage players and door controllers are
// driven by their own small web APIs, reached by an mDNS name
// (impinj-r700.local), a .lan name or a private address, and usually with
// no credential on the line, so the rules about APIs with tokens never
// see them, and the rules with action words (api-control, home-actuate)
// only know the words of some vendors (a reader's /profiles/stop, an
// outlet's PUT /rest/status/outputs/3_1, JMRI's POST /json/power are
// none of them). One reading covers them all: a write (POST, PUT, PATCH,
// DELETE) to a LAN host, or a GET whose last path word is an action verb
// (/v1/trigger/next) or whose query carries a command (ptzcmd,
// cmd=#R01), makes the device act. Reads stay allowed: a plain GET of a
// status, a POST that searches or logs in (apiReads), an RPC whose method
// or operation reads ({"method":"tlm"}, {"tdc:GetDoorInfoList":{}}), a
// command that reads (cmnd=Status 0). So does this machine (localhost,
// .test, a compose service's one-word name) and the containers and
// emulators of the developer's own machine (172.17.0.0/16 of Docker's
// bridge, 10.0.2.2 of an emulator's host). The words are data
// (remoteops.txt lan-device-*).

// lanDeviceHost: a URL's host is another machine on the local network:
// a private or link-local address (not a Docker bridge container nor an
// emulator's host, both this machine's), a name in an organisation's
// zone under .local or .lan (sign-lobby-01.stores.local), or a one-label
// mDNS name (impinj-r700.local, jmri.local) unless that name is a
// developer's own box or app (myapp.local, web.local, a fresh Pi's
// raspberrypi.local: remoteops.txt lan-own-host).
func lanDeviceHost(u string) bool {
	h := urlHost(u)
	if h == "" || controllerHost(h) {
		return h != ""
	}
	if !lanHost(h) {
		return false
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return !netip.MustParsePrefix("172.17.0.0/16").Contains(a) && h != "10.0.2.2" && h != "10.0.2.15"
	}
	name := h
	for _, s := range []string{".home.arpa", ".local", ".lan", ".home"} {
		name = strings.TrimSuffix(name, s)
	}
	if strings.Contains(name, ".") {
		return true
	}
	own := opsList("lan-own-host")
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r >= '0' && r <= '9' }) {
		if own[w] {
			return false
		}
	}
	return true
}

// dataUpload: every part the request sends is a file of a document's
// type (-F file=@logs/run.log, -F data=@report.csv): a log or a table
// handed to an upload or import endpoint, no command, no setting, no
// job (fwupload.go asks about images sent to an update endpoint).
func dataUpload(c *Cmd) bool {
	files := uploadedFiles(c)
	if len(files) == 0 {
		return false
	}
	for i, a := range c.Args {
		if a == "-d" || strings.HasPrefix(a, "--data") || strings.HasPrefix(a, "--json") {
			return false
		}
		if (a == "-F" || a == "--form") && i+1 < len(c.Args) && !strings.Contains(c.Args[i+1], "=@") {
			return false // -F print=true: a field beside the file
		}
	}
	for _, f := range files {
		switch strings.ToLower(path.Ext(f)) {
		case ".log", ".csv", ".tsv", ".txt", ".json", ".xml", ".pdf", ".md", ".html", ".png", ".jpg", ".jpeg":
		default:
			return false
		}
	}
	return true
}

// lanReadWord: w (lower case) starts with a word that only reads
// (get, list, status, tlm…).
func lanReadWord(w string) bool {
	for r := range opsList("lan-device-read") {
		if strings.HasPrefix(w, r) {
			return true
		}
	}
	return false
}

// lanLastWord is the last word of a URL path's last segment with a
// script's extension dropped (restart.cgi → restart, emergency_stop →
// stop), and the segment before it when the last is a number
// (/recall/3 → recall).
func lanLastWords(path string) []string {
	segs := strings.FieldsFunc(strings.ToLower(path), func(r rune) bool { return r == '/' })
	var out []string
	for i := len(segs) - 1; i >= 0 && len(out) < 2; i-- {
		s := segs[i]
		for _, ext := range []string{".cgi", ".php", ".json", ".xml", ".html", ".htm", ".asp", ".lua"} {
			s = strings.TrimSuffix(s, ext)
		}
		w := wordsOf(s)
		if len(w) == 0 {
			continue
		}
		out = append(out, w[len(w)-1])
		if strings.Trim(s, "0123456789") != "" {
			break // the last segment is a word, not an index
		}
	}
	return out
}

// lanGetAction says why a GET of u makes the device act, "" when it
// reads.
func lanGetAction(u string) string {
	p, q, _ := strings.Cut(urlPath(u), "?")
	verbs := opsList("lan-device-verb")
	for _, w := range lanLastWords(p) {
		if verbs[w] {
			return "\"" + w + "\" in its path"
		}
	}
	keys := opsList("lan-device-cmdkey")
	for q != "" {
		var kv string
		kv, q, _ = strings.Cut(q, "&")
		if d, err := url.QueryUnescape(kv); err == nil {
			kv = d
		}
		k, v, _ := strings.Cut(kv, "=")
		if !keys[strings.ToLower(k)] {
			continue
		}
		first := strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '+' || r == ',' })
		if len(first) == 0 {
			return "the command ?" + kv
		}
		// the command's words (device_text.go): an act verb acts
		// (Function=SetVolume), a query word reads (command=DataQuery,
		// ClockCheck), a word that says nothing is the device's own
		// command (cmd=#R01) and acts
		w := deviceTextWords(first[0])
		if deviceTextAct(w) != "" || !lanReadWord(strings.ToLower(first[0])) && !deviceTextReads(w) {
			return "the command ?" + kv
		}
	}
	return ""
}

// rpcBodyReads: a body whose JSON-RPC method ({"method":"tlm"},
// {"method":"eth_getBalance"}) or SOAP-style operation
// ({"tdc:GetDoorInfoList":{}} of VAPIX) only reads: the POST is how
// such an API reads (apiReads asks it). A method that is an HTTP verb
// ({"method":"GET","url":…} of a batch) says nothing, and so does a
// capitalised key with no namespace ({"Status":"DELETED"} is a field).
func rpcBodyReads(body string) bool {
	if !strings.Contains(body, "ethod") && !strings.Contains(body, `{"`) {
		return false
	}
	for _, kv := range bodyPairs(body) {
		if kv[0] == "method" && kv[1] != "" {
			w := wordsOf(kv[1])
			return len(w) > 0 && !httpMethods[strings.ToUpper(kv[1])] && lanReadWord(w[len(w)-1])
		}
	}
	// a SOAP-style operation named as the body's first key, its
	// namespace prefix kept apart: {"tdc:GetDoorInfoList":{}}
	if m := soapOp.FindStringSubmatch(body); m != nil {
		return lanReadWord(strings.ToLower(m[1]))
	}
	return false
}

var soapOp = re(`^[&\s]*\{\s*"\w+:([A-Z]\w+)"\s*:`)

func lanDeviceCallRule() Rule {
	return cmdRule("external.systems:lan-device-call", Ask, "A request that changes state sent to a device on the local network (an mDNS .local or .lan name, a private address): a POST, PUT, PATCH or DELETE (a reader's profile stopped, an outlet switched, a sign's playlist changed, a command station's power set), or a GET whose last path word is an action (/v1/trigger/next, /press) or whose query carries a command (ptzcmd, cmd=#R01): the device acts; status reads, searches, logins, RPC reads and this machine's own servers stay allowed; the words are data (policy/remoteops.txt lan-device-*)", apiClients,
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || c.Name == "gh" || c.Name == "glab" {
				return ""
			}
			lan := false
			for _, a := range c.Args {
				if strings.Contains(a, "://") || strings.Contains(a, ".local") || strings.Contains(a, ".lan") || strings.HasPrefix(a, "10.") || strings.HasPrefix(a, "192.168.") || strings.HasPrefix(a, "172.") {
					lan = true
					break
				}
			}
			if !lan {
				return ""
			}
			r := e.apiCall(c)
			var urls []string
			for _, u := range r.urls {
				if lanDeviceHost(u) {
					urls = append(urls, u)
				}
			}
			if len(urls) == 0 {
				return ""
			}
			switch r.method {
			case "", "GET":
				for _, u := range urls {
					if why := lanGetAction(u); why != "" {
						return c.Name + " GET of " + urlHost(u) + " with " + why + ": the device on the local network acts: " + c.String()
					}
				}
				return ""
			case "HEAD", "OPTIONS":
				return ""
			}
			if apiReads(r) || rpcRead(r) || r.method == "POST" && (sqlReads(c, r.body) || pipedSQLReads(e, c, r.body)) || dataUpload(c) || bodyFilesRead(c) {
				return "" // a search, a login, an RPC or SQL that reads, a log or a table uploaded
			}
			for _, u := range urls {
				if p, _, _ := strings.Cut(urlPath(u), "?"); r.method == "POST" && len(lanLastWords(p)) > 0 && lanReadWord(lanLastWords(p)[0]) && !opsList("lan-device-verb")[lanLastWords(p)[0]] {
					continue // POST …/Library/Refresh, …/status/query: it reads or rescans
				}
				return c.Name + " " + r.method + " to " + urlHost(u) + ", a device on the local network: it changes what the device does: " + c.String()
			}
			return ""
		},
		[]string{`curl -X POST http://rfid-dock2.local/api/v1/profiles/stop`,
			`curl -X PUT -d '{"level":0}' http://10.8.0.31/api/zones/4`,
			`curl "http://cam-stage-left.lan/cgi-bin/ptzctrl.cgi?ptzcmd&poscall&2"`,
			`curl http://showctl.local:50001/v1/trigger/previous`,
			`http DELETE http://192.168.4.20/api/schedules/7`,
			`wget -qO- "http://projector-2.lan/cgi-bin/aw_cam?cmd=%23O0"`,
			`xh patch http://lights.home/api/scenes/3 brightness:=0`,
			`curl -s -d 'scene=intermission' http://stage-ctl:8090/api/scene/do`,
			`curl -s 'http://mixer-1.venue.local:8088/api/?Function=Fade&Duration=500'`},
		[]string{`curl -s http://rfid-dock2.local/api/v1/status`, `curl -X POST http://localhost:3000/api/users -d '{"name":"a"}'`,
			`curl -s "http://cam-stage-left.lan/cgi-bin/param.cgi?get_device_conf"`, `curl -s "http://10.1.1.9/cm?cmnd=Status%200"`,
			`curl -X POST http://192.168.1.30:8000/openc3-api/api -d '{"jsonrpc":"2.0","method":"get_tlm","params":[]}'`,
			`curl -X POST http://172.17.0.3:8080/api/items -d x=1`, `curl -X POST https://api.example.com/v1/items -d x=1`,
			`curl -X POST http://media.lan:8096/Library/Refresh`, `curl -s http://stage-ctl:8090/api/status`,
			`curl -s 'http://logger-4.field.local/?command=DataQuery&uri=dl:Public&mode=most-recent'`})
}

// interpScriptOperand is the script file an interpreter runs by path
// (python3 tools/uplink_fsw.py --commit), "" when it runs code given on
// the line or a module (-c, -e, -m). A script named for what it does to
// a device (run_flash.py, uplink_fsw.py) is read by its name, as a shell
// script is (deploy-script), when its text is not on disk to read.
func interpScriptOperand(c *Cmd) string {
	if c.Payload != "" || len(c.Pos) == 0 || !callfacts.IsInterpreter(c.Name) || c.Has("-c", "-e", "-m", "--eval") {
		return ""
	}
	p := c.Pos[0]
	if optionBefore(c.Args, p) || strings.ContainsAny(p, " \t;|&$") {
		return ""
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".py", ".rb", ".pl", ".js", ".mjs", ".ts", ".lua", ".tcl":
	default:
		return ""
	}
	if c.Has("--help", "-h") {
		return ""
	}
	// on another host (ssh bench-pi 'python3 /opt/t/run_flash.py'), whose
	// disk is not here to read, or here with an option that says do it for
	// real (--commit, --yes): a project's flash.py --image fw.bin alone is
	// the developer's own tool, read where it is on disk
	if callfacts.InRemoteShell(c) || c.Has("--commit", "--apply", "--execute", "--yes", "-y", "--force", "--no-dry-run", "--confirm", "--live") {
		return p
	}
	return ""
}
