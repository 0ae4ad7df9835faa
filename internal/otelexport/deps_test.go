package otelexport_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The OpenTelemetry SDK and its OTLP exporters run in warden-helper
// (started by the keeper, and running `warden serve`) only: never in warden (the
// front every hook starts) nor warden-core (which runs hooks the keeper
// does not answer), so export cannot change a hook's latency.
func TestOTelStaysOffTheHookPath(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("go tool not on PATH") // tests build with it: never missing
	}
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", "github.com/warden-dev/warden/"+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		return strings.Fields(string(out))
	}
	for _, pkg := range []string{"cmd/warden", "cmd/warden-core", "internal/hook"} {
		for _, d := range deps(pkg) {
			if strings.HasPrefix(d, "go.opentelemetry.io/") || d == "github.com/warden-dev/warden/internal/otelexport" {
				t.Errorf("%s links %s; OpenTelemetry export belongs in warden-helper", pkg, d)
			}
		}
	}
	for _, cmd := range []string{"cmd/warden-helper"} {
		if !slices.Contains(deps(cmd), "github.com/warden-dev/warden/internal/otelexport") {
			t.Errorf("%s does not link the OpenTelemetry export", cmd)
		}
	}
}
