package otelexport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	otellog "go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/metric"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/version"
)

// Source is the local store the events are read from and the mark kept in
// (sqlite.Store).
type Source interface {
	EventsAfter(ctx context.Context, after int64, limit int) ([]store.Event, error)
	Events(ctx context.Context, f store.Filter) ([]store.Event, error)
	Setting(ctx context.Context, key string) (string, bool, error)
	SetSetting(ctx context.Context, key, value string) error
}

// SettingMark is the id of the newest local event exported.
const SettingMark = "otel.events"

// Options configure an Exporter; zero values take the defaults.
type Options struct {
	Source Source
	// Endpoint is otel.endpoint, used when no OTEL_EXPORTER_OTLP_*
	// variable names one (the SDK reads those itself).
	Endpoint string
	// Every is how often new events are looked for (default 1 s); Batch
	// the most sent in one request (default 500).
	Every time.Duration
	Batch int
	// MetricInterval is how often metrics are sent (default: the SDK's,
	// OTEL_METRIC_EXPORT_INTERVAL or 60 s).
	MetricInterval time.Duration
	// Traces sends a trace per hook with a span per handler (config
	// TracesOn: otel.traces or OTEL_TRACES_EXPORTER=otlp).
	Traces bool
	Log    *slog.Logger
}

// Exporter sends the store's events as they are recorded.
type Exporter struct {
	o         Options
	logs      *sdklog.LoggerProvider
	logExp    sdklog.Exporter
	pending   *pending
	logger    otellog.Logger
	meters    *sdkmetric.MeterProvider
	decisions metric.Int64Counter
	errors    metric.Int64Counter
	latency   metric.Float64Histogram
	traces    *traces // nil: traces off
}

// New prepares an exporter (no connection is made until the first send).
func New(ctx context.Context, o Options) (*Exporter, error) {
	if o.Source == nil {
		return nil, errors.New("otelexport: no source store")
	}
	if o.Every <= 0 {
		o.Every = time.Second
	}
	if o.Batch <= 0 {
		o.Batch = 500
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "warden"), attribute.String("service.version", version.Version)),
		resource.WithHost(), resource.WithFromEnv()) // OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES win
	if err != nil && res == nil {
		return nil, fmt.Errorf("otel resource: %w", err)
	}
	// The pass retries a failed send itself, on its next tick; the SDK's
	// retry would hold the pass for up to a minute. Metrics keep a short
	// one (their reader runs on its own).
	logOpts := []otlploghttp.Option{otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: false})}
	metricOpts := []otlpmetrichttp.Option{otlpmetrichttp.WithRetry(otlpmetrichttp.RetryConfig{
		Enabled: true, InitialInterval: 500 * time.Millisecond, MaxInterval: 2 * time.Second, MaxElapsedTime: 5 * time.Second})}
	if o.Endpoint != "" {
		base := strings.TrimRight(o.Endpoint, "/")
		logOpts = append(logOpts, otlploghttp.WithEndpointURL(base+"/v1/logs"))
		metricOpts = append(metricOpts, otlpmetrichttp.WithEndpointURL(base+"/v1/metrics"))
	}
	logExp, err := otlploghttp.New(ctx, logOpts...)
	if err != nil {
		return nil, fmt.Errorf("OTLP log exporter: %w", err)
	}
	metricExp, err := otlpmetrichttp.New(ctx, metricOpts...)
	if err != nil {
		return nil, fmt.Errorf("OTLP metric exporter: %w", err)
	}
	e := &Exporter{o: o, logExp: logExp, pending: &pending{}}
	if o.Traces {
		if e.traces, err = newTraces(ctx, res, strings.TrimRight(o.Endpoint, "/")); err != nil {
			return nil, fmt.Errorf("OTLP trace exporter: %w", err)
		}
	}
	// Records are exported by the pass that emitted them, and the mark
	// moves only when that export succeeded: each decision is sent once
	// (again only after a failure), never dropped by a full queue.
	e.logs = sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(e.pending))
	e.logger = e.logs.Logger("github.com/warden-dev/warden", otellog.WithInstrumentationVersion(version.Version))
	var readerOpts []sdkmetric.PeriodicReaderOption
	if o.MetricInterval > 0 {
		readerOpts = append(readerOpts, sdkmetric.WithInterval(o.MetricInterval))
	}
	e.meters = sdkmetric.NewMeterProvider(sdkmetric.WithResource(res), sdkmetric.WithReader(sdkmetric.NewPeriodicReader(metricExp, readerOpts...)))
	m := e.meters.Meter("github.com/warden-dev/warden", metric.WithInstrumentationVersion(version.Version))
	if e.decisions, err = m.Int64Counter("warden.hook.decisions", metric.WithUnit("{decision}"),
		metric.WithDescription("Hook events by decision, rule, event and tool")); err != nil {
		return nil, err
	}
	if e.errors, err = m.Int64Counter("warden.hook.errors", metric.WithUnit("{error}"),
		metric.WithDescription("Hook events that failed open")); err != nil {
		return nil, err
	}
	if e.latency, err = m.Float64Histogram("warden.hook.duration", metric.WithUnit("s"),
		metric.WithDescription("Time warden took to answer a hook, pacing sleeps included"),
		metric.WithExplicitBucketBoundaries(0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 360)); err != nil {
		return nil, err
	}
	return e, nil
}

