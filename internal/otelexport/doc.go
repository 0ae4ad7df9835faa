// Package otelexport sends warden's decisions to an OpenTelemetry
// collector: every recorded hook event as an OTLP log record, and counters
// and latency histograms as OTLP metrics, over OTLP/HTTP (protobuf).
//
// It reads the local store's events past a mark, as the shipper does, so
// it never runs in a hook: the keeper runs it as a child
// (`warden-helper otel`) and `warden serve` in its own process. The
// OpenTelemetry SDK is linked into warden-helper only;
// warden and warden-core, which every hook starts, never link it.
package otelexport
