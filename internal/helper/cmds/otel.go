package cmds

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/otelexport"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// newOTelCmd is `warden-helper otel`: the OpenTelemetry export of the local
// store's events (internal/otelexport). The keeper starts it beside itself
// with --until-stdin-closes when an endpoint is configured, as it starts
// the shipper: the OTel SDK lives here, never in the hooks' binaries.
func newOTelCmd() *cobra.Command {
	var untilStdin bool
	cmd := &cobra.Command{
		Use:    "otel",
		Short:  "Send the recorded decisions to an OpenTelemetry collector (OTLP/HTTP) as they are recorded",
		Args:   cobra.NoArgs,
		Hidden: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _ := config.Load(paths.UserConfig(), "")
			endpoint, from := cfg.OTelEndpoint(nil)
			if endpoint == "" {
				return errors.New("no OpenTelemetry endpoint: set otel.endpoint in " + paths.UserConfig() + " or OTEL_EXPORTER_OTLP_ENDPOINT")
			}
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
			defer stop()
			if untilStdin {
				go func() { _, _ = io.Copy(io.Discard, cmd.InOrStdin()); stop() }()
			}
			st, err := sqlite.Open(ctx, paths.DB())
			if err != nil {
				return err
			}
			defer st.Close()
			o := otelexport.Options{Source: st, Traces: cfg.TracesOn(nil), Log: slog.New(slog.NewTextHandler(os.Stderr, nil)).With("component", "otel")}
			if from == "otel.endpoint" {
				o.Endpoint = endpoint
			}
			e, err := otelexport.New(ctx, o)
			if err != nil {
				return err
			}
			return e.Run(ctx)
		},
	}
	cmd.Flags().BoolVar(&untilStdin, "until-stdin-closes", false, "stop when stdin closes (the keeper starts it so)")
	return cmd
}