// Run exports until ctx ends, then flushes and shuts down.
func (e *Exporter) Run(ctx context.Context) error {
	t := time.NewTicker(e.o.Every)
	defer t.Stop()
	failures := 0
	for {
		n, err := e.Pass(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			failures++
			if failures == 1 || failures%60 == 0 {
				e.o.Log.Warn("otel export failed; retrying", "err", err, "failures", failures)
			}
		case err == nil && failures > 0:
			e.o.Log.Info("otel export recovered", "after_failures", failures)
			failures = 0
		}
		if n == e.o.Batch && err == nil {
			continue // more waiting
		}
		select {
		case <-ctx.Done():
			return e.Shutdown(context.WithoutCancel(ctx))
		case <-t.C:
		}
	}
}

// Pass exports the events past the mark, at most one batch, and moves the
// mark. A store with no mark yet starts from its newest event: the export
// covers what is recorded from when it was turned on.
func (e *Exporter) Pass(ctx context.Context) (int, error) {
	// A pass that has started finishes, bounded, even when the process is
	// told to stop: records the receiver took must move the mark (else
	// they would be sent again on the next start) and count in the metrics
	// the shutdown sends.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), passTimeout)
	defer cancel()
	v, ok, err := e.o.Source.Setting(ctx, SettingMark)
	if err != nil {
		return 0, err
	}
	if !ok || v == "" {
		newest, err := e.o.Source.Events(ctx, store.Filter{Limit: 1})
		if err != nil {
			return 0, err
		}
		mark := "0"
		if len(newest) > 0 {
			mark = strconv.FormatInt(newest[0].ID, 10)
		}
		return 0, e.o.Source.SetSetting(ctx, SettingMark, mark)
	}
	mark, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("setting %s = %q is not an event id", SettingMark, v)
	}
	evs, err := e.o.Source.EventsAfter(ctx, mark, e.o.Batch)
	if err != nil || len(evs) == 0 {
		return 0, err
	}
	for i := range evs {
		e.emit(ctx, &evs[i])
		if e.traces != nil {
			e.traces.build(ctx, &evs[i])
		}
	}
	// Traces go first: were the logs then refused, the pass runs again and
	// sends the same spans (their ids derive from the records), where a
	// log record sent twice would count a decision twice.
	if e.traces != nil {
		if err := e.traces.send(ctx); err != nil {
			e.pending.take()
			return 0, fmt.Errorf("send the traces of %d hooks: %w", len(evs), err)
		}
	}
	if err := e.logExp.Export(ctx, e.pending.take()); err != nil {
		return 0, fmt.Errorf("send %d decisions: %w", len(evs), err)
	}
	for i := range evs {
		e.measure(ctx, &evs[i])
	}
	return len(evs), e.o.Source.SetSetting(ctx, SettingMark, strconv.FormatInt(evs[len(evs)-1].ID, 10))
}

// passTimeout bounds one pass (a batch sent, the mark moved).
const passTimeout = 30 * time.Second

// ForceFlush sends the metrics now (tests, and a stopping process).
func (e *Exporter) ForceFlush(ctx context.Context) error { return e.meters.ForceFlush(ctx) }

// Shutdown sends what is left and stops.
func (e *Exporter) Shutdown(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	err := errors.Join(e.meters.Shutdown(ctx), e.logs.Shutdown(ctx), e.logExp.Shutdown(ctx))
	if e.traces != nil {
		err = errors.Join(err, e.traces.shutdown(ctx))
	}
	return err
}

// pending collects the records one pass emits, for the pass to export
// them itself and know whether they arrived.
type pending struct {
	mu   sync.Mutex
	recs []sdklog.Record
}

func (p *pending) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }
func (p *pending) OnEmit(_ context.Context, r *sdklog.Record) error {
	p.mu.Lock()
	p.recs = append(p.recs, r.Clone())
	p.mu.Unlock()
	return nil
}
func (p *pending) Shutdown(context.Context) error   { return nil }
func (p *pending) ForceFlush(context.Context) error { return nil }
func (p *pending) take() []sdklog.Record {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.recs
	p.recs = nil
	return out
}
