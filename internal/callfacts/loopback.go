package callfacts

import (
	"net/netip"
	"strings"
)

// LoopbackAddr reports whether h (an address; IPv6 brackets allowed) is
// a loopback IP: 127.0.0.0/8 or ::1. A name that begins like one
// (127.0.0.1.attacker.example) is not: anyone can register it. Only
// what starts like an address is parsed: a failed parse allocates its
// error, and every URL of every sending command comes through here.
func LoopbackAddr(h string) bool {
	h = strings.Trim(h, "[]")
	if h == "" || !(h[0] >= '0' && h[0] <= '9' || h[0] == ':') {
		return false
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}
