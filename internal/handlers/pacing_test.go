package handlers

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/session"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// The handler never asks for a sleep past its deadline: with 2 s left and
// an emergency (350 s) decision it asks for at most 2 s. (The runtime caps
// again by the event budget and records what it slept: internal/hook.)
func TestPacingSleepBoundedByDeadline(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	t.Setenv("CLAUDE_CODE_OAUTH_TOKEN", "")
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := testenv.Now().UTC()
	util, reset := 99.0, now.Add(30*time.Minute)
	st.AddSnapshot(context.Background(), &quota.Snapshot{Time: now, Source: quota.SourceStatusline,
		FiveHour: quota.Window{Util: &util, ResetsAt: &reset}})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	c := &pipeline.Call{Event: event.PostToolUse, Input: &event.Input{SessionID: "s"}, State: &session.State{},
		Config: config.Defaults(), Store: st, Enabled: true, Now: now}
	d, err := runPacing(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if d.Sleep <= 0 || d.Sleep > 2*time.Second {
		t.Errorf("sleep %v, want (0, 2s]", d.Sleep)
	}
	// The user is told once that the window passed 95 %.
	if d.SystemMessage == "" {
		t.Errorf("no 95%% notice")
	}
	c.Now = now.Add(time.Minute) // past the decision TTL: recomputed, notice not repeated
	d, _ = runPacing(context.Background(), c)
	if d.SystemMessage != "" {
		t.Errorf("notice repeated: %q", d.SystemMessage)
	}
	if d.Sleep != 350*time.Second {
		t.Errorf("emergency sleep %v, want 350s", d.Sleep)
	}
}
