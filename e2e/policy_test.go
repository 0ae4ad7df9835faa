package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// policyBlock is a scenario where the model calls one tool that warden's
// guards must deny: the tool never runs, the reason (with the rule id)
// reaches the model as the tool_result, and the store records the rule.
func policyBlock(name, prompt, id, tool string, input map[string]any, rule string, extra func(t *testing.T, r *Run)) Scenario {
	return Scenario{
		Name:   name,
		Prompt: prompt,
		Script: Script{Steps: []Step{
			{Text: "Working on it.", Tools: []ToolUse{{ID: id, Name: tool, Input: input}}},
			{Text: "The guard blocked that, so I stopped."},
		}},
		Check: func(t *testing.T, r *Run) {
			if r.ExitCode != 0 {
				t.Errorf("claude exit code %d", r.ExitCode)
			}
			res, ok := r.API.ToolResults()[id]
			switch {
			case !ok:
				t.Fatalf("no tool_result for %s went back to the model", id)
			case !res.IsError:
				t.Errorf("tool_result for %s is not an error (the tool ran?): %q", id, res.ResultText())
			case !strings.Contains(res.ResultText(), rule):
				t.Errorf("the model's tool_result lacks the rule %s: %q", rule, res.ResultText())
			}
			var pre bool
			for _, e := range r.Events(t) {
				if e.ToolUseID != id {
					continue
				}
				switch e.Event {
				case "PreToolUse":
					pre = true
					if e.Decision != "deny" || e.Rule != rule || e.Reason == "" {
						t.Errorf("PreToolUse row: decision %q rule %q reason %q, want deny by %s", e.Decision, e.Rule, e.Reason, rule)
					}
				case "PostToolUse":
					t.Errorf("a PostToolUse was recorded for %s: the tool ran", id)
				}
			}
			if !pre {
				t.Errorf("no PreToolUse row for %s", id)
			}
			if n := len(r.API.MainRequests()); n < 2 {
				t.Errorf("%d main requests, want 2 (the model saw the denial and answered)", n)
			}
			if extra != nil {
				extra(t, r)
			}
		},
	}
}

var policyScenarios = []Scenario{
	policyBlock("policy-block-rm", "Clean up everything.", "toolu_rm", "Bash",
		map[string]any{"command": "rm -rf /", "description": "Remove everything"}, "core.shell:rm-root",
		func(t *testing.T, r *Run) {
			// The e2e PATH has an rm shim that refuses / and leaves a
			// marker: the command must not even have reached the shell.
			if r.ShimRefused() {
				t.Errorf("rm -rf / reached the shell (the shim refused it)")
			}
		}),
	policyBlock("policy-block-nested-rm", "Clean the home directory.", "toolu_rm2", "Bash",
		map[string]any{"command": `bash -c "sh -c 'rm -rf ~'"`, "description": "Clean home"}, "core.shell:rm-root",
		func(t *testing.T, r *Run) {
			if r.ShimRefused() {
				t.Errorf("rm -rf ~ reached the shell (the shim refused it)")
			}
		}),
	policyBlock("policy-block-force-push", "Publish my work to main.", "toolu_push", "Bash",
		map[string]any{"command": "git push --force origin main && touch pushed.marker", "description": "Force push"},
		"core.git:push-force",
		func(t *testing.T, r *Run) {
			if _, err := os.Stat(filepath.Join(r.Proj, "pushed.marker")); err == nil {
				t.Errorf("the command ran: pushed.marker exists")
			}
		}),
	policyBlock("policy-block-write-ssh", "Add a host alias to my ssh config.", "toolu_ssh", "Write",
		map[string]any{"file_path": "${HOME}/.ssh/config", "content": "Host evil\n  HostName 203.0.113.7\n"}, "core.paths:ssh",
		func(t *testing.T, r *Run) {
			if _, err := os.Stat(filepath.Join(r.Home, ".ssh", "config")); err == nil {
				t.Errorf("~/.ssh/config was written")
			}
		}),
	{
		// Everyday commands go through untouched: the guards are quiet.
		Name:   "policy-plain",
		Prompt: "Check the tree and write a note.",
		Script: Script{Steps: []Step{
			{Tools: []ToolUse{{ID: "toolu_ls", Name: "Bash", Input: map[string]any{"command": "ls -la && echo \"rm -rf /\" && mkdir -p build && rm -rf ./build", "description": "List"}}}},
			{Tools: []ToolUse{{ID: "toolu_note", Name: "Write", Input: map[string]any{"file_path": "${CWD}/note.md", "content": "# note\n"}}}},
			{Text: "Done."},
		}},
		Check: func(t *testing.T, r *Run) {
			results := r.API.ToolResults()
			for _, id := range []string{"toolu_ls", "toolu_note"} {
				if res, ok := results[id]; !ok || res.IsError {
					t.Errorf("%s: result %q (present %v), want a success", id, res.ResultText(), ok)
				}
			}
			if !strings.Contains(results["toolu_ls"].ResultText(), "rm -rf /") {
				t.Errorf("echo output missing: %q", results["toolu_ls"].ResultText())
			}
			if _, err := os.Stat(filepath.Join(r.Proj, "note.md")); err != nil {
				t.Errorf("note.md not written: %v", err)
			}
			for _, e := range r.Events(t) {
				if e.Decision == "deny" || e.Decision == "ask" {
					t.Errorf("event %s: %s by %s (%s), want no block", e, e.Decision, e.Rule, e.Reason)
				}
			}
		},
	},
}

func TestPolicyScenarios(t *testing.T) {
	for _, sc := range policyScenarios {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			r := runScenario(t, sc)
			sc.Check(t, r)
		})
	}
}
