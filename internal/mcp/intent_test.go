package mcp

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/lifecycle"
)

const transcriptJSONL = `{"type":"user","sessionId":"s1","message":{"role":"user","content":"Add a Div function with a zero check and its test."}}
{"type":"assistant","sessionId":"s1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"calc.go","content":"func Div(a, b int) int { return a / b }"}}]}}
{"type":"user","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}
{"type":"assistant","sessionId":"s1","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Done: Div is added."}]}}
`

// validate_intent finds the project's newest transcript where Claude Code
// keeps it and sends the request and the actions to the judge.
func TestValidateIntentDiverged(t *testing.T) {
	api := newFakeAPI(t, func(r apiRequest) apiReply {
		return apiReply{Text: "DIVERGED: the zero check and the test the user asked for are missing"}
	})
	e := newEnv(t, api)
	dir := filepath.Join(e.home, ".claude", "projects", lifecycle.ProjectKey(realPath(t, e.dir)))
	write(t, dir, "s1.jsonl", transcriptJSONL)
	write(t, e.dir, "calc.go", "package main\n")
	cs := e.connect(t, Options{})
	var out IntentOut
	call(t, cs, "validate_intent", nil, &out)
	if out.Verdict != "DIVERGED" || out.Followed || !strings.Contains(out.Reason, "zero check") ||
		out.Transcript != filepath.Join(dir, "s1.jsonl") || len(out.Requests) != 1 {
		t.Fatalf("got %+v", out)
	}
	p := api.requests()[0].lastUser().Content[0].Text
	for _, want := range []string{"Add a Div function with a zero check", "- Write ", "Done: Div is added.", "?? calc.go"} {
		if !strings.Contains(p, want) {
			t.Errorf("judge prompt lacks %q:\n%s", want, p)
		}
	}
	// By session id; and without a provider: not validated, never followed.
	e.api, e.cfg.LLM.Provider = nil, "none"
	cs = e.connect(t, Options{})
	call(t, cs, "validate_intent", map[string]any{"session_id": "s1"}, &out)
	if out.Verdict != "NOT_VALIDATED" || out.Followed || out.Reason != "not validated: judge unavailable" {
		t.Errorf("no provider: %+v", out)
	}
	wantArgError(t, cs, "validate_intent", map[string]any{"session_id": "s2"}, "session_id")
}

func realPath(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
