package otelexport

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	otellog "go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/metric"

	"github.com/warden-dev/warden/internal/store"
)

// EventName is the log record's event name for a recorded hook event.
const EventName = "warden.hook"

// Attribute names. Claude Code's own telemetry names where the two join
// (session.id, tool_name, decision), OpenTelemetry's semantic conventions
// where they have one (error.type, file.path), warden.* for the rest.
const (
	AttrSession   = "session.id"
	AttrTool      = "tool_name"
	AttrDecision  = "decision"
	AttrHookEvent = "warden.hook.event"
	AttrRule      = "warden.rule"
	AttrMode      = "warden.mode"
	AttrReason    = "warden.reason"
	AttrEventID   = "warden.event.id"
	AttrHarness   = "warden.harness"
	AttrToolUseID = "warden.tool_use_id"
	AttrCwd       = "warden.cwd"
	AttrTask      = "warden.task.id"
	AttrLatencyMS = "warden.latency_ms"
	AttrSleptMS   = "warden.slept_ms"
	AttrFile      = "file.path"
	AttrErrorType = "error.type"
	AttrError     = "warden.error"
)

// emit makes one log record of ev.
func (e *Exporter) emit(ctx context.Context, ev *store.Event) {
	var r otellog.Record
	r.SetEventName(EventName)
	r.SetTimestamp(ev.Time)
	r.SetObservedTimestamp(time.Now())
	sev, text := severity(ev)
	r.SetSeverity(sev)
	r.SetSeverityText(text)
	body := fmt.Sprintf("%s %s", ev.Event, ev.Decision)
	if ev.Tool != "" {
		body = fmt.Sprintf("%s %s %s", ev.Event, ev.Tool, ev.Decision)
	}
	if ev.Rule != "" {
		body += " by " + ev.Rule
	}
	if ev.Reason != "" {
		body += ": " + ev.Reason
	}
	r.SetBody(attribute.StringValue(body))
	r.AddAttributes(eventAttrs(ev)...)
	e.logger.Emit(ctx, r)
}

// eventAttrs are a recorded event's attributes, on its log record and on
// its trace's root span.
func eventAttrs(ev *store.Event) []attribute.KeyValue {
	kv := []attribute.KeyValue{
		attribute.Int64(AttrEventID, ev.ID),
		attribute.String(AttrHookEvent, ev.Event),
		attribute.String(AttrDecision, ev.Decision),
		attribute.Float64(AttrLatencyMS, float64(ev.LatencyUS)/1000),
	}
	add := func(k, v string) {
		if v != "" {
			kv = append(kv, attribute.String(k, v))
		}
	}
	add(AttrSession, ev.SessionID)
	add(AttrTool, ev.Tool)
	add(AttrRule, ev.Rule)
	add(AttrMode, ev.Mode)
	add(AttrReason, ev.Reason)
	add(AttrHarness, ev.Harness)
	add(AttrToolUseID, ev.ToolUseID)
	add(AttrCwd, ev.Cwd)
	add(AttrTask, ev.TaskID)
	add(AttrFile, ev.Path)
	if ev.SleptMS > 0 {
		kv = append(kv, attribute.Int64(AttrSleptMS, ev.SleptMS))
	}
	if ev.Error != "" {
		add(AttrErrorType, "hook_failed_open")
		add(AttrError, ev.Error)
	}
	return kv
}

func severity(ev *store.Event) (otellog.Severity, string) {
	switch {
	case ev.Error != "":
		return otellog.SeverityError, "ERROR"
	case ev.Decision == "deny":
		return otellog.SeverityWarn, "WARN"
	case ev.Decision == "ask" || ev.Decision == "warn":
		return otellog.SeverityInfo2, "INFO"
	}
	return otellog.SeverityInfo, "INFO"
}

// measure adds ev to the counters and the latency histogram.
func (e *Exporter) measure(ctx context.Context, ev *store.Event) {
	attrs := []attribute.KeyValue{attribute.String(AttrHookEvent, ev.Event), attribute.String(AttrDecision, ev.Decision)}
	if ev.Tool != "" {
		attrs = append(attrs, attribute.String(AttrTool, ev.Tool))
	}
	latency := metric.WithAttributes(attrs...)
	if ev.Rule != "" {
		attrs = append(attrs, attribute.String(AttrRule, ev.Rule))
	}
	e.decisions.Add(ctx, 1, metric.WithAttributes(attrs...))
	e.latency.Record(ctx, float64(ev.LatencyUS)/1e6, latency)
	if ev.Error != "" {
		e.errors.Add(ctx, 1, metric.WithAttributes(attribute.String(AttrHookEvent, ev.Event)))
	}
}
