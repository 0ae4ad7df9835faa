// Package hookspan carries the timings of a hook's handlers from the hook
// to the trace export: the hook measures each handler with the monotonic
// clock it already reads (pipeline.Result), and writes them into the
// event's record as one short string; the export (internal/otelexport, in
// warden-helper) builds the spans from it after the fact. So a hook pays
// a few appends for its traces, never the OpenTelemetry SDK.
//
// The form is one entry per handler, in run order, separated by ";":
//
//	name:start_us:duration_us:verdict[:e]
//
// start_us is microseconds since the hook began (the event's time), the
// verdict is the handler's ("" when it left the call alone), e marks a
// handler that failed.
package hookspan

import (
	"strconv"
	"strings"
	"time"
)

// Span is one handler's run within a hook.
type Span struct {
	Handler string
	// Start is since the hook began; Duration how long the handler took.
	Start, Duration time.Duration
	Verdict         string
	Failed          bool
}

// Append adds s to the encoded spans in b.
func Append(b []byte, s Span) []byte {
	if len(b) > 0 {
		b = append(b, ';')
	}
	b = append(b, clean(s.Handler)...)
	b = append(b, ':')
	b = strconv.AppendInt(b, s.Start.Microseconds(), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, s.Duration.Microseconds(), 10)
	b = append(b, ':')
	b = append(b, clean(s.Verdict)...)
	if s.Failed {
		b = append(b, ":e"...)
	}
	return b
}

// clean keeps the separators out of a name (handler names and verdicts
// never hold them; this is for safety, not for use).
func clean(s string) string {
	if !strings.ContainsAny(s, ":;") {
		return s
	}
	return strings.NewReplacer(":", "_", ";", "_").Replace(s)
}

// Decode reads the spans of a record; entries that do not read are left
// out (a record is never worth failing an export for).
func Decode(s string) []Span {
	if s == "" {
		return nil
	}
	var out []Span
	for _, e := range strings.Split(s, ";") {
		f := strings.Split(e, ":")
		if len(f) < 4 || f[0] == "" {
			continue
		}
		start, err1 := strconv.ParseInt(f[1], 10, 64)
		dur, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil || start < 0 || dur < 0 {
			continue
		}
		out = append(out, Span{Handler: f[0], Start: time.Duration(start) * time.Microsecond,
			Duration: time.Duration(dur) * time.Microsecond, Verdict: f[3], Failed: len(f) > 4 && f[4] == "e"})
	}
	return out
}
