package handlers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/session"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// A Codex PostToolUse is paced by the rate limits in its own rollout (and
// nothing else): Claude Code's 99 % figures in the store do not touch it,
// nor a Gemini or Copilot session, which expose no quota.
func TestPacingCodexFromRollout(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	t.Setenv("CLAUDE_CODE_OAUTH_TOKEN", "")
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// A weekday noon, so the adaptive formula decides.
	now := time.Date(2025, 11, 6, 12, 0, 0, 0, time.UTC)
	util, reset := 99.0, now.Add(30*time.Minute)
	st.AddSnapshot(ctx, &quota.Snapshot{Time: now, Source: quota.SourceStatusline,
		FiveHour: quota.Window{Util: &util, ResetsAt: &reset}})

	reset5, reset7 := now.Add(4*time.Hour), now.Add(72*time.Hour)
	rollout := filepath.Join(t.TempDir(), "rollout-x.jsonl")
	line := fmt.Sprintf(`{"timestamp":"%s","type":"event_msg","payload":{"type":"token_count","rate_limits":{"primary":{"used_percent":20.5,"window_minutes":300,"resets_at":%d},"secondary":{"used_percent":10,"window_minutes":10080,"resets_at":%d}}}}`,
		now.Add(-3*time.Second).Format(time.RFC3339Nano), reset5.Unix(), reset7.Unix())
	if err := os.WriteFile(rollout, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	call := func(h string) event.Decision {
		c := &pipeline.Call{Event: event.PostToolUse, Input: &event.Input{SessionID: "sess-" + h, TranscriptPath: rollout},
			State: &session.State{}, Config: config.Defaults(), Store: st, Enabled: true, Now: now, Harness: h}
		d, err := runPacing(ctx, c)
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		return d
	}
	want := pace.Decide(pace.Input{Now: now, FiveHour: pace.Window{Utilization: 20.5, ResetsAt: &reset5},
		SevenDay: pace.Window{Utilization: 10, ResetsAt: &reset7}}, pace.DefaultSettings().Params).DelaySeconds
	if want == 0 || want >= 350 {
		t.Fatalf("test figures give delay %d", want)
	}
	if d := call("codex"); d.Sleep != time.Duration(want)*time.Second || d.SystemMessage != "" {
		t.Errorf("codex: sleep %v (want %d s), message %q", d.Sleep, want, d.SystemMessage)
	}
	snap, _ := st.LatestSnapshot(ctx, quota.SourceCodex)
	if snap == nil || snap.SessionID != "sess-codex" || *snap.FiveHour.Util != 20.5 {
		t.Errorf("stored Codex figures %+v", snap)
	}
	for _, h := range []string{"gemini", "copilot"} {
		if d := call(h); d.Sleep != 0 || d.Context != "" || d.SystemMessage != "" {
			t.Errorf("%s was paced: %+v", h, d)
		}
	}
	// A rollout not written yet: the stored figures stand.
	rollout = filepath.Join(t.TempDir(), "missing.jsonl")
	if d := call("codex"); d.Sleep != time.Duration(want)*time.Second {
		t.Errorf("codex, rollout missing: sleep %v (want %d s)", d.Sleep, want)
	}
	// Claude Code still goes by its own figures (99 %: the emergency).
	if d := call("claude"); d.Sleep != 350*time.Second {
		t.Errorf("claude: sleep %v, want 350s", d.Sleep)
	}
}
