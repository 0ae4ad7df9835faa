package daemon

import (
	"context"
	"log/slog"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/otelexport"
)

// startOTel sends what hooks record to the daemon's local store to an
// OpenTelemetry collector (internal/otelexport) when an endpoint is
// configured — OTEL_EXPORTER_OTLP_ENDPOINT in the daemon's environment or
// otel.endpoint — as the keeper's child does without a daemon. stop ends
// it after a last flush; it must run before the store closes.
func startOTel(st otelexport.Source, cfg *config.Config, log *slog.Logger) (stop func()) {
	endpoint, from := cfg.OTelEndpoint(nil)
	if endpoint == "" {
		return func() {}
	}
	o := otelexport.Options{Source: st, Traces: cfg.TracesOn(nil), Log: log.With("component", "otel")}
	if from == "otel.endpoint" {
		o.Endpoint = endpoint // otherwise the SDK reads the variables itself
	}
	ctx, cancel := context.WithCancel(context.Background())
	e, err := otelexport.New(ctx, o)
	if err != nil {
		cancel()
		log.Error("OpenTelemetry export not started", "err", err, "endpoint_from", from)
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = e.Run(ctx)
	}()
	log.Info("OpenTelemetry export on", "endpoint_from", from, "traces", o.Traces)
	return func() { cancel(); <-done }
}
