package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// A write Claude Code makes to ~/.claude.json while warden edits it is
// kept: the edit starts over from the new content instead of writing over
// it.
func TestTrustKeepsAWriteMadeMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	if err := os.WriteFile(path, []byte(`{"numStartups": 1, "projects": {}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	calls := 0
	err := editProjects(path, func(p map[string]json.RawMessage) error {
		calls++
		if calls == 1 {
			// Claude Code saves between warden's read and its write
			if err := os.WriteFile(path, []byte(`{"numStartups": 2, "oauthAccount": {"x": 1}, "projects": {}}`+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		p["/w/task"] = json.RawMessage(`{"hasTrustDialogAccepted":true}`)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if string(got["numStartups"]) != "2" || got["oauthAccount"] == nil {
		t.Errorf("Claude Code's write was lost: %s", b)
	}
	var projects map[string]json.RawMessage
	_ = json.Unmarshal(got["projects"], &projects)
	if projects["/w/task"] == nil || calls != 2 {
		t.Errorf("trust entry missing or not redone (calls %d): %s", calls, b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}

// Without a write meanwhile the edit is done once and other keys stay.
func TestTrustEditsOnceAndKeepsKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	if err := os.WriteFile(path, []byte(`{"theme": "dark"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Trust(path, "/w/a"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b, &got); err != nil || string(got["theme"]) != `"dark"` {
		t.Fatalf("%s %v", b, err)
	}
	if err := Untrust(path, "/w/a"); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	if json.Unmarshal(b, &got) != nil || string(got["projects"]) != "{}" {
		t.Errorf("after untrust: %s", b)
	}
}
