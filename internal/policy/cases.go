package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// The fixed environment rule tests run in, so they mean the same on every
// machine: home /home/dev, project and cwd /home/dev/proj, a dirty work tree
// on branch main.
const (
	TestHome    = "/home/dev"
	TestProject = "/home/dev/proj"
)

// TestEngine returns an engine for rule tests: git answers "dirty, on main"
// without running.
func TestEngine(packs []Pack, user []Rule, opts Options) *Engine {
	e := New(packs, user, opts)
	e.Git = func(context.Context, string) (bool, error) { return true, nil }
	e.GitBranch = func(context.Context, string) string { return "main" }
	return e
}

// CaseCall turns a test input into a call: a JSON object is a hook payload
// ({"tool_name", "tool_input"}, optionally "hook_event_name", "cwd"); anything
// else is a Bash command.
func CaseCall(input, home, project string) (Call, error) {
	c := Call{Event: "PreToolUse", Cwd: project, Home: home, Project: project}
	if rest, ok := strings.CutPrefix(input, "@write "); ok {
		// "@write FILE N": a Write of N lines (size rules).
		var file string
		var n int
		if _, err := fmt.Sscanf(rest, "%s %d", &file, &n); err != nil {
			return c, fmt.Errorf("bad @write input %q: want \"@write FILE LINES\"", input)
		}
		b, _ := json.Marshal(map[string]string{"file_path": file, "content": strings.Repeat("x := 1\n", n)})
		c.Tool, c.Input = "Write", b
		return c, nil
	}
	if !strings.HasPrefix(strings.TrimSpace(input), `{"`) {
		b, _ := json.Marshal(map[string]string{"command": input})
		c.Tool, c.Input = "Bash", b
		return c, nil
	}
	var p struct {
		Event  string          `json:"hook_event_name"`
		Tool   string          `json:"tool_name"`
		Input  json.RawMessage `json:"tool_input"`
		Prompt string          `json:"prompt"`
		Cwd    string          `json:"cwd"`
	}
	if err := json.Unmarshal([]byte(input), &p); err != nil {
		return c, fmt.Errorf("test input is neither a command nor valid JSON: %v", err)
	}
	if p.Event != "" {
		c.Event = p.Event
	}
	if p.Cwd != "" {
		c.Cwd = p.Cwd
	}
	c.Tool, c.Input, c.Prompt = p.Tool, p.Input, p.Prompt
	return c, nil
}

// CaseResult is one test case's outcome.
type CaseResult struct {
	Name   string `json:"name"`   // rule id or file:line
	Input  string `json:"input"`  // the command or payload
	Expect string `json:"expect"` // "fires", "quiet", or a decision
	Got    string `json:"got"`
	OK     bool   `json:"ok"`
}

func (r CaseResult) String() string {
	status := "ok  "
	if !r.OK {
		status = "FAIL"
	}
	return fmt.Sprintf("%s %s: %s → expected %s, got %s", status, r.Name, oneLine(r.Input), r.Expect, r.Got)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// RunRuleCases runs every rule's own Catch and Allow inputs. A rule under
// test is evaluated alone (at its default mode) so another rule firing
// cannot hide a miss.
func RunRuleCases(packs []Pack) []CaseResult {
	var out []CaseResult
	for _, p := range packs {
		for _, r := range p.Rules {
			e := TestEngine([]Pack{{Name: p.Name, Rules: []Rule{r}}}, nil, Options{})
			for _, in := range r.Catch {
				out = append(out, runOne(e, r.ID, in, true))
			}
			for _, in := range r.Allow {
				out = append(out, runOne(e, r.ID, in, false))
			}
		}
	}
	return out
}

func runOne(e *Engine, id, in string, fire bool) CaseResult {
	res := CaseResult{Name: id, Input: in, Expect: "fires"}
	if !fire {
		res.Expect = "quiet"
	}
	c, err := CaseCall(in, TestHome, TestProject)
	if err != nil {
		res.Got = err.Error()
		return res
	}
	r := e.Evaluate(context.Background(), Normalize(c))
	fired := false
	for _, h := range r.Hits {
		if h.ID == id {
			fired = true
			res.Got = fmt.Sprintf("fires (%s: %s)", h.Mode, h.Reason)
		}
	}
	if !fired {
		res.Got = "quiet"
	}
	res.OK = fired == fire
	return res
}

// RunCases runs test cases (from rule files) against the engine: each
// expects a decision (deny, ask, warn, audit, allow) and optionally the
// deciding rule.
func RunCases(e *Engine, cases []TestCase) []CaseResult {
	var out []CaseResult
	for _, tc := range cases {
		in := tc.Command
		if tc.Call != "" {
			in = tc.Call
		}
		res := CaseResult{Name: tc.Source, Input: in, Expect: tc.Expect}
		if tc.Rule != "" {
			res.Expect += " by " + tc.Rule
		}
		c, err := CaseCall(in, TestHome, TestProject)
		if err != nil {
			res.Got = err.Error()
			out = append(out, res)
			continue
		}
		r := e.Evaluate(context.Background(), Normalize(c))
		got := string(r.Decision)
		if got == "" {
			got = "allow"
		}
		res.Got = got
		top := r.Top()
		if top != nil {
			res.Got += " by " + top.ID
		}
		res.OK = got == strings.ToLower(tc.Expect) && (tc.Rule == "" || top != nil && top.ID == tc.Rule)
		out = append(out, res)
	}
	return out
}
