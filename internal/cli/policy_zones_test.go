package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPolicyZones: the table prints as a grid and as JSON, and explain
// names the cell that judged each effect.
func TestPolicyZones(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	out, stderr, code := runCLI(t, "policy", "zones")
	if code != 0 || !strings.Contains(out, "recursive-delete") || !strings.Contains(out, "home-data") {
		t.Fatalf("code %d: %s%s", code, out, stderr)
	}
	out, _, _ = runCLI(t, "policy", "zones", "--json")
	var got struct {
		Verdicts map[string]map[string]string `json:"verdicts"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if got.Verdicts["recursive-delete"]["home-data"] != "deny" || got.Verdicts["delete"]["temp"] != "allow" {
		t.Errorf("verdicts: %v", got.Verdicts)
	}
	out, _, _ = runCLI(t, "policy", "explain", "--", "rm -rf ~/Documents")
	if !strings.Contains(out, "recursive delete · home data → deny") {
		t.Errorf("explain does not name the cell:\n%s", out)
	}
}
