package hook

import "github.com/warden-dev/warden/internal/hookspan"

// spans are the handlers' timings for the record while traces are on
// (otel.traces, or OTEL_TRACES_EXPORTER=otlp in the caller's environment):
// offsets from the hook's start and durations, both from the monotonic
// clock the pipeline already read. The spans themselves are built later,
// by the export (internal/otelexport), never in the hook.
func (r *run) spans() string {
	if len(r.results) == 0 || r.cfg == nil || !r.cfg.TracesOn(r.env.Getenv) {
		return ""
	}
	b := make([]byte, 0, 24*len(r.results))
	for _, res := range r.results {
		b = hookspan.Append(b, hookspan.Span{Handler: res.Handler, Start: res.Started.Sub(r.start),
			Duration: res.Elapsed, Verdict: string(res.Decision.Verdict), Failed: res.Err != nil})
	}
	return string(b)
}
