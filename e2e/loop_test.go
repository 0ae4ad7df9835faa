package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The iteration loop end to end: Claude starts a loop with a check through
// the Bash tool, its first stop is blocked because the check fails (the
// reason reaches the model as the continuation), it does the work, and the
// second stop ends the loop as done.
func TestLoopEndToEnd(t *testing.T) {
	sc := Scenario{
		Name:   "loop",
		Prompt: "Create done.txt, in a warden loop.",
		Script: Script{
			Steps: []Step{
				{Tools: []ToolUse{{ID: "toolu_loop", Name: "Bash", Input: map[string]any{
					"command":     `"${HOME}/.warden/bin/warden" loop start "create done.txt" --criteria "done.txt exists" --check "test -f done.txt || { echo MARK-MISSING done.txt; exit 4; }" --max 5`,
					"description": "Start a warden loop"}}}},
				{Text: "MARK-FIRST: I am done."},
				{Tools: []ToolUse{{ID: "toolu_touch", Name: "Bash", Input: map[string]any{
					"command": "echo ok > done.txt", "description": "Create done.txt"}}}},
				{Text: "MARK-SECOND: done.txt exists now."},
			},
		},
		Timeout: 120 * time.Second,
	}
	r := runScenario(t, sc)

	res := r.API.ToolResults()
	if got := res["toolu_loop"].ResultText(); !strings.Contains(got, "loop started") {
		t.Fatalf("warden loop start through the Bash tool: %q", clip(got, 400))
	}
	main := r.API.MainRequests()
	if len(main) != 4 {
		t.Fatalf("%d main requests, want 4 (start, first stop, work after the block, second stop)", len(main))
	}
	cont, _ := main[2].LastUser()
	for _, want := range []string{"iteration 1 of 5", "MARK-MISSING done.txt", "exited 4"} {
		if !strings.Contains(cont.Text(), want) {
			t.Errorf("the continuation after the blocked stop lacks %q: %q", want, clip(cont.Text(), 500))
		}
	}
	var stops []EventRow
	for _, e := range r.Events(t) {
		if e.Event == "Stop" {
			stops = append(stops, e)
		}
	}
	if len(stops) != 2 || stops[0].Decision != "deny" || stops[0].Rule != "loop:criteria" ||
		stops[1].Rule != "loop:done" || stops[1].Decision == "deny" {
		t.Errorf("Stop rows %v, want a loop:criteria deny then loop:done", stops)
	}

	cmd := exec.Command(filepath.Join(r.Home, ".warden", "bin", "warden"), "loop", "status", "--json")
	cmd.Dir = r.Proj
	cmd.Env = []string{"HOME=" + r.Home, "WARDEN_HOME=" + filepath.Join(r.Home, ".warden"), "PATH=/usr/bin:/bin", "WARDEN_KEEPER=off"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("warden loop status --json: %v\n%s", err, out)
	}
	var l struct {
		Status    string
		Iteration int
		History   []struct{ Missing []string }
	}
	if err := json.Unmarshal(out, &l); err != nil {
		t.Fatalf("loop status JSON: %v\n%s", err, out)
	}
	if l.Status != "done" || l.Iteration != 2 || len(l.History) != 2 || len(l.History[0].Missing) != 1 {
		t.Errorf("loop after the run: %+v, want done after 2 iterations, the first missing one check", l)
	}
}
