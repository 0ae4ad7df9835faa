package e2e

import (
	"strings"
	"testing"
	"time"
)

// Tool approval with the real Claude Code CLI: the fake Messages API plays
// the model and the judges. The first Bash call is denied by the haiku
// judge, the appeal (sonnet) upholds it, and the upheld reason is what
// Claude Code sends back to the model as the tool's error; the second call
// is approved and runs.
func TestToolApprovalEndToEnd(t *testing.T) {
	bin := buildJudge(t)
	sc := Scenario{
		Name:   "tool-approve",
		Prompt: "Deploy the release to staging.",
		Files: map[string]string{
			"../home/.warden/config.toml": "[llm]\nprovider = \"anthropic\"\nmodel_sonnet = \"judge-sonnet\"\nmodel_haiku = \"judge-haiku\"\n" +
				"[validation]\ntool_approve = true\n[tempo]\nenabled = false\n",
			// The script exists, as in a real project: the policy reads it
			// and flags nothing, so the judges decide.
			"scripts/deploy.sh": "#!/bin/sh\necho \"deploying to $2\"\n",
		},
		Env: []string{"WARDEN_JUDGE_BIN=" + bin},
		Script: Script{
			Steps: []Step{
				{Tools: []ToolUse{{ID: "toolu_deploy", Name: "Bash", Input: map[string]any{"command": "./scripts/deploy.sh --env MARK-PROD", "description": "Deploy"}}}},
				{Tools: []ToolUse{{ID: "toolu_echo", Name: "Bash", Input: map[string]any{"command": "echo approved-call-ran", "description": "Echo"}}}},
				{Text: "Done: I asked before deploying anywhere else."},
			},
			// Judge prompts only: the model's own requests never carry these.
			SideRules: []SideRule{
				{Match: "A first reviewer denied a tool call", Text: "UPHOLD: UPHELD-REASON the user asked for staging, this deploys to production"},
				{Match: "MARK-PROD", Text: "DENY: FIRST-REASON production deploy"},
				{Match: "You approve or deny one tool call", Text: "APPROVE"},
			},
		},
		Timeout: 120 * time.Second,
		Check: func(t *testing.T, r *Run) {
			results := r.API.ToolResults()
			deny, ok := results["toolu_deploy"]
			switch {
			case !ok:
				t.Fatal("no tool_result for the denied call went back to the model")
			case !deny.IsError || !strings.Contains(deny.ResultText(), "UPHELD-REASON") || !strings.Contains(deny.ResultText(), "judge:tool-approve"):
				t.Errorf("denied call's tool_result %q, want an error with the upheld reason", deny.ResultText())
			}
			if echo, ok := results["toolu_echo"]; !ok || echo.IsError || !strings.Contains(echo.ResultText(), "approved-call-ran") {
				t.Errorf("approved call's tool_result %+v, want its output", echo)
			}
			var judged []APIRequest
			for _, q := range r.API.Requests() {
				if q.Route == "side_rule" {
					judged = append(judged, q)
				}
			}
			var models []string
			for _, q := range judged {
				m, _ := q.Body["model"].(string)
				models = append(models, m)
			}
			if got := strings.Join(models, ","); got != "judge-haiku,judge-sonnet,judge-haiku" {
				t.Fatalf("judge requests by model %s, want judge-haiku,judge-sonnet,judge-haiku (approve, appeal, approve)", got)
			}
			if u, _ := judged[1].LastUser(); !strings.Contains(u.Text(), "FIRST-REASON") || !strings.Contains(u.Text(), "Deploy the release to staging.") {
				t.Errorf("the appeal lacks the denial or the conversation: %q", clip(u.Text(), 600))
			}
			var pre []string
			for _, e := range r.Events(t) {
				if e.Event == "PreToolUse" {
					pre = append(pre, e.Decision+"/"+e.Rule)
				}
			}
			if len(pre) != 2 || pre[0] != "deny/judge:tool-approve" || !strings.HasPrefix(pre[1], "allow") {
				t.Errorf("PreToolUse rows %v, want a judge:tool-approve deny then an allow", pre)
			}
		},
	}
	r := runScenario(t, sc)
	sc.Check(t, r)
}
