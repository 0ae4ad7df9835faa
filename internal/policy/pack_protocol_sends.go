package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// protocolSendRules: data sent into another system by its protocol rather than a
// file copy — a study or resource written to a clinical store over its
// REST API (DICOMweb STOW, FHIR), a message written into an interface
// engine's or a cache's raw port (HL7 over MLLP, a Redis SET), bytes an
// interpreter one-liner sends over a socket. The store and engine words
// and the protocol verbs that write are data (policy/remoteops.txt
// api-record-store, socket-write-verbs); what only reads (a QIDO or
// tools/find query, a C-ECHO, memcached stats, zookeeper ruok) stays
// allowed, and so does anything aimed at this machine.

// storeWriteClients are the programs whose requests the record-store rule
// reads: the URL clients and the interpreters whose one-liners call HTTP
// or open a socket.
var storeWriteClients = append(append([]string{}, apiClients...), "python", "python3", "python2", "node", "ruby", "perl", "deno", "bun")

// Socket sends in interpreter one-liners: the host a connection is opened
// to, when the code also sends on it.
var (
	pySocketSend   = re(`(?s)(?:create_connection|\.connect)\(\s*\(\s*['"]([\w.-]+)['"]\s*,\s*\d+\s*\).*\.send(?:all|to)?\(`)
	nodeSocketSend = re(`(?s)(?:net|tls|require\(\s*['"](?:node:)?(?:net|tls)['"]\s*\))\.(?:connect|createConnection)\(\s*(?:\d+\s*,\s*['"]([\w.-]+)['"]|\{[^}]*host\s*:\s*['"]([\w.-]+)['"]).*\.(?:write|end)\(`)
	rbSocketSend   = re(`(?s)(?:TCPSocket|Socket)\.(?:new|open|tcp)\(\s*['"]([\w.-]+)['"].*\b(?:write|puts|print|send)\b`)
	plSocketSend   = re(`(?s)PeerAddr\s*=>\s*['"]([\w.-]+)['"].*\b(?:print|send|syswrite)\b`)
)

// socketSendHost is the host an interpreter one-liner's code opens a
// socket to and writes on, "" for none.
func socketSendHost(payload string) string {
	if !strings.Contains(payload, "ocket") && !strings.Contains(payload, "net") && !strings.Contains(payload, "tls") && !strings.Contains(payload, "PeerAddr") {
		return ""
	}
	for _, r := range []*lazyRE{pySocketSend, nodeSocketSend, rbSocketSend, plSocketSend} {
		if m := r.FindStringSubmatch(payload); m != nil {
			for _, h := range m[1:] {
				if h != "" {
					return h
				}
			}
		}
	}
	return ""
}

// recordStoreURL: a word of u's host or path names a clinical record
// store or interface engine (fhir, dicomweb, orthanc, mirth…).
func recordStoreURL(u string) bool {
	words := opsList("api-record-store")
	for _, w := range wordsOf(urlHostPath(u)) {
		if words[w] {
			return true
		}
	}
	return false
}

// recordStoreWrite: c writes to a record store on another machine (a
// POST/PUT/PATCH whose URL names one, or an interpreter's socket send to
// another host): why, or "".
func recordStoreWrite(e *Env, c *Cmd) string {
	var calls []apiCall
	if callfacts.IsInterpreter(c.Name) {
		if c.Payload == "" {
			return ""
		}
		if h := socketSendHost(c.Payload); h != "" && !apiHostLocal([]string{"tcp://" + h}) {
			return c.Name + " code opens a socket to " + h + " and sends on it: raw bytes into a service on another machine: " + c.String()
		}
		calls = interpAPICalls(c)
	} else {
		if onlyHelp(c) || !mayMutate(c) || e.dryRun(c) {
			return ""
		}
		calls = []apiCall{e.apiCall(c)}
	}
	for _, r := range calls {
		if r.method != "POST" && r.method != "PUT" && r.method != "PATCH" || len(r.urls) == 0 || apiHostLocal(r.urls) || apiReads(r) || readPath(r) {
			continue
		}
		for _, u := range r.urls {
			if recordStoreURL(u) {
				return c.Name + " " + r.method + " to " + urlHost(u) + ", a record store or interface engine others use: it writes studies, resources or messages there: " + c.String()
			}
		}
	}
	return ""
}

// socketMessage: the text fed to a raw socket sender (nc, ncat, socat,
// telnet) writes: an HL7 message (MSH|…) or a line whose first word is a
// protocol verb that changes the service (SET, DEL, flush_all, MAIL,
// POST); or a file is fed. A query (stats, ruok, INFO, GET) reads.
func socketMessage(c *Cmd) string {
	if strings.HasPrefix(c.Stdin, "< ") && c.Stdin != "< /dev/null" {
		return "the file " + strings.TrimPrefix(c.Stdin, "< ")
	}
	text := c.Heredoc
	if text == "" {
		text = wscatMessage(c) // wscat -x '[2,"1","Reset",{…}]': device_text_r2.go
	}
	if text == "" {
		return ""
	}
	verbs := opsList("socket-write-verbs")
	text = socketLineBreaks.Replace(text)
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(strings.ToLower(l))
		if len(f) == 0 {
			continue
		}
		if strings.HasPrefix(f[0], "msh|") || strings.HasPrefix(f[0], "\x0bmsh|") || strings.HasPrefix(f[0], `\x0bmsh|`) || strings.HasPrefix(f[0], `\vmsh|`) {
			return "an HL7 message"
		}
		if strings.HasSuffix(f[len(f)-1], "?") {
			continue // a query the device answers (*IDN?, MEAS:VOLT?, %1POWR ?)
		}
		verb, _, _ := strings.Cut(f[0], "(") // movej([0,-1.57,…], a=1.2): URScript's call
		if verbs[strings.TrimPrefix(verb, "*")] || verbs[strings.TrimLeft(verb, "%0123456789")] {
			return "a " + f[0] + " command"
		}
		if scpiCommand(f[0]) {
			return "an instrument's " + f[0] + " command"
		}
		if v := deviceTextLineAct(l); v != "" && !deviceDataPort(c) {
			return "a \"" + v + "\" command (" + strings.TrimSpace(l) + ")" // Store Sequence 1 Cue 5, run "Halftime": device_text.go
		}
	}
	return ""
}

