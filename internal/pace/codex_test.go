package pace

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
)

// Codex's figures pace Codex sessions only, with the same maths: a
// Codex decision equals Decide over them, fair-shared among the Codex
// sessions that recorded figures; Claude Code's decision ignores them and
// is not made stale by them.
func TestCodexFiguresPaceCodexOnly(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := DefaultSettings()
	reset5, reset7 := thuNoon.Add(4*time.Hour), thuNoon.Add(72*time.Hour)
	figures := quota.Snapshot{Time: thuNoon.Add(-10 * time.Second),
		FiveHour: quota.Window{Util: fptr(20.5), ResetsAt: &reset5}, SevenDay: quota.Window{Util: fptr(10), ResetsAt: &reset7}}

	rec, err := CodexDecision(ctx, st, s, "c1", thuNoon)
	if err != nil || rec.Note != NoCodexFiguresNote || rec.DelaySeconds != 0 {
		t.Fatalf("no figures: %+v %v", rec, err)
	}
	got, err := RecordCodex(ctx, st, figures, "c1")
	if err != nil || got.Source != quota.SourceCodex || got.SessionID != "c1" {
		t.Fatalf("RecordCodex: %+v %v", got, err)
	}
	// The same line read again stores nothing new.
	again, _ := RecordCodex(ctx, st, figures, "c1")
	if again.ID != got.ID {
		t.Errorf("the same figures were stored twice (%d, %d)", got.ID, again.ID)
	}
	ref := Decide(Input{Now: thuNoon, FiveHour: Window{Utilization: 20.5, ResetsAt: &reset5},
		SevenDay: Window{Utilization: 10, ResetsAt: &reset7}}, s.Params)
	if ref.DelaySeconds == 0 {
		t.Fatalf("test figures give no delay: %+v", ref)
	}
	rec, err = CodexDecision(ctx, st, s, "c1", thuNoon)
	if err != nil || rec.DelaySeconds != ref.DelaySeconds || rec.Sessions != 1 || rec.Figures.Source != quota.SourceCodex {
		t.Fatalf("Codex decision %+v (%v), want delay %d", rec, err, ref.DelaySeconds)
	}
	if txt := CodexReport(rec, thuNoon); !strings.Contains(txt, "Codex's rollout") || !strings.Contains(txt, "5-hour: 20.5% used") {
		t.Errorf("report:\n%s", txt)
	}
	// A second Codex session with newer figures: two share the account.
	figures.Time = thuNoon.Add(-5 * time.Second)
	RecordCodex(ctx, st, figures, "c2")
	rec, _ = CodexDecision(ctx, st, s, "c1", thuNoon)
	if rec.Sessions != 2 || rec.DelaySeconds != FairShare(ref.DelaySeconds, 2, s.Params.MaxDelay) {
		t.Errorf("two Codex sessions: %+v", rec)
	}
	// An older line (another session's rollout lagging) does not replace
	// the newer figures.
	old := figures
	old.Time = thuNoon.Add(-time.Minute)
	old.FiveHour.Util = fptr(1)
	if kept, _ := RecordCodex(ctx, st, old, "c3"); *kept.FiveHour.Util != 20.5 {
		t.Errorf("older figures replaced newer ones: %+v", kept)
	}

	// Claude Code: no figures of its own, so no pacing, whatever Codex's.
	crec, fresh, err := Current(ctx, st, s, "claude-1", thuNoon)
	if err != nil || crec.Note != NoLimitsNote || crec.DelaySeconds != 0 || !fresh {
		t.Fatalf("Claude decision %+v fresh %v %v", crec, fresh, err)
	}
	// Newer Codex figures do not make Claude's cached decision stale.
	figures.Time = thuNoon.Add(time.Second)
	RecordCodex(ctx, st, figures, "c1")
	if _, fresh, _ := Current(ctx, st, s, "claude-1", thuNoon.Add(2*time.Second)); fresh {
		t.Error("Codex figures made Claude Code's decision stale")
	}
}
