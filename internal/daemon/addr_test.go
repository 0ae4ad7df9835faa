package daemon

import (
	"strings"
	"testing"
)

// Loopback by default; another address needs TLS or the typed-out
// --insecure-public; the error names the fix.
func TestCheckAddr(t *testing.T) {
	for _, c := range []struct {
		addr, cert, key string
		insecure        bool
		want            string // "" = accepted
	}{
		{"127.0.0.1:8765", "", "", false, ""},
		{"[::1]:8765", "", "", false, ""},
		{"localhost:0", "", "", false, ""},
		{"0.0.0.0:8765", "", "", false, "--insecure-public"},
		{"192.168.1.5:8765", "", "", false, "--tls-cert and --tls-key"},
		{"0.0.0.0:8765", "c.pem", "k.pem", false, ""},
		{"0.0.0.0:8765", "c.pem", "", false, "give both"},
		{"0.0.0.0:8765", "", "", true, ""},
		{"8765", "", "", false, "want HOST:PORT"},
		{"127.0.0.1", "", "", false, "want HOST:PORT"},
	} {
		err := CheckAddr(c.addr, c.cert, c.key, c.insecure)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.addr, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s (cert %q key %q insecure %v): %v, want an error with %q", c.addr, c.cert, c.key, c.insecure, err, c.want)
		}
	}
}
