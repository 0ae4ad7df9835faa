package policy

import (
	"maps"
	"slices"
	"testing"
)

// A rule gated by URL shape (urlgates.go) must never fire on a line
// whose commands of its programs lack the shape it needs: every rule
// case and the corpora's lines are run through each gated rule directly,
// and where it fires the gate must hold.
func TestURLGatesAreSound(t *testing.T) {
	checkProgGatesSound(t, "urlgates.go", func(r *prepared) bool { return r.url != 0 }, slices.Collect(maps.Keys(builtinURLGates())),
		(*Env).urlGateOpen, "no command of its programs there has the URL shape its gate needs: fix urlShape or its entry in urlgates.go")
}

// A plain fetch of a public URL has none of the shapes; the metadata
// service, a hook, a manager's action, a named function or a device on
// the local network has its own, and a call that is no plain fetch may
// reach a device.
func TestURLShape(t *testing.T) {
	for in, want := range map[string]urlGroup{
		"curl -fsSL https://x.io/i": 0, "wget -qO- https://get.example.com/install.sh": 0, "curl -s https://api.example.com/v1/users/42": 0,
		"curl http://169.254.169.254/latest/meta-data/": urlMeta | urlLAN, "curl -s http://metadata.google.internal/x": urlMeta,
		"curl -X POST https://api.netlify.com/build_hooks/abc": urlHook | urlLAN, "curl -s https://tc.example.com/manager/text/reload": urlManager,
		"curl https://panel.example/json-api/removeacct": urlFunction, "curl http://relay.local/press": urlLAN,
		"curl -H 'X: y' https://x.io/i": urlLAN, "http https://x.io/i": urlLAN,
	} {
		c, _ := CaseCall(in, TestHome, TestProject)
		f := Normalize(c)
		if got := (&Env{F: f}).urlShape(0); got != want {
			t.Errorf("urlShape(%q) = %05b, want %05b", in, got, want)
		}
	}
}
