package codexrl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tokenCount is a token_count line as Codex 0.171 writes it.
func tokenCount(ts string, p5, p7 float64, r5, r7 int64) string {
	return fmt.Sprintf(`{"timestamp":"%s","ordinal":13,"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1}},"rate_limits":{"limit_id":"codex","primary":{"used_percent":%g,"window_minutes":300,"resets_at":%d},"secondary":{"used_percent":%g,"window_minutes":10080,"resets_at":%d},"credits":null,"plan_type":null}}}`,
		ts, p5, r5, p7, r7)
}

func write(t *testing.T, path string, lines ...string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLatestReadsTheNewestLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	// The newest limits sit before 200 KB of later lines: the tail is
	// read further back until they are found.
	filler := `{"timestamp":"2026-11-28T10:00:05.000Z","type":"response_item","payload":{"type":"function_call_output","output":"` + strings.Repeat("x", 1000) + `"}}`
	r5, r7 := time.Date(2026, 11, 28, 14, 0, 0, 0, time.UTC).Unix(), time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC).Unix()
	lines := []string{
		`{"timestamp":"2026-11-28T10:00:00.000Z","type":"session_meta","payload":{"id":"s"}}`,
		tokenCount("2026-11-28T10:00:01.000Z", 10, 30, r5, r7),
		tokenCount("2026-11-28T10:00:02.000Z", 12.5, 40, r5, r7),
		// Text that mentions the words is not an event.
		`{"timestamp":"2026-11-28T10:00:03.000Z","type":"response_item","payload":{"type":"message","content":"\"event_msg\" \"token_count\" \"rate_limits\""}}`,
	}
	for range 200 {
		lines = append(lines, filler)
	}
	write(t, path, lines...)
	l, err := Latest(path)
	if err != nil || l == nil {
		t.Fatalf("Latest: %v %v", l, err)
	}
	s := l.Snapshot
	if s.Source != "codex" || !s.Time.Equal(time.Date(2026, 11, 28, 10, 0, 2, 0, time.UTC)) ||
		s.FiveHour.Util == nil || *s.FiveHour.Util != 12.5 || s.FiveHour.ResetsAt.Unix() != r5 ||
		s.SevenDay.Util == nil || *s.SevenDay.Util != 40 || s.SevenDay.ResetsAt.Unix() != r7 || len(l.Ignored) != 0 {
		t.Errorf("snapshot %+v, ignored %v", s, l.Ignored)
	}
}

// The newest token_count decides: once the provider stops sending the
// headers (rate_limits null), there are no figures.
func TestLatestNullLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	write(t, path,
		tokenCount("2026-11-28T10:00:01.000Z", 10, 30, time.Date(2026, 11, 28, 14, 0, 0, 0, time.UTC).Unix(), time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC).Unix()),
		`{"timestamp":"2026-11-28T10:00:03.000Z","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":null}}`,
	)
	if l, err := Latest(path); l != nil || err != nil {
		t.Errorf("Latest = %+v, %v; want none", l, err)
	}
	if l, err := Latest(filepath.Join(t.TempDir(), "none.jsonl")); l != nil || err == nil {
		t.Errorf("a missing rollout: %+v, %v", l, err)
	}
}

func TestParseWindowsByLength(t *testing.T) {
	// resets_in_seconds (older releases) counts from the line's time; a
	// 60-minute window is not one pacing knows.
	l := Parse([]byte(`{"timestamp":"2026-11-28T10:00:00Z","type":"event_msg","payload":{"type":"token_count","rate_limits":{"primary":{"used_percent":5,"window_minutes":60,"resets_in_seconds":60},"secondary":{"used_percent":7,"resets_in_seconds":3600}}}}`))
	if l == nil {
		t.Fatal("nil")
	}
	if l.Snapshot.FiveHour.Util != nil || *l.Snapshot.SevenDay.Util != 7 ||
		!l.Snapshot.SevenDay.ResetsAt.Equal(time.Date(2026, 11, 28, 11, 0, 0, 0, time.UTC)) || fmt.Sprint(l.Ignored) != "[1h0m0s]" {
		t.Errorf("%+v", l)
	}
	// A 5-hour window said to reset in 48 days is not used.
	far := Parse([]byte(`{"timestamp":"2026-11-28T10:00:00Z","type":"event_msg","payload":{"type":"token_count","rate_limits":{"primary":{"used_percent":5,"window_minutes":300,"resets_at":1800000000}}}}`))
	if far == nil || far.Snapshot.FiveHour.Util != nil || len(far.Ignored) != 1 || !strings.Contains(far.Ignored[0], "beyond its length") {
		t.Errorf("far reset: %+v", far)
	}
	for _, bad := range []string{``, `{}`, `{"type":"event_msg","payload":{"rate_limits":null}}`, `not json`,
		`{"timestamp":"2026-11-28T10:00:00Z","type":"event_msg","payload":{"rate_limits":{"primary":null,"secondary":null}}}`} {
		if Parse([]byte(bad)) != nil {
			t.Errorf("Parse(%q) gave limits", bad)
		}
	}
}

func TestNewestRollout(t *testing.T) {
	home := t.TempDir()
	if p, err := Newest(home); p != "" || err != nil {
		t.Fatalf("empty home: %q %v", p, err)
	}
	old := filepath.Join(home, "sessions", "2026", "11", "27", "rollout-a.jsonl")
	newer := filepath.Join(home, "sessions", "2026", "11", "28", "rollout-b.jsonl")
	newest := filepath.Join(home, "sessions", "2026", "11", "28", "rollout-c.jsonl")
	for i, p := range []string{old, newer, newest} {
		write(t, p, "{}")
		mt := time.Date(2026, 11, 28, 10, i, 0, 0, time.UTC)
		if i == 2 {
			mt = mt.Add(-time.Hour) // c was written before b
		}
		os.Chtimes(p, mt, mt)
	}
	if p, err := Newest(home); p != newer || err != nil {
		t.Errorf("Newest = %q %v, want %q", p, err, newer)
	}
	if h := Home(func(k string) string { return map[string]string{"CODEX_HOME": "/x/codex", "HOME": "/h"}[k] }); h != "/x/codex" {
		t.Errorf("Home with CODEX_HOME: %q", h)
	}
	if h := Home(func(k string) string { return map[string]string{"HOME": "/h"}[k] }); h != "/h/.codex" {
		t.Errorf("Home: %q", h)
	}
}
