package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/hook"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// figuresFor finds a 5-hour utilisation that gives the wanted delay at now
// with the default parameters (4 h before the reset: multiplier 20): the
// middle of the range that gives it, so the seconds until the hook decides
// do not change the delay. On a weekend any overage is an emergency
// (max_delay), so it reports false.
func figuresFor(want int, now time.Time) (util float64, reset time.Time, ok bool) {
	reset = now.Add(4 * time.Hour).Truncate(time.Second)
	lo, hi := -1.0, -1.0
	for u := 15.0; u < 40; u += 0.01 {
		in := pace.Input{Now: now, FiveHour: pace.Window{Utilization: u, ResetsAt: &reset}}
		if d := pace.Decide(in, pace.DefaultParams()); d.DelaySeconds == want {
			if lo < 0 {
				lo = u
			}
			hi = u
		}
	}
	if lo < 0 {
		return 0, reset, false
	}
	return (lo + hi) / 2, reset, true
}

func pacingEnv(t *testing.T, config string) (home string, st *sqlite.Store) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("WARDEN_HOME", home)
	t.Setenv("CLAUDE_PROJECT_DIR", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir()) // no OAuth token: no poller
	t.Setenv("CLAUDE_CODE_OAUTH_TOKEN", "")
	spawn := pace.Spawn
	pace.Spawn = func(_ *reqenv.Env, args []string) error { t.Errorf("started %v in a test", args); return nil }
	t.Cleanup(func() { pace.Spawn = spawn })
	if config != "" {
		if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(home, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return home, st
}

const postToolUse = `{"session_id":"pace-1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PostToolUse",
	"tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{"command":"ls"},"tool_response":{"stdout":""}}`

// With figures that give a 7 s delay, PostToolUse sleeps 7 s, says why in
// additionalContext, and records slept_ms.
func TestPostToolUseSleepsTheDecidedDelay(t *testing.T) {
	if testing.Short() {
		t.Skip("sleeps 7 s")
	}
	now := time.Now().UTC()
	util, reset, ok := figuresFor(7, now)
	config := ""
	if !ok {
		// Weekend (UTC): every overage is an emergency at max_delay, so
		// make max_delay 7 s and use a utilisation over the safe allowance.
		config = "[pacing]\nmax_delay = 7\n"
		util = 60
	}
	_, st := pacingEnv(t, config)
	if _, err := st.AddSnapshot(context.Background(), &quota.Snapshot{Time: now, Source: quota.SourceStatusline,
		FiveHour: quota.Window{Util: &util, ResetsAt: &reset}}); err != nil {
		t.Fatal(err)
	}

	var out, errb bytes.Buffer
	start := time.Now()
	code := hook.Main([]string{"--harness", "claude"}, strings.NewReader(postToolUse), &out, &errb)
	el := time.Since(start)
	if code != 0 || errb.String() != "" {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if el < 6500*time.Millisecond || el > 7500*time.Millisecond {
		t.Errorf("hook took %v, want 7 s ± 0.5", el)
	}
	var o struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out.Bytes(), &o); err != nil {
		t.Fatalf("output %q: %v", out.String(), err)
	}
	if o.HookSpecificOutput.HookEventName != "PostToolUse" || !strings.Contains(o.HookSpecificOutput.AdditionalContext, "waited 7 s") {
		t.Errorf("additionalContext: %+v", o)
	}
	evs, err := st.Events(context.Background(), store.Filter{Event: "PostToolUse"})
	if err != nil || len(evs) != 1 {
		t.Fatalf("events %v %v", evs, err)
	}
	if ms := evs[0].SleptMS; ms < 6500 || ms > 7500 {
		t.Errorf("slept_ms = %d, want about 7000", ms)
	}
	d, err := st.LatestDecision(context.Background())
	if err != nil || d == nil || d.DelaySeconds != 7 || d.Sessions != 1 {
		t.Errorf("cached decision %+v %v", d, err)
	}
}

// No figures (an API-key user): no sleep, no output, nothing spawned.
func TestPostToolUseWithoutFiguresDoesNothing(t *testing.T) {
	_, st := pacingEnv(t, "")
	var out, errb bytes.Buffer
	start := time.Now()
	code := hook.Main(nil, strings.NewReader(postToolUse), &out, &errb)
	if code != 0 || out.Len() != 0 || errb.Len() != 0 || time.Since(start) > 5*time.Second {
		t.Fatalf("code %d out %q err %q", code, out.String(), errb.String())
	}
	d, err := st.LatestDecision(context.Background())
	if err != nil || d == nil || d.DelaySeconds != 0 {
		t.Fatalf("decision %+v %v", d, err)
	}
	r, _ := pace.LoadRecord(d)
	if r.Note != pace.NoLimitsNote {
		t.Errorf("note %q", r.Note)
	}
}
