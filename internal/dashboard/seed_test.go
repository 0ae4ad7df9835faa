package dashboard_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
)

// seed fills the store with what a day of use leaves: events of two
// sessions with every decision, an ask the user approved (an override), a
// subagent, judge calls, quota snapshots across both windows, transcripts
// for the usage reports, and tasks in every column.
func seed(t testing.TB, e *env, now time.Time) {
	t.Helper()
	ctx := context.Background()
	rec := func(ago time.Duration, ev store.Event) {
		ev.Time = now.Add(-ago)
		if ev.Harness == "" {
			ev.Harness = "claude"
		}
		if err := e.st.RecordHook(ctx, &ev, &store.Session{ID: ev.SessionID, Cwd: ev.Cwd}); err != nil {
			t.Fatal(err)
		}
	}
	a, b := "a1b2c3d4-0000-4000-8000-000000000001", "f9e8d7c6-0000-4000-8000-000000000002"
	rec(50*time.Minute, store.Event{SessionID: a, Event: "SessionStart", Cwd: "/home/dev/shop"})
	rec(49*time.Minute, store.Event{SessionID: a, Event: "UserPromptSubmit", Cwd: "/home/dev/shop"})
	rec(48*time.Minute, store.Event{SessionID: a, Event: "PreToolUse", Tool: "Bash", ToolUseID: "tu1", Cwd: "/home/dev/shop", LatencyUS: 900})
	rec(47*time.Minute, store.Event{SessionID: a, Event: "PostToolUse", Tool: "Bash", ToolUseID: "tu1", Cwd: "/home/dev/shop", LatencyUS: 700})
	rec(40*time.Minute, store.Event{SessionID: a, Event: "PreToolUse", Tool: "Bash", ToolUseID: "tu2", Cwd: "/home/dev/shop",
		Decision: "deny", Rule: "git.force_push_protected", Mode: "deny", Reason: "force-push to main rewrites shared history", LatencyUS: 1200})
	rec(30*time.Minute, store.Event{SessionID: a, Event: "PreToolUse", Tool: "Write", ToolUseID: "tu3", Path: "/home/dev/shop/.env", Cwd: "/home/dev/shop",
		Decision: "ask", Rule: "files.secrets", Mode: "ask", Reason: "writes a secrets file", LatencyUS: 1100,
		Raw: []byte(`{"tool_name":"Write","tool_input":{"file_path":"/home/dev/shop/.env","content":"X=1"},"cwd":"/home/dev/shop"}`)})
	rec(29*time.Minute, store.Event{SessionID: a, Event: "PostToolUse", Tool: "Write", ToolUseID: "tu3", Path: "/home/dev/shop/.env", Cwd: "/home/dev/shop"})
	rec(20*time.Minute, store.Event{SessionID: a, Event: "SubagentStart", AgentID: "agent-7f3a", Cwd: "/home/dev/shop"})
	rec(19*time.Minute, store.Event{SessionID: a, Event: "PreToolUse", Tool: "Edit", AgentID: "agent-7f3a", ToolUseID: "tu4", Path: "/home/dev/shop/cart.go",
		Decision: "warn", Rule: "files.large_edit", Mode: "warn", Reason: "edit of 620 lines", Cwd: "/home/dev/shop"})
	rec(10*time.Minute, store.Event{SessionID: b, Event: "SessionStart", Cwd: "/home/dev/api"})
	rec(9*time.Minute, store.Event{SessionID: b, Event: "PreToolUse", Tool: "Read", ToolUseID: "tu5", Path: "/home/dev/api/main.go", Cwd: "/home/dev/api",
		Decision: "audit", Rule: "audit.reads", Mode: "audit", Reason: "read recorded"})
	rec(8*time.Minute, store.Event{SessionID: b, Event: "PostToolUse", Tool: "Read", ToolUseID: "tu5", Path: "/home/dev/api/main.go", Cwd: "/home/dev/api", SleptMS: 5000, LatencyUS: 5_001_000})
	rec(2*time.Minute, store.Event{SessionID: b, Event: "Stop", Cwd: "/home/dev/api"})

	for i, j := range []sqlite.Judgement{
		{SessionID: a, Judge: "tempo", Provider: "anthropic", Model: "claude-haiku-4-5", TokensIn: 5200, TokensOut: 180, CostUSD: 0.0061, LatencyMS: 1400, Attempts: 1, Verdict: "fail", Decision: "BLOCKED", Reason: "tests were not run after the last edit"},
		{SessionID: a, Judge: "tempo", Provider: "anthropic", Model: "claude-haiku-4-5", TokensIn: 6100, TokensOut: 95, CostUSD: 0.0066, LatencyMS: 1100, Attempts: 1, Verdict: "pass", Decision: "APPROVED", Reason: "work complete"},
		{SessionID: b, Judge: "intent", Provider: "claude-cli", Model: "claude-sonnet-4-5", TokensIn: 12000, TokensOut: 400, CostUSD: 0.042, LatencyMS: 3900, Attempts: 2, Verdict: "open", Error: "deadline exceeded"},
	} {
		j.Time = now.Add(-time.Duration(40-10*i) * time.Minute)
		if err := e.st.RecordJudgementRow(ctx, &j); err != nil {
			t.Fatal(err)
		}
	}

	seedSnapshots(t, e, now)
	seedTranscripts(t, e, now)
	// Warm the usage reports, as a running daemon has them.
	if _, err := e.src().Usage(ctx); err != nil {
		t.Fatal(err)
	}

	for i, tc := range []struct{ prompt, status string }{
		{"Add a /health endpoint to the API", "queued"},
		{"Fix the flaky cart test", "running"},
		{"Upgrade the SQLite driver", "paused"},
		{"Write the release notes for 0.9", "done"},
		{"Refactor the payment client", "failed"},
	} {
		at := now.Add(-time.Duration(90-10*i) * time.Minute).UTC()
		tk := &task.Task{ID: task.NewID(at), Project: "/home/dev/shop", Prompt: tc.prompt, Status: task.Queued,
			Source: "api", CreatedAt: at, UpdatedAt: at}
		if _, _, err := e.st.CreateTask(ctx, tk, 0); err != nil {
			t.Fatal(err)
		}
		path := map[string][]task.Status{"running": {task.Claimed, task.Running}, "paused": {task.Claimed, task.Running, task.Paused},
			"done": {task.Claimed, task.Running, task.Done}, "failed": {task.Claimed, task.Running, task.Failed}}[tc.status]
		for j, st := range path {
			c := task.Change{To: st, Reason: "seeded: " + string(st), Time: at.Add(time.Duration(j+1) * time.Minute)}
			if st == task.Failed {
				msg := "claude exited 1: tests fail"
				c.Error = &msg
			}
			if _, err := e.st.UpdateTask(ctx, tk.ID, c); err != nil {
				t.Fatal(err)
			}
		}
		e.taskIDs[tc.status] = tk.ID
	}
}

