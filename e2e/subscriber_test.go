package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Pacing proven in the real client: Claude Code 2.1.330 as a subscriber,
// its status line's rate_limits (from the fake API's rate-limit headers)
// driving warden's throttle. Each case runs with pacing on, where it must
// pass, and with pacing.enabled = false, where its checks must find
// problems: a check that passes either way proves nothing about pacing.

// subscriberEnv makes Claude Code a subscription login offline: an OAuth
// token and an empty API key (an approved key would win). It then reads
// the windows from the replies' rate-limit headers and gives them to the
// status line as rate_limits.
var subscriberEnv = []string{
	"ANTHROPIC_API_KEY=",
	"CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-e2e-fake-subscriber",
	"CLAUDE_CODE_SUBSCRIPTION_TYPE=max",
}

// The pacing settings of these runs: base_delay 1 s lets the reference's
// formula give delays of a few seconds (its minimum is base_delay ×
// slowdown), so a run takes seconds, not minutes; max_delay leaves room
// for two sessions' fair share.
const (
	paceBaseDelay = 1
	paceMaxDelay  = 30
)

// The windows of these runs. Only the 5-hour window throttles: its
// allowance accrues around the clock, while the 7-day one freezes on
// weekends (an over-budget weekend is an emergency), which would make the
// delays depend on the day CI runs. Reset in 4 h: target 20 %, safe 19 %.
var (
	underAllowance = &RateLimits{
		FiveHour: &LimitWindow{Utilization: 0.12, ResetIn: 4 * time.Hour},
		SevenDay: &LimitWindow{Utilization: 0.05, ResetIn: 100 * time.Hour},
	}
	overAllowance = &RateLimits{ // 7 points over the safe allowance
		FiveHour: &LimitWindow{Utilization: 0.26, ResetIn: 4 * time.Hour},
		SevenDay: &LimitWindow{Utilization: 0.05, ResetIn: 100 * time.Hour},
	}
	pastEighty = &RateLimits{
		FiveHour: &LimitWindow{Utilization: 0.85, ResetIn: 4 * time.Hour},
		SevenDay: &LimitWindow{Utilization: 0.05, ResetIn: 100 * time.Hour},
	}
)

// bash is a scripted Bash tool call.
func bash(cmd string) ToolUse {
	return ToolUse{Name: "Bash", Input: map[string]any{"command": cmd, "description": "e2e step"}}
}

// toolTurn is a reply that calls one tool.
func toolTurn(cmd string) Step { return Step{Text: "Working.", Tools: []ToolUse{bash(cmd)}} }

// problems collects what a case found wrong, so that the same case can be
// required to pass with pacing on and to fail with it off.
type problems []string

