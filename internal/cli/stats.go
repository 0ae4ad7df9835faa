package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/replay"
	"github.com/warden-dev/warden/internal/stats"
	"github.com/warden-dev/warden/internal/store"
)

func newStatsCmd() *cobra.Command {
	var since, project string
	var window time.Duration
	var asJSON, rollout bool
	cmd := &cobra.Command{
		Use:   "stats [--since 7d] [--project DIR] [--json]",
		Short: "What the guards did, per day: blocks per rule, overridden blocks, breaker trips, loops caught, judges and cost",
		Long: `Guard statistics from the store, per day (local time):
  blocks      deny and ask decisions, per rule;
  overridden  blocks the user let through soon after (--window, 10m): an ask
              whose call then ran, or a denied file-tool call whose tool then
              succeeded on the same path in the same session — rules with
              many are likely wrong;
  breaker     circuit-breaker trips;
  loops       calls stopped as a repetition loop (workaround detection);
  judges      LLM judge calls by verdict, with their cost;
  rollout     per rule in audit or warn mode: the recorded tool calls it
              fires on when evaluated again with today's rules, and how
              many of them raising it to ask or deny would stop.
--project DIR counts only events in DIR (and below) and the judge calls of
their sessions.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := context.Background()
			q := stats.Query{OverrideWindow: window}
			if since != "" {
				t, err := parseSince(since, time.Now())
				if err != nil {
					return err
				}
				q.Since = t
			}
			if project != "" {
				abs, err := filepath.Abs(project)
				if err != nil {
					return err
				}
				q.Project = abs
			}
			_, q.TZOffset = time.Now().Zone()
			return withExistingStore(ctx, func(st store.Local) error {
				r, err := stats.Collect(ctx, st, q)
				if err != nil {
					return err
				}
				if rollout {
					evs, err := st.Events(ctx, store.Filter{Since: q.Since})
					if err != nil {
						return err
					}
					home, _ := os.UserHomeDir()
					cur := &replay.Policy{Name: "current", UserConfig: paths.UserConfig(), WardenHome: paths.Home()}
					r.Rollout = replay.Rollout(evs, replay.Filter{Since: q.Since, Project: q.Project}, home, cur)
				}
				if asJSON {
					enc := json.NewEncoder(cmd.OutOrStdout())
					enc.SetIndent("", "  ")
					return enc.Encode(r)
				}
				r.WriteText(cmd.OutOrStdout())
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&since, "since", "", "only since a duration ago (24h, 7d) or a date (2026-11-22)")
	f.StringVar(&project, "project", "", "only this project directory (and below)")
	f.DurationVar(&window, "window", stats.DefaultOverrideWindow, "how soon after a block letting the call through counts as overriding it")
	f.BoolVar(&asJSON, "json", false, "the report as JSON")
	f.BoolVar(&rollout, "rollout", true, "replay the recorded calls for the rollout figures of rules in audit or warn mode")
	return cmd
}
