package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/hookspan"
)

// Handler timings are kept in the record only while traces are on
// (otel.traces, or OTEL_TRACES_EXPORTER=otlp): one entry per handler that
// ran, in run order, inside the hook's latency.
func TestSpansKeptOnlyWithTraces(t *testing.T) {
	home, _ := env(t)
	call := payload("PreToolUse", `"tool_name":"Bash","tool_input":{"command":"rm -rf ~"}`)
	run := func() {
		t.Helper()
		if _, errs, code := runHook(t, strings.NewReader(call), "--harness", "claude"); code != 0 && code != 2 {
			t.Fatalf("hook: %d %s", code, errs)
		}
	}
	run()
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[otel]\ntraces = true\n"), 0o644)
	run()
	os.Remove(filepath.Join(home, "config.toml"))
	t.Setenv("OTEL_TRACES_EXPORTER", "otlp")
	run()
	t.Setenv("OTEL_TRACES_EXPORTER", "none")
	run()
	evs := events(t, home)
	if len(evs) != 4 {
		t.Fatalf("want 4 events, got %d", len(evs))
	}
	if evs[0].Spans != "" || evs[3].Spans != "" {
		t.Errorf("traces off, yet spans recorded: %q / %q", evs[0].Spans, evs[3].Spans)
	}
	for _, ev := range evs[1:3] {
		spans := hookspan.Decode(ev.Spans)
		if len(spans) < 2 {
			t.Fatalf("traces on: spans %q", ev.Spans)
		}
		var policy *hookspan.Span
		end := time.Duration(0)
		for i := range spans {
			s := &spans[i]
			if s.Start < end {
				t.Errorf("%s starts before the handler before it ended", s.Handler)
			}
			end = s.Start + s.Duration
			if s.Handler == "policy" {
				policy = s
			}
		}
		if end > time.Duration(ev.LatencyUS)*time.Microsecond {
			t.Errorf("handlers end at %v, after the hook's latency %d µs", end, ev.LatencyUS)
		}
		if policy == nil || policy.Verdict != "deny" {
			t.Errorf("the policy's span with its deny: %q", ev.Spans)
		}
	}
}
