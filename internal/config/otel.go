package config

import (
	"os"
	"strings"
)

// OTelEndpoint is where warden's OpenTelemetry export goes, and whether it
// is on: the standard OTEL_EXPORTER_OTLP_LOGS_ENDPOINT /
// OTEL_EXPORTER_OTLP_ENDPOINT variables (the SDK then reads the others,
// headers and timeouts, itself), else otel.endpoint — the keeper's only
// way, as Claude Code removes OTEL_* variables from what its hooks (and
// so the keeper they start) see. OTEL_SDK_DISABLED=true switches it off.
// from names where it was set; "" when off. getenv nil: this process's.
func (c *Config) OTelEndpoint(getenv func(string) string) (endpoint, from string) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return "", ""
	}
	for _, k := range []string{"OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"} {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			return v, k
		}
	}
	if c != nil && c.OTel.Endpoint != "" {
		return c.OTel.Endpoint, "otel.endpoint"
	}
	return "", ""
}

// TracesOn reports whether traces are wanted: OTEL_TRACES_EXPORTER naming
// otlp, else otel.traces — unless OTEL_TRACES_EXPORTER is "none" or the
// SDK is disabled. Unlike the SDK's default (otlp), warden's traces are off
// until asked for: they make hooks keep their handlers' timings. The hook
// asks it with its caller's environment (which Claude Code strips of
// OTEL_*, so otel.traces is the way there), the export with its own.
func (c *Config) TracesOn(getenv func(string) string) bool {
	if getenv == nil {
		getenv = os.Getenv
	}
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	for _, e := range strings.Split(getenv("OTEL_TRACES_EXPORTER"), ",") {
		switch strings.ToLower(strings.TrimSpace(e)) {
		case "none":
			return false
		case "otlp":
			return true
		}
	}
	return c != nil && c.OTel.Traces
}
