package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// warden's MCP server end to end: `warden init --mcp` registers `warden
// mcp` in the project's .mcp.json; the real Claude Code CLI starts it;
// the scripted model calls mcp__warden__status and mcp__warden__check;
// their results reach the next request the fake API receives.
//
// Not parallel, and the model's first step is a 5 s sleep in Bash: Claude
// Code connects MCP servers in the background and sends its first request
// with whichever are up, so on a busy machine warden's server may not be
// up yet for it (seen beside the other e2e tests at load 20, and once
// alone at load 30; MCP_CONNECTION_NONBLOCKING=0 did not make Claude Code
// wait for a server started 8 s late). The tools are announced again with
// every request, so the test reads them from the one that calls them.
func TestMCPServerEndToEnd(t *testing.T) {
	if skipAll != "" {
		t.Skip(skipAll)
	}
	// warden beside warden-helper (and warden-core), as make install lays
	// them out; .mcp.json names this warden.
	bins := testenv.Binaries(t, "warden", "warden-helper")
	sc := Scenario{
		Name:   "mcp",
		Prompt: "Check the project with warden's tools.",
		Files: map[string]string{
			"Makefile": "test:\n\t@echo MCP-E2E-TESTS-PASS\n",
			// Project servers need the user's approval; this run gives it.
			".claude/settings.local.json": `{"enableAllProjectMcpServers": true}`,
		},
		Script: Script{Steps: []Step{
			bashStep("sleep 5"),
			{Tools: []ToolUse{
				{ID: "toolu_mcp_status", Name: "mcp__warden__status", Input: map[string]any{}},
				{ID: "toolu_mcp_check", Name: "mcp__warden__check", Input: map[string]any{"timeout_seconds": 60}},
			}},
			{Text: "The checks pass."},
		}},
		Timeout: 120 * time.Second,
	}
	r, env, claude := prepareRun(t, sc)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bins, "warden"), "init", "--mcp")
	cmd.Dir, cmd.Env = r.Proj, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("warden init --mcp: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(filepath.Join(r.Proj, ".mcp.json")); err != nil || !strings.Contains(string(b), `"mcp"`) {
		t.Fatalf(".mcp.json after init --mcp: %v\n%s\n%s", err, b, out)
	}
	r.runPrint(t, sc, env, claude)

	main := r.API.MainRequests()
	if len(main) < 3 {
		t.Fatalf("%d main requests, want 3 (the sleep, the tool calls, then their results)", len(main))
	}
	// Claude Code announces MCP tools to the model, as tools or (2.1.330)
	// by name in its list of deferred tools.
	for _, name := range []string{"check", "confirm", "commit", "push", "validate_intent", "status", "pace", "usage", "events", "explain"} {
		if !strings.Contains(string(main[1].Raw), "mcp__warden__"+name) {
			t.Errorf("the request answered with the MCP calls does not announce mcp__warden__%s", name)
		}
	}
	results := map[string]Block{}
	for _, m := range main[2].Messages() {
		for _, b := range m.Content {
			if b.Type == "tool_result" {
				results[b.ToolUseID] = b
			}
		}
	}
	st, ok := results["toolu_mcp_status"]
	if !ok || st.IsError {
		t.Fatalf("status result %+v (all: %v)", st, results)
	}
	var status struct {
		Command string `json:"command"`
		Text    string `json:"text"`
		Enabled bool   `json:"enabled"`
	}
	if err := json.Unmarshal([]byte(st.ResultText()), &status); err != nil || status.Command != "warden status" ||
		!strings.Contains(status.Text, "store:") || !status.Enabled {
		t.Errorf("status result %q (%v)", st.ResultText(), err)
	}
	ck, ok := results["toolu_mcp_check"]
	if !ok || ck.IsError {
		t.Fatalf("check result %+v", ck)
	}
	var check struct {
		Passed   bool   `json:"passed"`
		Source   string `json:"source"`
		Commands []struct {
			Command string `json:"command"`
			Passed  bool   `json:"passed"`
		} `json:"commands"`
	}
	if err := json.Unmarshal([]byte(ck.ResultText()), &check); err != nil || !check.Passed || check.Source != "detected" ||
		len(check.Commands) != 1 || check.Commands[0].Command != "make test" {
		t.Errorf("check result %q (%v)", ck.ResultText(), err)
	}
	// warden's hooks saw the MCP calls like any other tool call.
	seen := map[string]bool{}
	for _, e := range r.Events(t) {
		if e.Event == "PostToolUse" {
			seen[e.Tool] = true
		}
	}
	if !seen["mcp__warden__status"] || !seen["mcp__warden__check"] {
		t.Errorf("PostToolUse rows for %v, want both MCP tools", seen)
	}
}
