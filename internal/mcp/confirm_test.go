package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// isConfirm tells the confirm judge's requests from the others by its
// system prompt.
func isConfirm(r apiRequest) bool { return strings.Contains(r.system(), "code-quality gate") }

// The confirm agent's tool-use loop against the fake Messages API: the
// model reads the changed file, greps for its callers, tries a path
// outside the project, and declines with reasons tied to files and lines.
func TestConfirmAgentReadGrepDecline(t *testing.T) {
	api := newFakeAPI(t, func(r apiRequest) apiReply {
		switch r.turn() {
		case 0:
			return apiReply{Text: "Let me read the change.", Tools: []toolCall{{Name: "Read", Input: map[string]any{"path": "calc.go"}}}}
		case 1:
			return apiReply{Tools: []toolCall{
				{Name: "Grep", Input: map[string]any{"pattern": `Div\(`, "glob": "*.go"}},
				{Name: "Read", Input: map[string]any{"path": "../outside.txt"}},
			}}
		}
		return apiReply{Text: "**DECLINED**\n- calc.go:4: Div divides by b without checking for zero; main.go:5 calls it with 0\n- no test covers Div"}
	})
	e := newEnv(t, api)
	os.WriteFile(filepath.Join(filepath.Dir(e.dir), "outside.txt"), []byte("SECRET-OUTSIDE"), 0o644)
	write(t, e.dir, "calc.go", "package main\n\nfunc Div(a, b int) int {\n\treturn a / b\n}\n")
	write(t, e.dir, "main.go", "package main\n\nfunc main() {\n\tprintln(\"hello\")\n\tprintln(Div(1, 0))\n}\n")
	gitOut(t, e.dir, "add", "calc.go", "main.go")
	cs := e.connect(t, Options{})

	var out ConfirmOut
	call(t, cs, "confirm", map[string]any{"skip_check": true}, &out)
	if out.Verdict != Declined || out.Confirmed {
		t.Fatalf("verdict %s confirmed %v, want DECLINED: %+v", out.Verdict, out.Confirmed, out)
	}
	if out.Diff != "staged" || strings.Join(out.Files, ",") != "calc.go,main.go" {
		t.Errorf("diff %q files %v, want the staged calc.go and main.go", out.Diff, out.Files)
	}
	if len(out.Reasons) != 2 || out.Reasons[0].File != "calc.go" || out.Reasons[0].Line != 4 ||
		!strings.Contains(out.Reasons[0].Text, "without checking for zero") || out.Reasons[1].File != "" {
		t.Errorf("reasons %+v, want calc.go:4 and one without a file", out.Reasons)
	}
	if got := strings.Join(out.Judge.Calls, "|"); got != `Read calc.go|Grep Div\(|Read ../outside.txt` {
		t.Errorf("tool calls %q", got)
	}
	if out.Judge.Turns != 3 || out.Judge.Model != "fake-sonnet" {
		t.Errorf("turns %d model %q, want 3 turns of fake-sonnet", out.Judge.Turns, out.Judge.Model)
	}

	reqs := api.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	var tools []string
	for _, tl := range reqs[0].Tools {
		tools = append(tools, tl.Name)
	}
	if strings.Join(tools, ",") != "Read,Glob,Grep" {
		t.Errorf("tools offered %v, want Read, Glob, Grep", tools)
	}
	if u := reqs[0].lastUser().Content[0].Text; !strings.Contains(u, "+\treturn a / b") || !strings.Contains(u, "```diff") {
		t.Errorf("the first request does not carry the diff: %q", u)
	}
	// Turn 2 carries the Read result: the file, lines numbered.
	res := reqs[1].lastUser().Content
	if len(res) != 1 || res[0].Type != "tool_result" || res[0].IsError || !strings.Contains(res[0].ResultText(), "     4\t\treturn a / b") {
		t.Errorf("Read result %+v, want calc.go with line numbers", res)
	}
	// Turn 3 carries the Grep hits and the refusal of the outside path.
	res = reqs[2].lastUser().Content
	if len(res) < 2 {
		t.Fatalf("turn 3 results %+v", res)
	}
	if g := res[0].ResultText(); !strings.Contains(g, "calc.go:3: func Div(a, b int) int {") || !strings.Contains(g, "main.go:5: println(Div(1, 0))") {
		t.Errorf("Grep result %q", g)
	}
	if !res[1].IsError || !strings.Contains(res[1].ResultText(), "outside the project") || strings.Contains(res[1].ResultText(), "SECRET") {
		t.Errorf("outside Read: %+v, want an error result without the file", res[1])
	}
	// Nothing was committed.
	if got := gitOut(t, e.dir, "diff", "--cached", "--name-only"); got != "calc.go\nmain.go\n" {
		t.Errorf("index changed: %q", got)
	}
}