func (p *problems) addf(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

// subscriberRun is a run whose claude is a subscriber and whose warden
// config sets pacing (on or off) and the delays above.
func subscriberRun(t *testing.T, name string, pacingOn bool, rl *RateLimits, steps []Step) (*Run, []string, string) {
	t.Helper()
	sc := Scenario{Name: name, Env: subscriberEnv, Script: Script{RateLimits: rl, Steps: steps}}
	r, env, claude := prepareRun(t, sc)
	r.writePacingConfig(t, pacingOn, paceMaxDelay)
	r.trustProjects(t, r.Proj)
	t.Cleanup(func() { r.save() })
	return r, env, claude
}

// writePacingConfig writes the user config's [pacing] table.
func (r *Run) writePacingConfig(t *testing.T, on bool, maxDelay int) {
	t.Helper()
	cfg := fmt.Sprintf("[pacing]\nenabled = %v\nbase_delay = %d\nmax_delay = %d\n", on, paceBaseDelay, maxDelay)
	if err := os.WriteFile(filepath.Join(r.Home, ".warden", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

// warden runs the warden CLI with the run's environment.
func (r *Run) warden(t *testing.T, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, wardenBin, args...)
	cmd.Dir = r.Proj
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("warden %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// decidedDelay is what `warden pace` decides, as a what-if, for the
// windows the fake API reported, at the given moment, for one session.
func (r *Run) decidedDelay(t *testing.T, env []string, rl *RateLimits, at time.Time, maxDelay int) int {
	t.Helper()
	args := []string{"pace", "--json", "--at", at.UTC().Format(time.RFC3339),
		"--base-delay", fmt.Sprint(paceBaseDelay), "--max-delay", fmt.Sprint(maxDelay)}
	for _, w := range []struct {
		flag, tag string
		win       *LimitWindow
	}{{"five-hour", "5h", rl.FiveHour}, {"seven-day", "7d", rl.SevenDay}} {
		args = append(args, "--"+w.flag+"-util", fmt.Sprint(math.Round(w.win.Utilization*1000)/10),
			"--"+w.flag+"-resets-at", r.API.ResetAt(w.tag).UTC().Format(time.RFC3339))
	}
	var d struct {
		DelaySeconds int `json:"delay_seconds"`
	}
	out := r.warden(t, env, args...)
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("warden %v: %v\n%s", args, err, out)
	}
	return d.DelaySeconds
}

// toolEvents are the PostToolUse events of a session after event id after.
func (r *Run) toolEvents(t *testing.T, session string, after int64) []EventRow {
	var out []EventRow
	for _, e := range r.Events(t) {
		if e.Event == "PostToolUse" && e.SessionID == session && e.ID > after {
			out = append(out, e)
		}
	}
	return out
}

// lastEventID is the newest event's id (0 without events).
func (r *Run) lastEventID(t *testing.T) int64 {
	evs := r.Events(t)
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].ID
}

// waitFigures waits until warden shows the status line's figures, i.e.
// the status line ran after a reply that carried the headers. It reports
// a problem when they do not show within 15 s (the status line runs
// within seconds of a reply).
func (r *Run) waitFigures(t *testing.T, p *problems, env []string, pct string) bool {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var out string
	for time.Now().Before(deadline) {
		out = r.warden(t, env, "status")
		if strings.Contains(out, "5-hour: "+pct+" used") && strings.Contains(out, "the status line") {
			return true
		}
		time.Sleep(500 * time.Millisecond)
	}
	p.addf("warden status never showed the status line's 5-hour %s:\n%s", pct, out)
	return false
}

// checkSlept checks each PostToolUse slept the delay decided for it
// (times sessions for fair sharing), within the decision cache's drift.
func (r *Run) checkSlept(t *testing.T, p *problems, env []string, rl *RateLimits, evs []EventRow, sessions, maxDelay int) {
	if len(evs) == 0 {
		p.addf("no PostToolUse events to check")
	}
	for _, e := range evs {
		want := min(sessions*r.decidedDelay(t, env, rl, time.UnixMicro(e.TsUS), maxDelay), maxDelay)
		t.Logf("%s %s: slept %d ms, decided %d s (%d session(s))", e.Tool, e.ToolUseID, e.SleptMS, want, sessions)
		if want < 3 {
			t.Fatalf("the test's figures decide only %d s: recalibrate", want)
		}
		if d := math.Abs(float64(e.SleptMS) - float64(want*1000)); d > 2500 {
			p.addf("%s slept %d ms, want %d s (±2.5 s)", e.ToolUseID, e.SleptMS, want)
		}
	}
}

// modelTold counts the pacing explanations the model got in the latest
// request: Claude Code 2.1.330 sends a PostToolUse additionalContext as a
// message of role "system" right after the tool result ("PostToolUse:Bash
// hook additional context: warden pacing: waited …").
func modelTold(reqs []APIRequest) int {
	if len(reqs) == 0 {
		return 0
	}
	n := 0
	for _, m := range reqs[len(reqs)-1].Messages() {
		if m.Role != "assistant" {
			n += strings.Count(m.Text(), "warden pacing: waited")
		}
	}
	return n
}

// runBothWays runs a case with pacing on (no problem allowed) and off (a
// problem required). The runs are parallel subtests (go test runs -parallel
// of the package's tests at once): each has its own HOME, store, fake API and
// tmux server, and spends most of its time waiting on the client.
func runBothWays(t *testing.T, name string, run func(t *testing.T, pacingOn bool) problems) {
	t.Run(name, func(t *testing.T) {
		t.Parallel()
		if p := run(t, true); len(p) > 0 {
			t.Errorf("with pacing on:\n  %s", strings.Join(p, "\n  "))
		}
	})
	t.Run(name+"/pacing off", func(t *testing.T) {
		t.Parallel()
		if p := run(t, false); len(p) == 0 {
			t.Errorf("with pacing.enabled = false the checks found nothing wrong: they do not test pacing")
		} else {
			t.Logf("with pacing off, as expected:\n  %s", strings.Join(p, "\n  "))
		}
	})
}

func TestSubscriberPacing(t *testing.T) {
	runBothWays(t, "under the allowance", subscriberUnder)
	runBothWays(t, "over the safe allowance", subscriberOver)
	runBothWays(t, "two sessions share the budget", subscriberFairShare)
	runBothWays(t, "first status line without rate_limits", subscriberNoFigures)
}

// twoTurns is the script of a session: a first turn whose tool runs long
// enough for the status line to store the reply's figures, then a turn of
// two tool calls to pace.
func twoTurns() []Step {
	return []Step{
		toolTurn("sleep 2; echo one"), {Text: "One done."},
		toolTurn("echo two"), toolTurn("echo three"), {Text: "Three done."},
	}
}

// secondTurn starts a TUI running twoTurns, waits after the first turn for
// warden to show the status line's 5-hour pct, runs the second turn and
// returns its PostToolUse events (false when the figures never showed).
func (r *Run) secondTurn(t *testing.T, p *problems, env []string, claude, name, pct string) (*TUI, []EventRow, bool) {
	t.Helper()
	u := r.startTUI(t, name, r.Proj, env, claude)
	u.prompt(t, "first", 90*time.Second)
	if !r.waitFigures(t, p, env, pct) {
		return u, nil, false
	}
	after := r.lastEventID(t)
	u.prompt(t, "second", 120*time.Second)
	evs := r.toolEvents(t, u.Session(), after)
	if len(evs) != 2 {
		p.addf("%d PostToolUse events in the second turn, want 2", len(evs))
	}
	return u, evs, true
}

// subscriberUnder: figures under the allowance are stored from the status
// line and shown as the status line's; no tool call waits.
func subscriberUnder(t *testing.T, pacingOn bool) problems {
	var p problems
	r, env, claude := subscriberRun(t, "under", pacingOn, underAllowance, twoTurns())
	u, evs, ok := r.secondTurn(t, &p, env, claude, "under", "12.0%")
	if !ok {
		return p
	}
	pace := r.warden(t, env, "pace")
	if !strings.Contains(pace, "12.0% used") || !strings.Contains(pace, "Figures: the status line (rate_limits)") {
		p.addf("warden pace does not show the status line's 12.0%%:\n%s", pace)
	}
	if !strings.Contains(pace, "Delay now: 0 s") {
		p.addf("warden pace decides a delay under the allowance:\n%s", pace)
	}
	status := r.warden(t, env, "status")
	if !strings.Contains(status, "pacing delay: 0 s per tool call") {
		p.addf("warden status shows no pacing delay line:\n%s", status)
	}
	for _, e := range evs {
		if e.SleptMS != 0 {
			p.addf("%s slept %d ms under the allowance", e.ToolUseID, e.SleptMS)
		}
		if e.LatencyUS > 2e6 {
			p.addf("%s took %d µs: slower than a hook should be", e.ToolUseID, e.LatencyUS)
		}
	}
	screen := u.screen()
	t.Logf("status line: %s", statusLine(screen))
	if !strings.Contains(screen, "5h 12%") {
		p.addf("the status line does not show 5h 12%%:\n%s", screen)
	}
	u.exit(t)
	return p
}

// subscriberOver: over the safe allowance each tool call waits the decided
// delay and the model is told why; a window passing 80 % is told to the
// user once.
func subscriberOver(t *testing.T, pacingOn bool) problems {
	var p problems
	r, env, claude := subscriberRun(t, "over", pacingOn, overAllowance, twoTurns())
	u, evs, ok := r.secondTurn(t, &p, env, claude, "over", "26.0%")
	if !ok {
		return p
	}
	r.checkSlept(t, &p, env, overAllowance, evs, 1, paceMaxDelay)
	t.Logf("status line: %s", statusLine(u.screen()))
	if n := modelTold(r.API.MainRequests()); n < len(evs) {
		p.addf("the model was told why it waited %d times, want %d", n, len(evs))
	}
	if !pacingOn {
		// The rest needs the throttle; with pacing off the above failed.
		u.exit(t)
		return p
	}

	// The 5-hour window passes 80 %: with a short max_delay, the next
	// calls are told to the user once, however many follow.
	r.writePacingConfig(t, pacingOn, 3)
	r.API.SetRateLimits(pastEighty)
	r.API.AppendSteps(
		toolTurn("sleep 2; echo four"), Step{Text: "Four done."},
		toolTurn("echo five"), toolTurn("echo six"), Step{Text: "Six done."},
		toolTurn("echo seven"), Step{Text: "Seven done."})
	u.prompt(t, "third", 90*time.Second)
	if !r.waitFigures(t, &p, env, "85.0%") {
		return p
	}
	u.prompt(t, "fourth", 90*time.Second)
	u.prompt(t, "fifth", 90*time.Second)
	all := u.history()
	if n := strings.Count(all, "passed 80%"); n != 1 {
		p.addf("the 80%% notice was shown %d times, want once:\n%s", n, all)
	}
	t.Logf("status line: %s", statusLine(u.screen()))
	u.exit(t)
	return p
}

// subscriberFairShare: two sessions at once, in two projects, each wait
// about twice the single-session delay; warden status counts both.
func subscriberFairShare(t *testing.T, pacingOn bool) problems {
	var p problems
	r, env, claude := subscriberRun(t, "share", pacingOn, overAllowance, nil)
	projB := r.Proj + "-b"
	if err := os.MkdirAll(projB, 0o755); err != nil {
		t.Fatal(err)
	}
	r.trustProjects(t, r.Proj, projB)
	// Both sessions run the same script: the step is the number of
	// assistant messages in a request, the same in each conversation.
	r.API.SetScript(twoTurns())
	a := r.startTUI(t, "a", r.Proj, env, claude)
	b := r.startTUI(t, "b", projB, env, claude)
	a.prompt(t, "first", 90*time.Second)
	b.prompt(t, "first", 90*time.Second)
	if !r.waitFigures(t, &p, env, "26.0%") {
		return p
	}
	after := r.lastEventID(t)
	sa, sb := a.send(t, "second"), b.send(t, "second")
	a.waitStop(t, sa, 150*time.Second)
	b.waitStop(t, sb, 150*time.Second)
	status := r.warden(t, env, "status")
	if !strings.Contains(status, "2 active session") {
		p.addf("warden status does not count 2 active sessions:\n%s", status)
	}
	for _, u := range []*TUI{a, b} {
		evs := r.toolEvents(t, u.Session(), after)
		if len(evs) != 2 {
			p.addf("%d PostToolUse events in %s's second turn, want 2", len(evs), u.name)
		}
		r.checkSlept(t, &p, env, overAllowance, evs, 2, paceMaxDelay)
	}
	a.exit(t)
	b.exit(t)
	return p
}

// subscriberNoFigures: a session's first status line has no rate_limits.
// With none stored, nothing waits and warden says it knows no figures;
// once figures were stored, a new session whose replies carry none keeps
// them and waits as they decide.
func subscriberNoFigures(t *testing.T, pacingOn bool) problems {
	var p problems
	r, env, claude := subscriberRun(t, "nofigures", pacingOn, nil, []Step{
		toolTurn("sleep 2; echo one"), {Text: "One done."},
		toolTurn("echo two"), {Text: "Two done."},
	})
	u := r.startTUI(t, "first", r.Proj, env, claude)
	u.prompt(t, "first", 90*time.Second)
	u.prompt(t, "second", 90*time.Second)
	for _, e := range r.toolEvents(t, u.Session(), 0) {
		if e.SleptMS != 0 {
			p.addf("%s slept %d ms with no figures known", e.ToolUseID, e.SleptMS)
		}
	}
	if st := r.warden(t, env, "status"); !strings.Contains(st, "no subscription limits known") {
		p.addf("warden status does not say it knows no figures:\n%s", st)
	}
	// Figures arrive.
	r.API.SetRateLimits(overAllowance)
	r.API.AppendSteps(toolTurn("sleep 2; echo three"), Step{Text: "Three done."})
	u.prompt(t, "third", 90*time.Second)
	if !r.waitFigures(t, &p, env, "26.0%") {
		return p
	}
	u.exit(t)

	// A new session whose replies carry no headers: its status lines have
	// no rate_limits, and the stored figures still decide.
	r.API.SetRateLimits(nil)
	r.API.SetScript([]Step{toolTurn("echo four"), toolTurn("echo five"), {Text: "Five done."}})
	v := r.startTUI(t, "second", r.Proj, env, claude)
	v.prompt(t, "fourth", 120*time.Second)
	evs := r.toolEvents(t, v.Session(), 0)
	if len(evs) != 2 {
		p.addf("%d PostToolUse events in the new session, want 2", len(evs))
	}
	r.checkSlept(t, &p, env, overAllowance, evs, 1, paceMaxDelay)
	v.exit(t)
	return p
}

// statusLine picks warden's status line off a screen.
func statusLine(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, " 5h ") || strings.Contains(l, "ctx ") {
			return strings.TrimSpace(l)
		}
	}
	return "(none)"
}
