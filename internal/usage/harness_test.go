package usage_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/usage"
)

// The other CLIs' transcripts, written here in each CLI's format, give the
// figures counted by hand from the same lines.

func writeLines(t *testing.T, path string, lines ...string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func loadHarness(t *testing.T, h, home string) *usage.Data {
	t.Helper()
	env := func(string) string { return "" }
	d, err := usage.LoadHarness(context.Background(), h, usage.HarnessOptions{Home: home, Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func sessionReport(d *usage.Data) usage.SessionReport {
	return usage.Sessions(d, d.Select(usage.Filter{}))
}

func wantTotals(t *testing.T, got usage.Totals, in, out, cacheRead, cacheWrite int64) {
	t.Helper()
	if got.InputTokens != in || got.OutputTokens != out || got.CacheReadTokens != cacheRead || got.CacheCreationTokens != cacheWrite ||
		got.TotalTokens != in+out+cacheRead+cacheWrite {
		t.Errorf("totals %+v, want input %d output %d cache read %d cache write %d", got, in, out, cacheRead, cacheWrite)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestCodexRolloutUsage(t *testing.T) {
	home := t.TempDir()
	rec := func(ts, resp string, in, cached, out, reasoning int64) string {
		return fmt.Sprintf(`{"timestamp":"%s","type":"token_usage_record","payload":{"response_id":"%s","usage":{"input_tokens":%d,"cached_input_tokens":%d,"cache_write_input_tokens":0,"output_tokens":%d,"reasoning_output_tokens":%d,"total_tokens":%d}}}`,
			ts, resp, in, cached, out, reasoning, in+out)
	}
	count := func(ts string, totIn, totCached, totOut int64) string {
		return fmt.Sprintf(`{"timestamp":"%s","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":%d,"cached_input_tokens":%d,"output_tokens":%d,"total_tokens":%d}},"rate_limits":null}}`,
			ts, totIn, totCached, totOut, totIn+totOut)
	}
	// A current rollout: per-response records (the token_count events
	// repeat them and are not counted again); the model changes between
	// turns.
	writeLines(t, filepath.Join(home, ".codex", "sessions", "2026", "11", "28", "rollout-2026-11-28T10-00-00-aaaaaaaa-0000-0000-0000-000000000001.jsonl"),
		`{"timestamp":"2026-11-28T10:00:00.000Z","type":"session_meta","payload":{"id":"sess-a","cwd":"/work/a","base_instructions":{"text":"long"}}}`,
		`{"timestamp":"2026-11-28T10:00:00.100Z","type":"turn_context","payload":{"model":"gpt-5.4"}}`,
		rec("2026-11-28T10:00:01.000Z", "resp_a1", 1000, 100, 20, 5),
		count("2026-11-28T10:00:01.100Z", 1000, 100, 20),
		`{"timestamp":"2026-11-28T10:00:02.000Z","type":"turn_context","payload":{"model":"gpt-5.4-mini"}}`,
		rec("2026-11-28T10:00:03.000Z", "resp_a2", 3000, 2000, 40, 0),
		count("2026-11-28T10:00:03.100Z", 4000, 2100, 60),
		`{"timestamp":"2026-11-28T10:00:04`, // torn last line
	)
	// An older rollout: token_count events only, one repeated, on the
	// next day (UTC).
	writeLines(t, filepath.Join(home, ".codex", "archived_sessions", "rollout-2026-11-29T09-00-00-bbbbbbbb-0000-0000-0000-000000000002.jsonl"),
		`{"timestamp":"2026-11-29T09:00:00.000Z","type":"session_meta","payload":{"id":"sess-b","cwd":"/work/b"}}`,
		`{"timestamp":"2026-11-29T09:00:00.100Z","type":"turn_context","payload":{"model":"gpt-5.4"}}`,
		count("2026-11-29T09:00:01.000Z", 500, 0, 10),
		count("2026-11-29T09:00:01.500Z", 500, 0, 10),
		count("2026-11-29T09:00:02.000Z", 1500, 400, 30),
	)
	d := loadHarness(t, usage.HarnessCodex, home)
	r := sessionReport(d)
	// sess-a: input 900+1000, cache read 100+2000, output 60;
	// sess-b: input 500+600, cache read 400, output 30.
	wantTotals(t, r.Totals, 900+1000+500+600, 60+30, 2100+400, 0)
	if len(r.Sessions) != 2 {
		t.Fatalf("sessions %+v", r.Sessions)
	}
	byID := map[string]usage.SessionRow{}
	for _, s := range r.Sessions {
		byID[s.SessionID] = s
	}
	a, b := byID["sess-a"], byID["sess-b"]
	if a.ProjectPath != "/work/a" || b.ProjectPath != "/work/b" || a.TotalTokens != 900+1000+2100+60 || b.TotalTokens != 1100+400+30 {
		t.Errorf("sessions a %+v b %+v", a, b)
	}
	if fmt.Sprint(a.ModelsUsed) != "[gpt-5.4 gpt-5.4-mini]" {
		t.Errorf("models %v", a.ModelsUsed)
	}
	// gpt-5.4 in the embedded table: $2.5/M input, $0.25/M cached, $15/M output.
	p, m := usage.PriceFor("gpt-5.4"), usage.PriceFor("gpt-5.4-mini")
	want := 900*p.Input + 100*p.CacheRead + 20*p.Output + 1000*m.Input + 2000*m.CacheRead + 40*m.Output
	if !near(a.TotalCost, want) || a.TotalCost == 0 {
		t.Errorf("session a cost %v, want %v", a.TotalCost, want)
	}
	rows, tot := usage.Periods(d, d.Select(usage.Filter{}), usage.Daily, time.UTC, time.Sunday)
	if len(rows) != 2 || rows[0].Period != "2026-11-28" || rows[1].Period != "2026-11-29" || tot.TotalTokens != r.Totals.TotalTokens {
		t.Errorf("daily %+v totals %+v", rows, tot)
	}
}

func TestGeminiChatUsageLastWins(t *testing.T) {
	home := t.TempDir()
	chats := filepath.Join(home, ".gemini", "tmp", "proj", "chats")
	writeLines(t, filepath.Join(home, ".gemini", "tmp", "proj", ".project_root"), "/work/proj")
	msg := func(id, ts string, in, out, cached, thoughts, tool int64, model string) string {
		return fmt.Sprintf(`{"id":"%s","timestamp":"%s","type":"gemini","content":"","tokens":{"input":%d,"output":%d,"cached":%d,"thoughts":%d,"tool":%d,"total":%d},"model":"%s"}`,
			id, ts, in, out, cached, thoughts, tool, in+out+thoughts+tool, model)
	}
	writeLines(t, filepath.Join(chats, "session-2026-11-28T10-00-11111111.jsonl"),
		`{"sessionId":"g-1","projectHash":"abc","startTime":"2026-11-28T10:00:00.000Z","kind":"main"}`,
		`{"$set":{"messages":[{"id":"u0","type":"user","content":[{"text":"hi"}]}]}}`,
		`{"id":"u1","timestamp":"2026-11-28T10:00:01.000Z","type":"user","content":[{"text":"go"}]}`,
		// m1 is written three times as it grows: the last one counts.
		msg("m1", "2026-11-28T10:00:02.000Z", 100, 1, 0, 0, 0, "gemini-3.1-pro-preview"),
		`{"$set":{"lastUpdated":"2026-11-28T10:00:02.000Z"}}`,
		msg("m1", "2026-11-28T10:00:02.000Z", 1000, 16, 100, 4, 0, "gemini-3.1-pro-preview"),
		msg("m1", "2026-11-28T10:00:02.000Z", 1000, 16, 100, 4, 0, "gemini-3.1-pro-preview"),
		// m2 appears first in a messages patch, then as its own line.
		`{"$set":{"messages":[`+msg("m2", "2026-11-28T10:00:03.000Z", 5, 5, 0, 0, 0, "gemini-3.1-pro-preview")+`]}}`,
		msg("m2", "2026-11-28T10:00:03.000Z", 2000, 30, 1500, 0, 7, "gemini-3.1-pro-preview"),
		msg("m3", "2026-11-28T10:00:04.000Z", 10, 2, 0, 0, 0, "gemini-9-unknown"),
	)
	d := loadHarness(t, usage.HarnessGemini, home)
	r := sessionReport(d)
	// m1: input 900, cache 100, output 20; m2: input 507, cache 1500,
	// output 30; m3: input 10, output 2 (unpriced).
	wantTotals(t, r.Totals, 900+507+10, 20+30+2, 1600, 0)
	if len(r.Sessions) != 1 || r.Sessions[0].SessionID != "g-1" || r.Sessions[0].ProjectPath != "/work/proj" {
		t.Fatalf("sessions %+v", r.Sessions)
	}
	want := (900*2 + 100*0.2 + 20*12 + 507*2 + 1500*0.2 + 30*12) / 1e6
	if !near(r.Totals.TotalCost, want) {
		t.Errorf("cost %v, want %v", r.Totals.TotalCost, want)
	}
	if fmt.Sprint(r.Totals.UnpricedModels) != "[gemini-9-unknown]" {
		t.Errorf("unpriced %v", r.Totals.UnpricedModels)
	}
}

func TestCopilotEventsUsage(t *testing.T) {
	home := t.TempDir()
	rec := func(ts, call, model string, in, out, cr, cw int64) string {
		return fmt.Sprintf(`{"type":"session.usage_record","data":{"usage":{"model":"%s","inputTokens":%d,"outputTokens":%d,"cacheReadTokens":%d,"cacheWriteTokens":%d,"reasoningTokens":1,"cost":1.0,"apiCallId":"%s"}},"id":"ev-%s","timestamp":"%s","parentId":null}`,
			model, in, out, cr, cw, call, call, ts)
	}
	for i, sid := range []string{"c-1", "c-2"} {
		writeLines(t, filepath.Join(home, ".copilot", "session-state", sid, "events.jsonl"),
			fmt.Sprintf(`{"type":"session.start","data":{"sessionId":"%s","selectedModel":"gpt-5.4","context":{"cwd":"/work/c%d"}},"id":"s","timestamp":"2026-11-28T10:00:00.000Z"}`, sid, i),
			rec("2026-11-28T10:00:01.000Z", "chatcmpl-1", "gpt-5.4", 1000, 20, 100, 0),
			`{"type":"hook.start","data":{},"id":"h","timestamp":"2026-11-28T10:00:01.500Z"}`,
			rec("2026-11-28T10:00:02.000Z", "chatcmpl-2", "claude-sonnet-4.5", 2000, 30, 1000, 500),
			// The same call recorded again counts once.
			rec("2026-11-28T10:00:02.000Z", "chatcmpl-2", "claude-sonnet-4.5", 2000, 30, 1000, 500),
		)
	}
	d := loadHarness(t, usage.HarnessCopilot, home)
	r := sessionReport(d)
	// Per session: input 900+500, cache read 100+1000, write 500, output 50;
	// the same call ids in two sessions are two calls.
	wantTotals(t, r.Totals, 2*1400, 2*50, 2*1100, 2*500)
	if len(r.Sessions) != 2 || len(r.Totals.UnpricedModels) != 0 {
		t.Fatalf("sessions %+v unpriced %v", r.Sessions, r.Totals.UnpricedModels)
	}
	c := usage.PriceFor("claude-sonnet-4-5")
	if c == nil {
		t.Fatal("no price for claude-sonnet-4-5")
	}
	g := usage.PriceFor("gpt-5.4")
	want := 900*g.Input + 100*g.CacheRead + 20*g.Output + 500*c.Input + 1000*c.CacheRead + 500*c.CacheWrite + 30*c.Output
	if !near(r.Sessions[0].TotalCost, want) {
		t.Errorf("cost %v, want %v", r.Sessions[0].TotalCost, want)
	}
}

func TestHarnessUsageNoFiles(t *testing.T) {
	for _, h := range []string{usage.HarnessCodex, usage.HarnessGemini, usage.HarnessCopilot} {
		d := loadHarness(t, h, t.TempDir())
		if len(d.Entries) != 0 || len(d.Files) != 0 {
			t.Errorf("%s: %+v", h, d)
		}
	}
	if _, err := usage.LoadHarness(context.Background(), "cursor", usage.HarnessOptions{}); err == nil {
		t.Error("an unknown harness loaded")
	}
}