// The quota windows of seedSnapshots: the 5-hour one resets in 2 h, the
// 7-day one in 3 days.
func fiveReset(now time.Time) time.Time  { return now.Add(2 * time.Hour).Truncate(time.Minute) }
func sevenReset(now time.Time) time.Time { return now.Add(72 * time.Hour).Truncate(time.Hour) }

// seedSnapshots records status line figures along both windows, the
// newest now.
func seedSnapshots(t testing.TB, e *env, now time.Time) {
	t.Helper()
	f, s := fiveReset(now), sevenReset(now)
	for i := 12; i >= 0; i-- {
		at := now.Add(-time.Duration(i) * 15 * time.Minute)
		fu := 52.0 - float64(i)*3.5
		su := 61.0 - float64(i)*0.4
		snap := &quota.Snapshot{Time: at, Source: quota.SourceStatusline,
			FiveHour: quota.Window{Util: &fu, ResetsAt: &f}, SevenDay: quota.Window{Util: &su, ResetsAt: &s}}
		if _, err := e.st.AddSnapshot(context.Background(), snap); err != nil {
			t.Fatal(err)
		}
	}
	for d := 4; d >= 1; d-- {
		at := now.Add(-time.Duration(d) * 20 * time.Hour)
		su := 61.0 - float64(d)*11
		snap := &quota.Snapshot{Time: at, Source: quota.SourceOAuth, SevenDay: quota.Window{Util: &su, ResetsAt: &s}}
		if _, err := e.st.AddSnapshot(context.Background(), snap); err != nil {
			t.Fatal(err)
		}
	}
}

// seedTranscripts writes Claude Code transcripts for the usage reports:
// a session a day for the last week.
func seedTranscripts(t testing.TB, e *env, now time.Time) {
	t.Helper()
	dir := filepath.Join(e.claude, "projects", "-home-dev-shop")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for d := 6; d >= 0; d-- {
		var lines []string
		sess := fmt.Sprintf("5e55%04d-0000-4000-8000-00000000000%d", d, d)
		for i := 0; i < 3+d%3; i++ {
			ts := now.Add(-time.Duration(d)*24*time.Hour - time.Duration(i)*7*time.Minute).UTC().Format("2006-01-02T15:04:05.000Z")
			lines = append(lines, fmt.Sprintf(`{"type":"assistant","sessionId":%q,"requestId":"req_%d_%d","timestamp":%q,"version":"2.1.330","message":{"id":"msg_%d_%d","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":%d,"output_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d}}}`,
				sess, d, i, ts, d, i, 1200+d*300, 800+i*150, 20000, 90000+d*5000))
		}
		if err := os.WriteFile(filepath.Join(dir, sess+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
