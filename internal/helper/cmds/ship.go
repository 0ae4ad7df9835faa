package cmds

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/ship"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// newShipCmd is `warden ship`: the spool's shipper (internal/store/ship)
// as a process. It lives in warden-helper because it links pgx (the
// network and TLS), which warden-core — the keeper, the hook runtime —
// must not: the keeper starts `warden-helper ship --until-stdin-closes`
// beside itself when a shared store is configured, and the daemon runs the
// same shipper in its own process.
func newShipCmd() *cobra.Command {
	var once, status, asJSON, untilStdin bool
	cmd := &cobra.Command{
		Use:   "ship [--once] [--status [--json]]",
		Short: "Ship the local store's events to the shared PostgreSQL store (the keeper runs it); --status: what waits and whether it answers",
		Long: `Hooks write the local SQLite store; with a shared PostgreSQL store configured
(store.url, or WARDEN_DATABASE_URL) the store keeper and warden serve copy
its events and session states there in batches, in order, each event once.
"warden ship" does the same in the foreground until interrupted, "--once"
drains what waits and exits, "--status" probes the shared store and prints
the backlog (events not shipped yet) and the age of the oldest.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _ := config.Load(paths.UserConfig(), "")
			url, _ := cfg.StoreURL()
			if url == "" {
				return errors.New("no shared store configured: set store.url in " + paths.UserConfig() + " or WARDEN_DATABASE_URL")
			}
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
			defer stop()
			if untilStdin {
				// The keeper holds the other end: when it goes, in any way,
				// the read returns and this process stops after a last pass.
				go func() { _, _ = io.Copy(io.Discard, cmd.InOrStdin()); stop() }()
			}
			st, err := sqlite.Open(ctx, paths.DB())
			if err != nil {
				return err
			}
			defer st.Close()
			if status {
				return shipStatus(ctx, cmd.OutOrStdout(), st, url, cfg.RetentionDays, asJSON)
			}
			retention, keep := ship.Bound(cfg.RetentionDays, cfg.Store.UnshippedKeepDays)
			o := ship.Options{Spool: st, Dial: ship.Dialer(postgres.Open, url), Retention: retention, UnshippedKeep: keep,
				Log: slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil)).With("component", "ship")}
			if once {
				sh, err := ship.New(o)
				if err != nil {
					return err
				}
				defer sh.Close()
				n, err := sh.Drain(ctx)
				fmt.Fprintf(cmd.OutOrStdout(), "shipped %d event(s) to %s\n", n, ship.Redact(url))
				return err
			}
			_, wait, err := ship.Start(ctx, o)
			if err != nil {
				return err
			}
			<-ctx.Done()
			wait()
			return nil
		},
	}
	cmd.Flags().BoolVar(&once, "once", false, "ship what waits, then exit")
	cmd.Flags().BoolVar(&status, "status", false, "probe the shared store and print the backlog instead of shipping")
	cmd.Flags().BoolVar(&asJSON, "json", false, "with --status: print the report as JSON")
	cmd.Flags().BoolVar(&untilStdin, "until-stdin-closes", false, "stop when stdin closes (the keeper starts it so)")
	_ = cmd.Flags().MarkHidden("until-stdin-closes")
	return cmd
}

// shipStatus probes the shared store (5 s) and prints the spool's report.
func shipStatus(ctx context.Context, w io.Writer, st *sqlite.Store, url string, retentionDays int, asJSON bool) error {
	probe := func(ctx context.Context) error { return ship.Probe(ctx, ship.Dialer(postgres.Open, url)) }
	r, err := ship.Inspect(ctx, st, url, 5*time.Second, probe)
	if err != nil {
		return err
	}
	if err := r.CheckRetention(ctx, st, retentionDays, time.Now(), 5*time.Second); err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	if r.Reachable {
		fmt.Fprintf(w, "shared store %s: reachable\n", r.Target)
	} else {
		fmt.Fprintf(w, "shared store %s: %s\n", r.Target, r.Error)
	}
	fmt.Fprintln(w, r.BacklogLine())
	if line := r.RetentionLine(); line != "" {
		fmt.Fprintln(w, line)
	}
	if !r.LastShipped.IsZero() {
		fmt.Fprintf(w, "last shipped %s ago\n", ship.Age(time.Since(r.LastShipped)))
	}
	if r.Retrying != "" {
		fmt.Fprintf(w, "the shipper has been failing since %s: %s\n", r.RetryingSince.Local().Format("2006-01-02 15:04:05"), r.Retrying)
	}
	if r.Permanent {
		fmt.Fprintln(w, "retrying will not mend this: fix store.url / WARDEN_DATABASE_URL or the server; rows older than retention_days + store.unshipped_keep_days are pruned even if never shipped")
	}
	if line := r.DroppedLine(); line != "" {
		fmt.Fprintln(w, line)
	}
	return nil
}
