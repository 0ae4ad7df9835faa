package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const otherServers = `{
    "mcpServers": {
        "context7": {"command": "npx", "args": ["-y", "@upstash/context7-mcp"]}
    },
    "note": "kept"
}
`

// .mcp.json is merged: the other server and key stay byte for byte, the
// old file is backed up, warden's entry is added; a second run changes
// nothing.
func TestInitMCPMergesMCPJSON(t *testing.T) {
	t.Setenv("WARDEN_HOME", "")
	dir := t.TempDir()
	p := filepath.Join(dir, ".mcp.json")
	os.WriteFile(p, []byte(otherServers), 0o640)
	now := time.Date(2026, 11, 26, 1, 2, 3, 0, time.Local)
	res, err := InitMCP(dir, "/opt/warden/bin/warden", false, now)
	if err != nil {
		t.Fatal(err)
	}
	if res.Server != "added" || res.Backup != p+".warden-backup-20261126-010203" {
		t.Errorf("result %+v", res)
	}
	if b, _ := os.ReadFile(res.Backup); string(b) != otherServers {
		t.Errorf("backup %q", b)
	}
	b, _ := os.ReadFile(p)
	if !strings.Contains(string(b), `"context7": {"command": "npx", "args": ["-y", "@upstash/context7-mcp"]}`) || !strings.Contains(string(b), `"note": "kept"`) {
		t.Errorf("other content not kept byte for byte:\n%s", b)
	}
	var doc struct {
		MCPServers map[string]struct {
			Type    string   `json:"type"`
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if w := doc.MCPServers["warden"]; w.Command != "/opt/warden/bin/warden" || strings.Join(w.Args, " ") != "mcp" || w.Type != "stdio" || len(doc.MCPServers) != 2 {
		t.Errorf("servers %+v", doc.MCPServers)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's 0640 kept", fi.Mode().Perm())
	}
	for _, c := range []string{"check", "confirm", "commit", "push"} {
		cb, err := os.ReadFile(filepath.Join(dir, ".claude", "commands", c+".md"))
		if err != nil || !strings.Contains(string(cb), "mcp__warden__"+c) {
			t.Errorf("/%s command: %v %q", c, err, cb)
		}
	}
	if len(res.Written) != 4 {
		t.Errorf("written %v", res.Written)
	}

	// Again: nothing changes, no backup.
	res, err = InitMCP(dir, "/opt/warden/bin/warden", false, now.Add(time.Second))
	if err != nil || res.Server != "unchanged" || res.Backup != "" || len(res.Unchanged) != 4 {
		t.Errorf("second run %+v %v", res, err)
	}
	if b2, _ := os.ReadFile(p); string(b2) != string(b) {
		t.Errorf("second run rewrote the file")
	}
	// A moved binary updates the entry; a command the user edited is kept.
	os.WriteFile(filepath.Join(dir, ".claude", "commands", "push.md"), []byte("mine\n"), 0o644)
	res, err = InitMCP(dir, "/usr/local/bin/warden", false, now.Add(2*time.Second))
	if err != nil || res.Server != "updated" || strings.Join(res.Skipped, ",") != ".claude/commands/push.md" {
		t.Errorf("third run %+v %v", res, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".claude", "commands", "push.md")); string(b) != "mine\n" {
		t.Errorf("the user's push.md was overwritten")
	}
}

// A fresh project gets a new .mcp.json; a broken one is refused with its
// position and left as it was; mcpServers of the wrong shape is named.
func TestInitMCPNewAndRefused(t *testing.T) {
	dir := t.TempDir()
	home := t.TempDir()
	t.Setenv("WARDEN_HOME", filepath.Join(home, "wh"))
	res, err := InitMCP(dir, "/w/warden", false, time.Now())
	if err != nil || res.Server != "added" || res.Backup != "" {
		t.Fatalf("%+v %v", res, err)
	}
	var doc map[string]map[string]map[string]any
	b, _ := os.ReadFile(filepath.Join(dir, ".mcp.json"))
	json.Unmarshal(b, &doc)
	if env, _ := doc["mcpServers"]["warden"]["env"].(map[string]any); env["WARDEN_HOME"] != filepath.Join(home, "wh") {
		t.Errorf("a non-default WARDEN_HOME is not pinned: %s", b)
	}

	for _, bad := range []struct{ content, want string }{
		{"{\n  \"mcpServers\": {\n    \"x\": ,\n  }\n}\n", ":3:"},
		{`{"mcpServers": ["x"]}`, "mcpServers"},
	} {
		d := t.TempDir()
		p := filepath.Join(d, ".mcp.json")
		os.WriteFile(p, []byte(bad.content), 0o644)
		_, err := InitMCP(d, "/w/warden", false, time.Now())
		if err == nil || !strings.Contains(err.Error(), bad.want) || !strings.Contains(err.Error(), ".mcp.json") {
			t.Errorf("%q: error %v, want one naming the file and %q", bad.content, err, bad.want)
		}
		if b, _ := os.ReadFile(p); string(b) != bad.content {
			t.Errorf("a refused file was changed")
		}
		if m, _ := filepath.Glob(filepath.Join(d, ".claude", "commands", "*")); len(m) != 0 {
			t.Errorf("commands written although .mcp.json was refused: %v", m)
		}
	}
}
