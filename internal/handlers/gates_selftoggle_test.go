package handlers_test

import (
	"strings"
	"testing"
)

// TestSelfToggleGateDecodedNames: with the policy handler switched off,
// the self-toggle gate alone denies warden's user-only commands run
// through a name the line decodes, and lets the decoded look-alikes run.
func TestSelfToggleGateDecodedNames(t *testing.T) {
	s := newSim(t, "disabled_handlers = [\"policy\"]\n")
	for cmd, want := range map[string]string{
		"$(echo d2FyZGVu | base64 -d) off":         "deny",
		`$(printf '\x77arden') safemode off`:       "deny",
		"echo d2FyZGVuIG9mZg== | base64 -d | bash": "deny",
		"$(base64 -d < name.b64) breaker reset":    "deny",
		"$(echo Z28= | base64 -d) version":         "",
		"echo d2FyZGVu | base64 -d":                "",
	} {
		r := s.pre("Bash", bash(cmd))
		s.wantDecision(r, want, cmd)
		if want == "deny" && !strings.Contains(r.text(), "for the user only") {
			t.Errorf("%q: denied, but not by the self-toggle gate: %s", cmd, r.text())
		}
	}
}
