package callfacts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// d17dev: a question written to a device on a serial port. Instruments,
// modems and controllers answer a line ending in ? (SCPI's *IDN?, an AT
// modem's AT+CSQ?, a service console's STATUS?) and grbl's $$, $#, $G,
// $I print the controller's settings or state: such a line reads the
// device, as cat /dev/ttyUSB0 does. Any other line sent there is a
// command the device acts on and stays a write of a system path.

// serialPort: p is a serial device of this machine (USB or on-board UART,
// by name or by id).
func serialPort(p string) bool {
	for _, pre := range []string{"/dev/ttyUSB", "/dev/ttyACM", "/dev/ttyS", "/dev/ttyAMA", "/dev/ttyTHS", "/dev/cu.", "/dev/tty.usb", "/dev/serial/"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

// serialQuery: the statement s writes to the serial port t only lines
// that ask (every line ends in ?, or is one of grbl's report commands).
func (n *normalizer) serialQuery(t string, s *syntax.Stmt, stdin *text) bool {
	if !serialPort(t) {
		return false
	}
	in := text{}
	if stdin != nil {
		in = *stdin
	}
	bare := *s
	bare.Redirs = nil
	out := n.stmtOutput(&bare, in)
	if !out.known {
		return false
	}
	lines := 0
	for _, l := range strings.Split(strings.NewReplacer(`\r`, "\n", `\n`, "\n", "\r", "\n").Replace(out.s), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		lines++
		switch {
		case strings.HasSuffix(l, "?"), l == "$$", l == "$#", l == "$G", l == "$I", l == "$N":
		default:
			return false
		}
	}
	return lines > 0
}

// serialAsked: the redirect r writes only a question to a serial port
// (the normalizer recorded its path as a read). The k-th redirect to a
// port is the k-th path the normalizer recorded for it by that operator.
func (f *Facts) serialAsked(r *Redirect) bool {
	if !serialPort(r.Target) {
		return false
	}
	k := 0
	for i := range f.Redirects {
		if &f.Redirects[i] == r {
			break
		}
		if f.Redirects[i].Target == r.Target && f.Redirects[i].Op == r.Op {
			k++
		}
	}
	for _, p := range f.Paths {
		if p.Path == r.Target && p.Via == r.Op && (p.Op == OpRead || p.Op == OpWrite) {
			if k == 0 {
				return p.Op == OpRead
			}
			k--
		}
	}
	return false
}
