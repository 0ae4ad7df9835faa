package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
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

// TestPolicyZonesScope: a project's config may tighten the table
// (policy.zones_raise) but not loosen it; only the user's policy.zones
// sets cells either way.
func TestPolicyZonesScope(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	wh := filepath.Join(home, ".warden")
	t.Setenv("HOME", home)
	t.Setenv("WARDEN_HOME", wh)
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(project, ".warden", "config.toml"), "[policy]\nzones = [\"recursive-delete:home-data=allow\"]\nzones_raise = [\"write:project=ask\", \"delete:temp=deny\", \"recursive-delete:system=allow\"]\n")
	write(filepath.Join(wh, "config.toml"), "[policy]\nzones = [\"recursive-delete:home-data=ask\"]\n")
	out, stderr, code := runCLI(t, "policy", "zones", "--json")
	var got struct {
		Verdicts map[string]map[string]string `json:"verdicts"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 {
		t.Fatalf("code %d, %v: %s%s", code, err, out, stderr)
	}
	for cell, want := range map[[2]string]string{{"recursive-delete", "home-data"}: "ask", {"write", "project"}: "ask",
		{"delete", "temp"}: "deny", {"recursive-delete", "system"}: "deny"} {
		if v := got.Verdicts[cell[0]][cell[1]]; v != want {
			t.Errorf("%s · %s = %s, want %s", cell[0], cell[1], v, want)
		}
	}
}
