package otelexport

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/warden-dev/warden/internal/hookspan"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/version"
)

// Trace attributes beside the log record's (eventAttrs): OpenTelemetry's
// GenAI conventions for the tool call a hook judged, warden.* for the
// handlers.
const (
	AttrGenAITool    = "gen_ai.tool.name"
	AttrGenAICallID  = "gen_ai.tool.call.id"
	AttrHandler      = "warden.handler"
	AttrHandlerVerd  = "warden.handler.verdict"
	SpanHookPrefix   = "hook "
	SpanHandlerPrefx = "handler "
)

// traces builds a trace per recorded hook, after the fact, from the record:
// a root span from the event's time over its latency, and a child span per
// handler at the offsets and durations the hook measured (hookspan). The
// ids derive from the record, so a pass sent again after a failure sends
// the same spans, not new ones.
type traces struct {
	tp      *sdktrace.TracerProvider
	exp     sdktrace.SpanExporter
	pending *endedSpans
	tracer  trace.Tracer
}

func newTraces(ctx context.Context, res *resource.Resource, endpoint string) (*traces, error) {
	opts := []otlptracehttp.Option{otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false})}
	if endpoint != "" {
		opts = append(opts, otlptracehttp.WithEndpointURL(endpoint+"/v1/traces"))
	}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, err
	}
	t := &traces{exp: exp, pending: &endedSpans{}}
	t.tp = sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithIDGenerator(recordIDs{}), sdktrace.WithSpanProcessor(t.pending))
	t.tracer = t.tp.Tracer("github.com/warden-dev/warden", trace.WithInstrumentationVersion(version.Version))
	return t, nil
}

// build makes ev's trace; its spans wait in pending for send.
func (t *traces) build(ctx context.Context, ev *store.Event) {
	ctx = context.WithValue(ctx, idsKey{}, newIDSource(ev))
	start := ev.Time
	attrs := eventAttrs(ev)
	if ev.Tool != "" {
		attrs = append(attrs, attribute.String(AttrGenAITool, ev.Tool))
	}
	if ev.ToolUseID != "" {
		attrs = append(attrs, attribute.String(AttrGenAICallID, ev.ToolUseID))
	}
	rctx, root := t.tracer.Start(ctx, SpanHookPrefix+ev.Event, trace.WithTimestamp(start),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	for _, s := range hookspan.Decode(ev.Spans) {
		kv := []attribute.KeyValue{attribute.String(AttrHandler, s.Handler)}
		if s.Verdict != "" {
			kv = append(kv, attribute.String(AttrHandlerVerd, s.Verdict))
		}
		_, sp := t.tracer.Start(rctx, SpanHandlerPrefx+s.Handler, trace.WithTimestamp(start.Add(s.Start)),
			trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(kv...))
		if s.Failed {
			sp.SetAttributes(attribute.String(AttrErrorType, "handler_failed"))
			sp.SetStatus(codes.Error, "handler "+s.Handler+" failed (the hook failed open)")
		}
		sp.End(trace.WithTimestamp(start.Add(s.Start + s.Duration)))
	}
	if ev.Error != "" {
		root.SetStatus(codes.Error, ev.Error)
	}
	root.End(trace.WithTimestamp(start.Add(time.Duration(ev.LatencyUS) * time.Microsecond)))
}

// send exports the spans built since the last send.
func (t *traces) send(ctx context.Context) error {
	spans := t.pending.take()
	if len(spans) == 0 {
		return nil
	}
	return t.exp.ExportSpans(ctx, spans)
}

func (t *traces) shutdown(ctx context.Context) error {
	err := t.tp.Shutdown(ctx)
	if e := t.exp.Shutdown(ctx); err == nil {
		err = e
	}
	return err
}

// endedSpans collects the spans a pass ends, for the pass to export them
// itself and know whether they arrived (as pending does for log records).
type endedSpans struct {
	mu    sync.Mutex
	spans []sdktrace.ReadOnlySpan
}

func (p *endedSpans) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (p *endedSpans) OnEnd(s sdktrace.ReadOnlySpan) {
	p.mu.Lock()
	p.spans = append(p.spans, s)
	p.mu.Unlock()
}
func (p *endedSpans) Shutdown(context.Context) error   { return nil }
func (p *endedSpans) ForceFlush(context.Context) error { return nil }
func (p *endedSpans) take() []sdktrace.ReadOnlySpan {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.spans
	p.spans = nil
	return out
}

// idSource gives one record's trace id and its spans' ids, in order.
type idSource struct {
	mu   sync.Mutex
	seed [32]byte
	n    uint64
}

type idsKey struct{}

func newIDSource(ev *store.Event) *idSource {
	return &idSource{seed: sha256.Sum256([]byte("warden.hook.trace\x00" + strconv.FormatInt(ev.ID, 10) + "\x00" +
		strconv.FormatInt(ev.Time.UnixMicro(), 10) + "\x00" + ev.Hash + "\x00" + ev.SessionID))}
}

func (s *idSource) next() trace.SpanID {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], s.n)
	h := sha256.Sum256(append(s.seed[:], b[:]...))
	var id trace.SpanID
	copy(id[:], h[:8])
	return id
}

// recordIDs is the tracer's id generator: ids from the record the context
// carries (every span here is built with one).
type recordIDs struct{}

func (recordIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	s := ctx.Value(idsKey{}).(*idSource)
	var tid trace.TraceID
	copy(tid[:], s.seed[:16])
	return tid, s.next()
}

func (recordIDs) NewSpanID(ctx context.Context, _ trace.TraceID) trace.SpanID {
	return ctx.Value(idsKey{}).(*idSource).next()
}
