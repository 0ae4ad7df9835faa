package policy

import "strings"

// s27-devproto: a command sent as text to a device or a service, judged
// by what its words say. A lighting console's "Store Sequence 1 Cue 5",
// a media server's run "Halftime", a bridge's #SetAcquisitionEnabled 0,
// a video mixer's ?Function=Cut, a dish's {"dish_stow":{}}: each program
// speaks its own language, and no table of programs can list them all,
// but their verbs are plain words. The first word of the command, its
// sigil dropped (#, *, \, +, :, !) and split at its capitals and
// underscores, is read against two lists (remoteops.txt device-text-act,
// device-text-read): an act verb (set, store, run, cut, stow, reboot,
// key…) makes the device act; a query word (get, query, read, status,
// id, list, check, version) reads. The socket readers (socket-message,
// device-port-command), the LAN query-string reader (lan-device-call)
// and the gRPC reader (lan-device-rpc) all ask this one reading.

// deviceTextWords are the words of a command's first token: the sigil
// dropped, split at capitals, underscores and dashes, lower case
// (#SetAcquisitionEnabled → set acquisition enabled).
func deviceTextWords(tok string) []string {
	tok = strings.TrimLeft(tok, "#*\\+:!")
	if i := strings.IndexAny(tok, "(=;:"); i >= 0 { // play: speed: 100, SetValue=1
		tok = tok[:i]
	}
	if strings.ToUpper(tok) == tok {
		tok = strings.ToLower(tok) // STORE, DATA_QUERY: capitals say nothing
	}
	return actionWords(tok)
}

// deviceTextAct: the words of a command's first token say it acts (the
// act verb), "" when they read or say nothing. The first word decides
// when it is a verb; otherwise any act verb among the words does
// (AcquisitionSet), unless a query word is among them first.
func deviceTextAct(words []string) string {
	if len(words) == 0 {
		return ""
	}
	act, read := opsList("device-text-act"), opsList("device-text-read")
	if act[words[0]] {
		return words[0]
	}
	for _, w := range words {
		if read[w] {
			return ""
		}
		if act[w] {
			return w
		}
	}
	return ""
}

// deviceTextReads: the words of a command's first token say it only
// reads (DataQuery, ClockCheck, get_status, ID).
func deviceTextReads(words []string) bool {
	read, act := opsList("device-text-read"), opsList("device-text-act")
	for _, w := range words {
		if act[w] {
			return false
		}
	}
	for _, w := range words {
		if read[w] {
			return true
		}
	}
	return false
}

// deviceTextLineAct: a line of text written to a device's socket acts: its
// verb, "" when it is a query (ends in ?) or its first word is no act
// verb.
func deviceTextLineAct(l string) string {
	f := strings.Fields(l)
	if len(f) == 0 || strings.HasSuffix(f[len(f)-1], "?") {
		return ""
	}
	if c := f[0][0]; c == '{' || c == '[' || c == '<' {
		// a JSON-RPC or websocket request ({"method":"Player.Stop"},
		// {"op":6,"d":{"requestType":"StopStream"}}) or an XML-RPC
		// call (<methodName>supervisor.stopProcess</methodName>): its
		// method, the namespace dropped
		m := structuredMethod.FindStringSubmatch(l)
		if m == nil {
			return ""
		}
		return deviceTextAct(urlFunctionWords(m[1] + m[2] + m[3]))
	}
	if v := deviceTextAct(deviceTextWords(f[0])); v != "" {
		return v
	}
	return deviceTextNounVerb(f) // SHUTTER CLOSE, LAMP OFF: device_text_r2.go
}

var structuredMethod = re(`"(?:method|methodName|request-type|requestType|command|cmd|action|function)"\s*:\s*"([^"]+)"|<methodName>\s*([^<\s]+)|^\s*\[\s*2\s*,\s*"[^"]*"\s*,\s*"([^"]+)"`)

// deviceDaemonPort: c is a raw socket sender aimed at the port of a
// daemon that holds real hardware on this machine (hamlib's rigctld
// 4532): its localhost is not left alone (externalSkip).
func deviceDaemonPort(c *Cmd) bool {
	switch c.Name {
	case "nc", "ncat", "netcat", "socat", "telnet", "openssl", "websocat":
		return opsList("device-daemon-ports")[devicePortOf(c)]
	}
	return false
}

// deviceDaemonLine: the text fed to a hardware daemon's port holds a
// line that sets: a one-letter upper-case command (hamlib's T 1 keys the
// transmitter, F 14074000 tunes, P 180 45 turns the rotator) or a word
// that is no read (\set_ptt 1); a lower-case one-letter get (f, t), a
// query word (\get_freq, \dump_state) or a line ending in ? reads.
func deviceDaemonLine(text string) string {
	text = socketLineBreaks.Replace(text)
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasSuffix(f[len(f)-1], "?") {
			continue
		}
		tok := strings.TrimLeft(f[0], "\\+;|,")
		if len(tok) == 1 {
			if tok >= "A" && tok <= "Z" {
				return strings.TrimSpace(l)
			}
			continue
		}
		w := deviceTextWords(tok)
		if deviceTextReads(w) || len(w) > 0 && (w[0] == "dump" || w[0] == "q" || w[0] == "quit" || w[0] == "exit") {
			continue
		}
		return strings.TrimSpace(l)
	}
	return ""
}

// sClientTarget is the host and port openssl s_client connects to
// (-connect relay.plant.local:7443), "" when it is another openssl
// command: text piped into it goes to that service as into nc.
func sClientTarget(c *Cmd) (string, string) {
	if len(c.Pos) == 0 || c.Pos[0] != "s_client" {
		return "", ""
	}
	for i, a := range c.Args {
		v, ok := strings.CutPrefix(a, "-connect=")
		if a == "-connect" && i+1 < len(c.Args) {
			v, ok = c.Args[i+1], true
		}
		if ok {
			if j := strings.LastIndexByte(v, ':'); j > 0 {
				return strings.Trim(v[:j], "[]"), v[j+1:]
			}
			return v, "443"
		}
	}
	return "", ""
}

// deviceDataPort: a port that only takes log lines and metrics (syslog's
// 514, GELF's 12201, Graphite's 2003, StatsD's 8125, Fluentd's 24224):
// a line sent there is a record, whatever its first word (echo 'Start of
// nightly backup' | nc syslog 514).
func deviceDataPort(c *Cmd) bool {
	return opsList("socket-data-ports")[devicePortOf(c)]
}
