package otelexport_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/warden-dev/warden/internal/otelexport"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// receiver is an OTLP/HTTP collector endpoint: it decodes the official
// protobuf messages, as a collector's otlpreceiver does, and keeps them.
type receiver struct {
	mu      sync.Mutex
	logs    []*logspb.LogRecord
	metrics []*metricspb.Metric
	spans   []*tracepb.Span
	fail    bool
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "want protobuf", http.StatusUnsupportedMediaType)
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.fail {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	switch r.URL.Path {
	case "/v1/logs":
		var req collogs.ExportLogsServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, rl := range req.ResourceLogs {
			for _, sl := range rl.ScopeLogs {
				rc.logs = append(rc.logs, sl.LogRecords...)
			}
		}
		b, _ := proto.Marshal(&collogs.ExportLogsServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(b)
	case "/v1/metrics":
		var req colmetrics.ExportMetricsServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, rm := range req.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				rc.metrics = append(rc.metrics, sm.Metrics...)
			}
		}
		b, _ := proto.Marshal(&colmetrics.ExportMetricsServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(b)
	case "/v1/traces":
		var req coltrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				rc.spans = append(rc.spans, ss.Spans...)
			}
		}
		b, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(b)
	default:
		http.NotFound(w, r)
	}
}

func newServer(t *testing.T, rc *receiver) string {
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	return srv.URL
}

// settingSet reports whether the export's mark is in the store of home.
func settingSet(t *testing.T, home string) bool {
	st, err := sqlite.Open(context.Background(), filepath.Join(home, "warden.db"))
	if err != nil {
		return false
	}
	defer st.Close()
	_, ok, _ := st.Setting(context.Background(), otelexport.SettingMark)
	return ok
}

func attrs(kv []*commonpb.KeyValue) map[string]string {
	out := map[string]string{}
	for _, a := range kv {
		switch v := a.Value.Value.(type) {
		case *commonpb.AnyValue_StringValue:
			out[a.Key] = v.StringValue
		case *commonpb.AnyValue_IntValue:
			out[a.Key] = "int"
		case *commonpb.AnyValue_DoubleValue:
			out[a.Key] = "double"
		}
	}
	return out
}

// Every decision recorded after the export is on arrives once, with its
// attributes; a collector that is down delays them, never loses or
// doubles them; counters and the latency histogram arrive as metrics.
func TestDecisionsArriveOnceWithAttributes(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := testenv.Now()
	st.RecordHook(ctx, &store.Event{Time: now, SessionID: "before", Event: "Stop", Decision: "allow"}, nil)

	e, err := otelexport.New(ctx, otelexport.Options{Source: st, Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := e.Pass(ctx); n != 0 || err != nil { // marks the start
		t.Fatalf("first pass: %d %v", n, err)
	}
	record := func(ev store.Event) {
		ev.Time = now
		if err := st.RecordHook(ctx, &ev, nil); err != nil {
			t.Fatal(err)
		}
	}
	record(store.Event{SessionID: "s1", Event: "PreToolUse", Harness: "claude", Tool: "Bash", ToolUseID: "tu1", Cwd: "/p",
		Decision: "deny", Rule: "core.git:push-force", Mode: "deny", Reason: "force push to main", LatencyUS: 1800})
	record(store.Event{SessionID: "s1", Event: "PreToolUse", Harness: "claude", Tool: "Write", Path: "/p/a.go", Decision: "allow", LatencyUS: 900})

	rc.mu.Lock()
	rc.fail = true
	rc.mu.Unlock()
	if _, err := e.Pass(ctx); err == nil {
		t.Fatal("a collector answering 503 must fail the pass")
	}
	rc.mu.Lock()
	rc.fail = false
	rc.mu.Unlock()
	if n, err := e.Pass(ctx); n != 2 || err != nil {
		t.Fatalf("pass after the collector is back: %d %v", n, err)
	}
	record(store.Event{SessionID: "s2", Event: "PermissionRequest", Tool: "Bash", Decision: "allow", Error: "store locked", LatencyUS: 2_000_000})
	if n, err := e.Pass(ctx); n != 1 || err != nil {
		t.Fatalf("third pass: %d %v", n, err)
	}
	if n, _ := e.Pass(ctx); n != 0 {
		t.Fatalf("nothing new, yet %d sent", n)
	}
	if err := e.ForceFlush(ctx); err != nil {
		t.Fatal(err)
	}

	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.logs) != 3 {
		t.Fatalf("want 3 log records (each decision once), got %d", len(rc.logs))
	}
	first := rc.logs[0]
	a := attrs(first.Attributes)
	want := map[string]string{"session.id": "s1", "tool_name": "Bash", "decision": "deny", "warden.rule": "core.git:push-force",
		"warden.mode": "deny", "warden.hook.event": "PreToolUse", "warden.reason": "force push to main", "warden.harness": "claude",
		"warden.tool_use_id": "tu1", "warden.cwd": "/p", "warden.event.id": "int", "warden.latency_ms": "double"}
	for k, v := range want {
		if a[k] != v {
			t.Errorf("attribute %s = %q, want %q", k, a[k], v)
		}
	}
	if first.EventName != otelexport.EventName || first.SeverityText != "WARN" || first.TimeUnixNano != uint64(now.UnixMicro()*1000) {
		t.Errorf("record: event %q severity %q time %d", first.EventName, first.SeverityText, first.TimeUnixNano)
	}
	if got := first.Body.GetStringValue(); got != "PreToolUse Bash deny by core.git:push-force: force push to main" {
		t.Errorf("body %q", got)
	}
	if a := attrs(rc.logs[1].Attributes); a["file.path"] != "/p/a.go" {
		t.Errorf("second record: %v", a)
	}
	if a := attrs(rc.logs[2].Attributes); a["error.type"] != "hook_failed_open" || rc.logs[2].SeverityText != "ERROR" {
		t.Errorf("failed hook: %v %s", a, rc.logs[2].SeverityText)
	}

	var decisions int64
	var histCount uint64
	for _, m := range rc.metrics {
		switch m.Name {
		case "warden.hook.decisions":
			for _, p := range m.GetSum().DataPoints {
				decisions += p.GetAsInt()
			}
		case "warden.hook.duration":
			if m.Unit != "s" {
				t.Errorf("duration unit %q", m.Unit)
			}
			for _, p := range m.GetHistogram().DataPoints {
				histCount += p.Count
			}
		}
	}
	if decisions != 3 || histCount != 3 {
		t.Errorf("metrics: %d decisions, %d latencies; want 3 and 3", decisions, histCount)
	}
}
