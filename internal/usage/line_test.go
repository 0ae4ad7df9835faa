package usage

import (
	"strings"
	"testing"
)

// The cases follow what ccusage 20.0.24 does with such lines (checked by
// hand against the binary; see usage-counting.md).
func TestParseLine(t *testing.T) {
	base := `{"type":"assistant","sessionId":"s","requestId":"r","timestamp":"2026-01-09T10:00:00.000Z","version":"2.1.330","message":{"id":"m","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":3,"output_tokens":4,"cache_creation_input_tokens":5,"cache_read_input_tokens":6}}}`
	rep := func(old, new string) string { return strings.Replace(base, old, new, 1) }
	cases := []struct {
		name string
		line string
		ok   bool
	}{
		{"plain", base, true},
		{"type is not looked at", rep(`"type":"assistant"`, `"type":"progress"`), true},
		{"no requestId", rep(`"requestId":"r",`, ``), true},
		{"empty requestId", rep(`"requestId":"r"`, `"requestId":""`), false},
		{"empty sessionId", rep(`"sessionId":"s"`, `"sessionId":""`), false},
		{"empty message id", rep(`"id":"m"`, `"id":""`), false},
		{"empty model", rep(`"model":"claude-sonnet-4-5-20250929"`, `"model":""`), false},
		{"no model", rep(`"model":"claude-sonnet-4-5-20250929",`, ``), true},
		{"no version", rep(`"version":"2.1.330",`, ``), true},
		{"version 2.1", rep(`"2.1.330"`, `"2.1"`), false},
		{"version v2.1.3", rep(`"2.1.330"`, `"v2.1.3"`), false},
		{"version 2.1.3-beta", rep(`"2.1.330"`, `"2.1.3-beta"`), true},
		{"null cwd anywhere", rep(`"type":"assistant"`, `"type":"assistant","toolUseResult":{"cwd":null}`), false},
		{"other null", rep(`"type":"assistant"`, `"type":"assistant","x":null,"isSidechain":null`), true},
		{"null cache_creation object", rep(`"cache_read_input_tokens":6`, `"cache_read_input_tokens":6,"cache_creation":null`), true},
		{"float tokens", rep(`"input_tokens":3`, `"input_tokens":3.0`), false},
		{"negative tokens", rep(`"output_tokens":4`, `"output_tokens":-4`), false},
		{"string tokens", rep(`"output_tokens":4`, `"output_tokens":"4"`), false},
		{"no output tokens", rep(`,"output_tokens":4`, ``), false},
		{"truncated", base[:len(base)-3], false},
		{"trailing garbage", base + "x", false},
		{"timestamp without ms", rep(`10:00:00.000Z`, `10:00:00Z`), true},
		{"timestamp with offset", rep(`10:00:00.000Z`, `10:00:00.000+00:00`), true},
		{"timestamp with µs", rep(`10:00:00.000Z`, `10:00:00.123456Z`), false},
		{"timestamp with space", rep(`2026-01-09T10`, `2026-01-09 10`), false},
		{"escaped string in content", rep(`"type":"assistant"`, `"type":"assistant","content":"a \"quoted\" \\ {[ text"`), true},
	}
	for _, c := range cases {
		var e rawEntry
		if got := parseLine([]byte(c.line), &e); got != c.ok {
			t.Errorf("%s: ok = %v, want %v", c.name, got, c.ok)
		}
	}
	var e rawEntry
	breakdown := rep(`"cache_read_input_tokens":6`, `"cache_read_input_tokens":6,"cache_creation":{"ephemeral_5m_input_tokens":1,"ephemeral_1h_input_tokens":2},"speed":"fast"`)
	if !parseLine([]byte(breakdown), &e) || e.Cache5m != 1 || e.Cache1h != 2 || e.CacheRead != 6 || !e.Fast || !e.HasSpeed {
		t.Errorf("breakdown: %+v", e)
	}
	if !parseLine([]byte(base), &e) || e.Cache5m != 5 || e.Cache1h != 0 || e.TS != 1767952800000 {
		t.Errorf("plain: %+v", e)
	}
}

func TestCost(t *testing.T) {
	// Figures ccusage 20.0.24 printed for the same tokens.
	cases := []struct {
		model               string
		in, out, c5, c1, cr int64
		fast                bool
		want                float64
	}{
		{"claude-sonnet-4-5-20250929", 1000, 1000, 1000, 0, 1000, false, 0.02205},
		{"claude-sonnet-4-5-20250929", 300000, 0, 0, 0, 0, false, 1.2},
		{"claude-sonnet-4-5-20250929", 0, 300000, 0, 0, 0, false, 5.25},
		{"claude-sonnet-4-5-20250929", 0, 0, 0, 300000, 0, false, 2.4},
		{"claude-sonnet-4-5-20250929", 0, 0, 150000, 150000, 0, false, 1.4625},
		{"claude-sonnet-4-6", 300000, 0, 0, 0, 0, false, 0.9},
		{"claude-opus-4-6", 1000, 1000, 1000, 0, 1000, true, 0.2205},
		{"claude-opus-4-8", 1000, 1000, 1000, 0, 1000, true, 0.0735},
		{"claude-sonnet-4-5-20991231", 1000, 1000, 1000, 0, 1000, false, 0.02205},
		{"anthropic/claude-sonnet-4-5", 1000, 1000, 1000, 0, 1000, false, 0.02205},
		{"claude-3-5-haiku-20241022", 1000, 1000, 1000, 0, 1000, false, 0.00588},
	}
	for _, c := range cases {
		got, ok := Cost(c.model, c.in, c.out, c.c5, c.c1, c.cr, c.fast)
		if !ok || got < c.want*(1-1e-9) || got > c.want*(1+1e-9) {
			t.Errorf("%s: %v (%v), want %v", c.model, got, ok, c.want)
		}
	}
	for _, m := range []string{"claude-sonnet-4-0", "claude-foo-9", ""} {
		if _, ok := Cost(m, 1, 1, 1, 1, 1, false); ok {
			t.Errorf("%s: priced, ccusage does not know it", m)
		}
	}
}
