package storesource

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// TestOverridesAndRuleStats records blocks and what followed them in a
// real store: only a block whose call ran within the window in the same
// session (same tool_use_id, or same tool on the same file) counts as
// overridden, and the per-rule counts add up.
func TestOverridesAndRuleStats(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(home, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now().UTC()
	rec := func(ago time.Duration, e store.Event) int64 {
		e.Time = now.Add(-ago)
		if err := st.RecordHook(ctx, &e, nil); err != nil {
			t.Fatal(err)
		}
		return e.ID
	}
	block := func(ago time.Duration, sess, dec, rule, tool, tu, path string) int64 {
		return rec(ago, store.Event{SessionID: sess, Event: "PreToolUse", Tool: tool, ToolUseID: tu, Path: path, Decision: dec, Rule: rule, Mode: dec})
	}
	ran := func(ago time.Duration, sess, tool, tu, path string) {
		rec(ago, store.Event{SessionID: sess, Event: "PostToolUse", Tool: tool, ToolUseID: tu, Path: path})
	}
	approved := block(60*time.Minute, "s1", "ask", "r.ask", "Bash", "t1", "")
	ran(59*time.Minute, "s1", "Bash", "t1", "")
	retried := block(50*time.Minute, "s1", "deny", "r.deny", "Write", "t2", "/p/a")
	ran(48*time.Minute, "s1", "Write", "t3", "/p/a") // same file, another call
	block(40*time.Minute, "s1", "deny", "r.deny", "Write", "t4", "/p/b")
	ran(30*time.Minute, "s1", "Write", "t5", "/p/b") // too late
	block(20*time.Minute, "s1", "deny", "r.deny", "Bash", "t6", "")
	ran(19*time.Minute, "s2", "Bash", "t6", "") // another session
	block(15*time.Minute, "s1", "ask", "r.ask", "Edit", "t7", "/p/c")
	ran(14*time.Minute, "s1", "Write", "t8", "/p/c") // another tool
	rec(10*time.Minute, store.Event{SessionID: "s1", Event: "PreToolUse", Tool: "Read", Decision: "audit", Rule: "r.audit", Mode: "audit"})
	rec(90*24*time.Hour, store.Event{SessionID: "s1", Event: "PreToolUse", Tool: "Bash", Decision: "deny", Rule: "r.deny", Mode: "deny"})

	src := New(st, Options{WardenHome: home, UsageDirs: []string{}})
	over, err := src.Overrides(ctx, now.Add(-24*time.Hour), dashboard.OverrideWindow)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]bool{}
	for _, o := range over {
		got[o.Block.ID] = true
	}
	if len(over) != 2 || !got[approved] || !got[retried] {
		t.Fatalf("overrides = %+v, want blocks %d and %d", over, approved, retried)
	}
	stats, err := src.RuleStats(ctx, now.Add(-24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]dashboard.RuleStat{
		"r.deny":  {Deny: 3, Total: 3, Overridden: 1},
		"r.ask":   {Ask: 2, Total: 2, Overridden: 1},
		"r.audit": {Audit: 1, Total: 1},
	}
	if len(stats) != len(want) {
		t.Fatalf("stats = %+v", stats)
	}
	for _, s := range stats {
		w := want[s.Rule]
		if s.Deny != w.Deny || s.Ask != w.Ask || s.Audit != w.Audit || s.Total != w.Total || s.Overridden != w.Overridden {
			t.Errorf("%s: %+v, want %+v", s.Rule, s, w)
		}
	}
}
