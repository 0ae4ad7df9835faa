package replay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/replay"
	"github.com/warden-dev/warden/internal/store"
)

// The judge stage: only calls a side leaves to tool approval are asked
// (not a rule's ask or deny, not a low-risk tool), at most Concurrency at
// once, each under a deadline; an identical request is asked once and its
// answer shared; what it costs is counted.
func TestJudgesBoundedAndShared(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	cfg := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(cfg, []byte("[validation]\ntool_approve = true\n\n[llm]\nprovider = \"anthropic\"\n"), 0o644)
	var evs []store.Event
	add := func(tool string, input any) {
		in, _ := json.Marshal(input)
		raw, _ := json.Marshal(map[string]any{"tool_name": tool, "tool_input": json.RawMessage(in), "cwd": proj})
		evs = append(evs, store.Event{ID: int64(len(evs) + 1), Time: time.Unix(1_800_000_000+int64(len(evs)), 0),
			SessionID: "s", Event: "PreToolUse", Tool: tool, Cwd: proj, Decision: "allow", Raw: raw})
	}
	for i := range 10 {
		add("Bash", map[string]string{"command": fmt.Sprintf("make target%d", i)})
	}
	add("Bash", map[string]string{"command": "make target0"}) // the same request again
	add("Bash", map[string]string{"command": "rm -rf ~"})     // a rule denies it: never asked
	add("Read", map[string]string{"file_path": proj + "/a.go"})

	var mu sync.Mutex
	inFlight, most, asked := 0, 0, 0
	noDeadline := false
	js := &replay.Judges{Concurrency: 3, Deadline: 2 * time.Second,
		Getenv: func(k string) string { return map[string]string{"ANTHROPIC_API_KEY": "k"}[k] },
		Ask: func(ctx context.Context, req *judge.Request) judge.Response {
			mu.Lock()
			inFlight++
			asked++
			most = max(most, inFlight)
			if _, ok := ctx.Deadline(); !ok || req.DeadlineMS != 2000 || req.Record {
				noDeadline = true
			}
			mu.Unlock()
			time.Sleep(20 * time.Millisecond) // calls overlap
			mu.Lock()
			inFlight--
			mu.Unlock()
			resp := judge.Response{Attempts: 1, TokensIn: 100, CostUSD: 0.001, Verdict: judge.Verdict{Pass: true}}
			if strings.Contains(req.Prompt, "target7") {
				resp.Verdict = judge.Verdict{Pass: false, Reason: "not this one"}
				resp.Appeal = &judge.Response{Attempts: 1, TokensIn: 100, Verdict: judge.Verdict{Pass: false, Reason: "upheld"}}
			}
			return resp
		}}
	cur := &replay.Policy{Name: "current", UserConfig: filepath.Join(home, "none.toml"), WardenHome: home}
	cand := &replay.Policy{Name: "candidate", UserConfig: cfg, WardenHome: home}
	r := replay.Run(evs, replay.Options{Home: home, Baseline: cur, Candidate: cand, Judges: js})
	if asked != 10 || most > 3 || noDeadline {
		t.Errorf("asked %d (want 10 distinct), at most %d at once (want 3 or fewer), deadline missing %v", asked, most, noDeadline)
	}
	j := r.Judges
	if j == nil || j.Consulted != 11 || j.Reused != 1 || j.Requests != 11 || j.TokensIn != 1100 {
		t.Errorf("stats %+v; want 11 consulted, 1 reused, 11 requests (10 + one appeal)", j)
	}
	if r.Changed != 1 || len(r.Changes) != 1 || r.Changes[0].Rule != replay.RuleToolApprove || r.Changes[0].Examples[0].After.Reason != "upheld" {
		t.Errorf("changes %+v", r.Changes)
	}
}