// socketMessageHost is the host a socket sender writes to, "" when it
// listens, scans or has none.
func socketMessageHost(c *Cmd) string {
	if c.Has("-l", "--listen", "-z", "-h", "--help") {
		return ""
	}
	if c.Name == "openssl" {
		h, _ := sClientTarget(c)
		return h
	}
	if c.Name == "wscat" {
		return wscatHost(c)
	}
	for _, a := range c.Pos {
		if c.Name == "websocat" {
			if strings.HasPrefix(a, "ws://") || strings.HasPrefix(a, "wss://") {
				return urlHost(a)
			}
			continue
		}
		if c.Name == "socat" {
			if i := strings.Index(strings.ToLower(a), "tcp:"); i >= 0 {
				h, _, _ := strings.Cut(a[i+4:], ":")
				return h
			}
			if i := strings.Index(strings.ToLower(a), "tcp4:"); i >= 0 {
				h, _, _ := strings.Cut(a[i+5:], ":")
				return h
			}
			continue
		}
		return a
	}
	return ""
}

// socketLineBreaks reads a message's escaped and real line breaks as one
// (built once: a Replacer made per call costs more than the rule).
var socketLineBreaks = strings.NewReplacer(`\r`, "\n", `\n`, "\n", "\r", "\n")

var socketMessageSenders = []string{"nc", "ncat", "netcat", "socat", "telnet", "openssl", "websocat", "wscat"}

func protocolSendRules() []Rule {
	return []Rule{
		cmdRule("external.systems:record-store-write", Ask, "A write into a clinical record store or interface engine on another machine by its API (POST/PUT/PATCH to DICOMweb STOW, FHIR resources, Orthanc, Mirth), or an interpreter one-liner's socket send to another host: studies, resources or messages land in a system others use; a query POST (tools/find, _search, echo) reads; the store words are data (policy/remoteops.txt api-record-store)", storeWriteClients,
			recordStoreWrite,
			[]string{`curl -X POST https://dicomweb.hosp.local/dicom-web/studies -H 'Content-Type: multipart/related; type="application/dicom"' --data-binary @study.multipart`,
				`curl -X PUT https://fhir.hosp.local/fhir/Observation/42 -H 'Content-Type: application/fhir+json' -d @obs.json`,
				`python3 -c "import socket; s=socket.create_connection(('mirth.hosp.local',6661)); s.sendall(open('msg.hl7','rb').read())"`,
				`python3 -c "import requests; requests.post('https://fhir.hosp.local/fhir/Observation', json={'status':'final'})"`},
			[]string{`curl -X POST http://localhost:8042/instances --data-binary @x.dcm`, `curl -s https://fhir.hosp.local/fhir/Patient?name=smith`,
				`curl -X POST https://fhir.hosp.local/fhir/Patient/_search -d name=smith`, `curl -X POST http://orthanc.radiology.internal:8042/tools/find -d '{"Level":"Study","Query":{}}'`,
				`python3 -c "import socket; s=socket.create_connection(('localhost',6661)); s.sendall(b'x')"`}),
		cmdRule("external.systems:socket-message", Ask, "A message written by hand into a raw port on another machine (printf 'MSH|…' | nc mirth.hosp.local 6661, echo 'SET k v' | nc cache 6379, nc host 2575 < msg.hl7, echo 'run \"Show\"' | nc media-server 3040, a JSON or XML-RPC request through nc, websocat or openssl s_client): an HL7 message into a live interface engine, or a command whose first word or method is an act verb (set, store, run, stop, cut, record, fire…) that changes the service or makes the device act; a query (stats, ruok, INFO, get, status, ID), a scan (-z), a listener and a log or metric sink stay allowed; the verbs are data (policy/remoteops.txt socket-write-verbs, device-text-act, device-text-read)", socketMessageSenders,
			func(e *Env, c *Cmd) string {
				h := socketMessageHost(c)
				if h == "" || isLocalEndpoint(h) {
					return ""
				}
				if what := socketMessage(c); what != "" {
					return c.Name + " writes " + what + " into " + h + ", a port of a service on another machine: " + c.String()
				}
				return ""
			},
			[]string{`printf 'MSH|^~\\&|RIS|H|PACS|H|20240601||ORM^O01|1|P|2.3\rPID|1||123\r' | nc mirth.hosp.local 6661`, `echo 'SET feature:x on' | nc cache.internal 6379`,
				"nc hl7.hosp.local 2575 < messages/adt_a08.hl7", `printf 'flush_all\r\n' | nc memcached.prod.internal 11211`},
			[]string{`printf 'stats\r\n' | nc cache.internal 11211`, "echo ruok | nc zk-1.internal 2181", "nc -zv mirth.hosp.local 6661", `printf 'MSH|^~\\&|x\r' | nc localhost 6661`,
				"nc example.com 80 < /dev/null", `printf 'GET / HTTP/1.0\r\n\r\n' | nc web.internal 80`}),
	}
}

// urlHostPath is u without its scheme, query and fragment: the host and
// the path, the words of which name what the request acts on.
func urlHostPath(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return u
}