// A clean change is CONFIRMED; the working tree against HEAD is judged
// when nothing is staged; the turn budget's last request forbids tools.
func TestConfirmWorkingTreeConfirmedWithinTurns(t *testing.T) {
	api := newFakeAPI(t, func(r apiRequest) apiReply {
		if r.ToolChoice == nil {
			return apiReply{Tools: []toolCall{{Name: "Glob", Input: map[string]any{"pattern": "**/*.go"}}}}
		}
		return apiReply{Text: "CONFIRMED: a small, correct change"}
	})
	e := newEnv(t, api)
	e.cfg.MCP.ConfirmTurns = 2
	write(t, e.dir, "main.go", "package main\n\nfunc main() {\n\tprintln(\"hello, world\")\n}\n")
	cs := e.connect(t, Options{})
	var out ConfirmOut
	call(t, cs, "confirm", map[string]any{"skip_check": true}, &out)
	if out.Verdict != Confirmed || !out.Confirmed || out.Summary != "a small, correct change" || out.Diff != "working tree against HEAD" {
		t.Fatalf("got %+v", out)
	}
	reqs := api.requests()
	if len(reqs) != 2 || reqs[1].ToolChoice["type"] != "none" {
		t.Fatalf("requests %d, last tool_choice %v: want 2, the second with tools forbidden", len(reqs), reqs[len(reqs)-1].ToolChoice)
	}
	if got := reqs[1].lastUser().Content; got[0].ResultText() != "main.go\n" {
		t.Errorf("Glob result %q", got[0].ResultText())
	}

	// Against a base: the base's diff, not the staged one.
	gitOut(t, e.dir, "commit", "-qam", "feat: hello world")
	call(t, cs, "confirm", map[string]any{"base": "HEAD~1", "skip_check": true}, &out)
	if out.Diff != "working tree against HEAD~1" || strings.Join(out.Files, ",") != "main.go" || !out.Confirmed {
		t.Errorf("against base: %+v", out)
	}
	// Nothing changed: NO_CHANGES, no model asked.
	before := len(api.requests())
	call(t, cs, "confirm", map[string]any{}, &out)
	if out.Verdict != NoChanges || out.Confirmed || len(api.requests()) != before {
		t.Errorf("clean tree: %+v after %d requests", out, len(api.requests())-before)
	}
}

// No provider, a judge past its deadline, an API that fails, a reply
// without a verdict: "not confirmed: judge unavailable", never a pass.
func TestConfirmJudgeUnavailable(t *testing.T) {
	cases := []struct {
		name     string
		reply    func(apiRequest) apiReply
		why      string
		deadline int
	}{
		{"no provider", nil, "no LLM provider", 60000},
		{"timeout", func(apiRequest) apiReply { return apiReply{Text: "CONFIRMED", Delay: time.Minute} }, "deadline", 400},
		{"server errors", func(apiRequest) apiReply { return apiReply{Status: 500} }, "500", 60000},
		{"no verdict", func(apiRequest) apiReply { return apiReply{Text: "Looks fine to me."} }, "no verdict", 60000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var api *fakeAPI
			if c.reply != nil {
				api = newFakeAPI(t, c.reply)
			}
			e := newEnv(t, api)
			e.cfg.MCP.ConfirmTimeoutMS = c.deadline
			write(t, e.dir, "main.go", "package main\n\nfunc main() {}\n")
			gitOut(t, e.dir, "add", "main.go")
			cs := e.connect(t, Options{})
			var out ConfirmOut
			call(t, cs, "confirm", map[string]any{"skip_check": true}, &out)
			if out.Verdict != NotConfirmed || out.Confirmed || out.Summary != "not confirmed: judge unavailable" {
				t.Fatalf("got %+v, want NOT_CONFIRMED", out)
			}
			if !strings.Contains(out.Judge.Error, c.why) {
				t.Errorf("judge error %q, want it to say %q", out.Judge.Error, c.why)
			}
			var commit CommitOut
			call(t, cs, "commit", map[string]any{"skip_check": true, "message": "feat: empty main"}, &commit)
			if commit.Committed || !strings.Contains(commit.Reason, "judge unavailable") {
				t.Errorf("commit: %+v, want a refusal saying the judge is unavailable", commit)
			}
			if got := gitOut(t, e.dir, "rev-list", "--count", "HEAD"); got != "1\n" {
				t.Errorf("%s commits, want the 1 we started with", got)
			}
		})
	}
}

// The chain confirm → check: failing checks decline without a model call.
func TestConfirmRunsCheckFirst(t *testing.T) {
	api := newFakeAPI(t, func(apiRequest) apiReply { return apiReply{Text: "CONFIRMED"} })
	e := newEnv(t, api)
	e.cfg.MCP.CheckCommands = []string{"echo lint ok", "echo 'FAIL: TestDiv (calc_test.go:9)'; exit 1"}
	write(t, e.dir, "main.go", "package main\n\nfunc main() {}\n")
	gitOut(t, e.dir, "add", "main.go")
	cs := e.connect(t, Options{})
	var out ConfirmOut
	call(t, cs, "confirm", nil, &out)
	if out.Verdict != Declined || out.Check == nil || out.Check.Passed || len(out.Reasons) != 1 ||
		!strings.Contains(out.Reasons[0].Text, "FAIL: TestDiv (calc_test.go:9)") {
		b, _ := json.Marshal(out)
		t.Fatalf("got %s, want DECLINED by the failing check", b)
	}
	for _, r := range api.requests() {
		if isConfirm(r) {
			t.Errorf("the confirm judge was asked although the checks failed")
		}
	}
}

func TestParseConfirm(t *testing.T) {
	v, sum, rs, ok := parseConfirm("I looked at it.\n\nVerdict: DECLINED — two problems\n1. `pkg/a.go:12`: nil map write\n- b_test.go: no assertion\n* README.md:3-5 - stale docs\n")
	if !ok || v != Declined || sum != "two problems" || len(rs) != 3 {
		t.Fatalf("%v %q %+v %v", v, sum, rs, ok)
	}
	if rs[0] != (Reason{File: "pkg/a.go", Line: 12, Text: "nil map write"}) || rs[1] != (Reason{File: "b_test.go", Text: "no assertion"}) ||
		rs[2] != (Reason{File: "README.md", Line: 3, Text: "stale docs"}) {
		t.Errorf("reasons %+v", rs)
	}
	if _, _, _, ok := parseConfirm("The change is CONFIRMED by me"); ok {
		t.Errorf("a verdict word inside a sentence was taken as the verdict")
	}
}
