package cli

import (
	"context"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
)

// startOTel runs `warden-helper otel` beside the keeper while an
// OpenTelemetry endpoint is configured (otel.endpoint; the keeper, started
// by a hook, never sees OTEL_* variables, which Claude Code removes): the
// decisions hooks record go to the collector from there, never from a
// hook, and the OTel SDK stays out of warden-core. wait returns once it
// has stopped.
func startOTel(ctx context.Context) (wait func()) {
	cfg, _ := config.Load(paths.UserConfig(), "")
	if endpoint, _ := cfg.OTelEndpoint(nil); endpoint == "" {
		return func() {}
	}
	return startChild(ctx, "otel export", "otel")
}
