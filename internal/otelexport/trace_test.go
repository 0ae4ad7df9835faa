package otelexport_test

import (
	"context"
	"encoding/hex"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"testing"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/warden-dev/warden/internal/hookspan"
	"github.com/warden-dev/warden/internal/otelexport"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// byTrace groups spans by trace id, each trace's spans by start time.
func byTrace(spans []*tracepb.Span) map[string][]*tracepb.Span {
	out := map[string][]*tracepb.Span{}
	for _, s := range spans {
		id := hex.EncodeToString(s.TraceId)
		out[id] = append(out[id], s)
	}
	for _, ss := range out {
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].StartTimeUnixNano < ss[j].StartTimeUnixNano })
	}
	return out
}

func encode(spans ...hookspan.Span) string {
	var b []byte
	for _, s := range spans {
		b = hookspan.Append(b, s)
	}
	return string(b)
}

// With traces on, each recorded hook arrives as one trace: a root span
// over the hook's time with the event's attributes, and one child span per
// handler at the offsets and durations the hook measured. A collector that
// refuses the traces delays them and the logs alike; sent again they keep
// their ids, and no span or record arrives twice.
func TestHookTraces(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e, err := otelexport.New(ctx, otelexport.Options{Source: st, Endpoint: srv.URL, Traces: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Pass(ctx); err != nil { // marks the start
		t.Fatal(err)
	}
	now := testenv.Now().Truncate(time.Microsecond)
	us := time.Microsecond
	evs := []store.Event{
		{Time: now, SessionID: "s1", Event: "PreToolUse", Tool: "Bash", ToolUseID: "toolu_1", Decision: "deny",
			Rule: "core.git:push-force", Mode: "deny", LatencyUS: 900,
			Spans: encode(hookspan.Span{Handler: "policy", Start: 40 * us, Duration: 300 * us, Verdict: "deny"},
				hookspan.Span{Handler: "safemode", Start: 350 * us, Duration: 20 * us},
				hookspan.Span{Handler: "judge-pretool", Start: 380 * us, Duration: 5 * us})},
		{Time: now.Add(time.Second), SessionID: "s1", Event: "Stop", Decision: "allow", LatencyUS: 2000, Error: "handler tempo: boom",
			Spans: encode(hookspan.Span{Handler: "tempo", Start: 10 * us, Duration: 1500 * us, Failed: true})},
		{Time: now.Add(2 * time.Second), SessionID: "s2", Event: "SessionStart", Decision: "allow", LatencyUS: 500}, // recorded without timings
	}
	for i := range evs {
		if err := st.RecordHook(ctx, &evs[i], nil); err != nil {
			t.Fatal(err)
		}
	}
	rc.mu.Lock()
	rc.fail = true
	rc.mu.Unlock()
	if _, err := e.Pass(ctx); err == nil {
		t.Fatal("a collector answering 503 must fail the pass")
	}
	rc.mu.Lock()
	rc.fail = false
	rc.mu.Unlock()
	if n, err := e.Pass(ctx); n != 3 || err != nil {
		t.Fatalf("pass: %d %v", n, err)
	}
	if n, _ := e.Pass(ctx); n != 0 {
		t.Fatalf("nothing new, yet %d sent", n)
	}

	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.logs) != 3 {
		t.Errorf("want 3 log records, got %d", len(rc.logs))
	}
	seen := map[string]bool{}
	for _, s := range rc.spans {
		id := hex.EncodeToString(s.SpanId)
		if seen[id] {
			t.Errorf("span %s %s arrived twice", s.Name, id)
		}
		seen[id] = true
	}
	traces := byTrace(rc.spans)
	if len(traces) != 3 {
		t.Fatalf("want 3 traces (one per hook), got %d", len(traces))
	}
	wantSpans := map[string][]string{
		"hook PreToolUse":   {"handler policy", "handler safemode", "handler judge-pretool"},
		"hook Stop":         {"handler tempo"},
		"hook SessionStart": nil,
	}
	for _, spans := range traces {
		root := spans[0]
		if len(root.ParentSpanId) != 0 {
			t.Errorf("trace's first span %s has a parent", root.Name)
		}
		want, ok := wantSpans[root.Name]
		if !ok {
			t.Errorf("unexpected root span %q", root.Name)
			continue
		}
		if len(spans) != 1+len(want) {
			t.Errorf("%s: %d spans, want %d", root.Name, len(spans), 1+len(want))
			continue
		}
		for i, s := range spans[1:] {
			if s.Name != want[i] || hex.EncodeToString(s.ParentSpanId) != hex.EncodeToString(root.SpanId) {
				t.Errorf("%s child %d: %q with parent %x, want %q under %x", root.Name, i, s.Name, s.ParentSpanId, want[i], root.SpanId)
			}
			if s.StartTimeUnixNano < root.StartTimeUnixNano || s.EndTimeUnixNano > root.EndTimeUnixNano {
				t.Errorf("%s lies outside its hook's span", s.Name)
			}
		}
		switch root.Name {
		case "hook PreToolUse":
			a := attrs(root.Attributes)
			for k, v := range map[string]string{"session.id": "s1", "tool_name": "Bash", "gen_ai.tool.name": "Bash",
				"gen_ai.tool.call.id": "toolu_1", "decision": "deny", "warden.rule": "core.git:push-force", "warden.hook.event": "PreToolUse"} {
				if a[k] != v {
					t.Errorf("root attribute %s = %q, want %q", k, a[k], v)
				}
			}
			if root.StartTimeUnixNano != uint64(now.UnixNano()) || root.EndTimeUnixNano != uint64(now.Add(900*us).UnixNano()) {
				t.Errorf("root span %d–%d, want the hook's time over its 900 µs", root.StartTimeUnixNano, root.EndTimeUnixNano)
			}
			p := spans[1]
			if p.StartTimeUnixNano != uint64(now.Add(40*us).UnixNano()) || p.EndTimeUnixNano-p.StartTimeUnixNano != 300_000 {
				t.Errorf("policy span %d+%d, want the measured offset and duration", p.StartTimeUnixNano, p.EndTimeUnixNano-p.StartTimeUnixNano)
			}
			if a := attrs(p.Attributes); a["warden.handler"] != "policy" || a["warden.handler.verdict"] != "deny" {
				t.Errorf("policy span attributes %v", a)
			}
			if root.Kind != tracepb.Span_SPAN_KIND_INTERNAL {
				t.Errorf("kind %v", root.Kind)
			}
		case "hook Stop":
			if root.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || spans[1].Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR ||
				attrs(spans[1].Attributes)["error.type"] != "handler_failed" {
				t.Errorf("a failed handler's span and its hook's must say so: %v / %v", root.Status, spans[1].Status)
			}
		}
	}
}
