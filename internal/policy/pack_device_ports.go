package policy

import "strings"

// s21-late2: a line typed by hand into a device's console port. A raw
// port such as telnet's 23 on a switch, an AV matrix, a PDU or a PLC
// gateway, a serial device server's 4001/10001 (the console of whatever
// is wired behind it) or a printer's 9100 has no protocol verbs to read:
// whatever is typed there is the device's own command language (an
// Extron "1*3!" ties an input to an output, "reload" restarts a switch,
// a PJL job resets a printer). So any text fed to such a port on another
// machine asks, whatever its first word, while socket-message keeps
// reading verbs for ports whose protocol is known. A query (a line that
// ends in "?", a PJL INFO/INQUIRE/ECHO/USTATUS), a scan, a listener and
// this machine stay allowed, and so does a line whose first word shows
// (show, status, an Extron I or Q). The ports and the reading words are
// data (policy/remoteops.txt device-console-ports, device-console-reads).

// devicePortOf is the port a socket sender connects to ("" when none).
func devicePortOf(c *Cmd) string {
	if c.Name == "openssl" {
		_, p := sClientTarget(c)
		return p
	}
	if c.Name == "socat" {
		for _, a := range c.Pos {
			la := strings.ToLower(a)
			for _, p := range []string{"tcp:", "tcp4:", "tcp6:"} {
				if i := strings.Index(la, p); i >= 0 {
					_, port, _ := strings.Cut(a[i+len(p):], ":")
					port, _, _ = strings.Cut(port, ",")
					return port
				}
			}
		}
		return ""
	}
	if len(c.Pos) >= 2 && c.Name != "websocat" {
		return c.Pos[1]
	}
	return ""
}

// devicePortText: the fed text holds a line that is not a query: the
// line, or "".
func devicePortText(text string) string {
	text = socketLineBreaks.Replace(text)
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasSuffix(l, "?") {
			continue
		}
		f := strings.Fields(strings.ToUpper(l))
		if f[0] == "@PJL" && (len(f) == 1 || f[1] == "INFO" || f[1] == "INQUIRE" || f[1] == "DINQUIRE" || f[1] == "ECHO" || f[1] == "USTATUS" || f[1] == "ENTER") {
			continue
		}
		if strings.Trim(l, "\x1b%-12345X@") == "" { // a UEL prefix alone
			continue
		}
		if opsList("device-console-reads")[strings.ToLower(f[0])] || deviceTextReads(deviceTextWords(strings.Fields(l)[0])) {
			continue // show, status, an Extron I (information) or Q (firmware), ID, DataQuery
		}
		return l
	}
	return ""
}

func devicePortRule() Rule {
	return cmdRule("external.systems:device-port-command", Ask, "A command typed by hand into a device's console port on another machine (printf '1*3!' | nc av-matrix 23, echo reload | nc switch 23, a line into a serial device server's 4001/10001, a PJL job into a printer's 9100): the port has no protocol to read, whatever is typed is the device's own command language and it acts; or a line that sets sent to a daemon holding hardware on this machine (printf 'T 1' | nc localhost 4532 keys hamlib's radio); queries (a line ending in ?, PJL INFO, a first word that shows: show, status, ID, an Extron I, a lower-case get), scans, listeners and this machine's other ports stay allowed; the ports are data (policy/remoteops.txt device-console-ports, device-console-reads, device-daemon-ports)", socketMessageSenders,
		func(e *Env, c *Cmd) string {
			if c.Heredoc == "" {
				return ""
			}
			h := socketMessageHost(c)
			if h == "" {
				return ""
			}
			if deviceDaemonPort(c) {
				// a daemon holding hardware (rigctld's 4532), here or there
				if l := deviceDaemonLine(c.Heredoc); l != "" {
					return c.Name + " sends \"" + l + "\" to port " + devicePortOf(c) + " of " + h + ", a daemon that drives real hardware (a radio, a rotator, a transmitter): " + c.String()
				}
				return ""
			}
			if !opsList("device-console-ports")[devicePortOf(c)] || isLocalEndpoint(h) {
				return ""
			}
			if l := devicePortText(c.Heredoc); l != "" {
				return c.Name + " types \"" + l + "\" into port " + devicePortOf(c) + " of " + h + ", a device's console: " + c.String()
			}
			return ""
		},
		[]string{`printf '1*3!' | nc -q1 10.40.0.40 23`, `echo reload | nc core-sw1.lab 23`, `printf 'outlet 4 off\r\n' | nc pdu-r12.dc.internal 4001`, `printf 'F 7074000\n' | nc localhost 4532`},
		[]string{`printf 'show version?\r\n' | nc core-sw1.lab 23`, "nc -zv core-sw1.lab 23", `echo '@PJL INFO STATUS' | nc printer-2f.office 9100`, `printf 'I' | nc -q1 dxp-rack1.av.local 23`, `printf 'x\r\n' | nc localhost 23`, `printf 'f\n' | nc localhost 4532`, `printf 'ID\r\n' | nc relay-7.sub.local 23`})
}
