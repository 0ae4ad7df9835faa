// Package cmds is warden-helper's command tree: every command whose
// packages must not be linked into warden-core, which every hook the
// keeper does not answer starts. `warden` hands these over (internal/helper,
// the front for `mcp`); users still type `warden …`.
//
//	serve, task, token   the daemon and its API's clients (net/http, TLS, Prometheus, pgx; internal/daemon)
//	mcp                  the MCP server on stdio (the MCP SDK; internal/mcp)
//	judge                model calls for the LLM judges (the Anthropic SDK; internal/judge/llm)
//	pace poll|simulate   OAuth usage polling, image encoding
//	store check, ship, audit verify --shared   PostgreSQL
package cmds

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/daemon"
	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/flagval"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/estimate"
	"github.com/warden-dev/warden/internal/pace/oauth"
	"github.com/warden-dev/warden/internal/pace/simulate"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/version"
)

// NewRoot builds warden-helper's command tree. Its name is warden: users
// reach it as `warden serve`, `warden task …`, and its help and errors
// should read that way.
func NewRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "warden",
		Short:         "warden-helper: warden's commands with heavy dependencies (run through warden, not directly)",
		Version:       version.String(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	paceCmd := &cobra.Command{Use: "pace", Short: "Pacing commands that need the network or image encoding"}
	paceCmd.AddCommand(newPacePollCmd(), newPaceSimulateCmd())
	root.AddCommand(paceCmd)
	root.AddCommand(newStoreCmd())
	root.AddCommand(newShipCmd())
	root.AddCommand(newAuditCmd())
	root.AddCommand(daemon.Commands()...)
	root.AddCommand(newMCPCmd(), newJudgeCmd(), newVersionCmd())
	root.AddCommand(newEventsCmd())
	root.AddCommand(newOTelCmd())
	return root
}

// Main runs the tree and returns the exit code (internal/exitcode).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := NewRoot()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return exitcode.Report(stderr, root.Execute())
}

// newVersionCmd is `warden-helper version` (`warden judge status` shows it).
func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print warden-helper's version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "warden-helper", version.String())
		},
	}
}

// newPacePollCmd is `warden pace poll`: one poll of the OAuth usage
// endpoint if it is due (the lease in the store allows one poll per
// pacing.poll_interval across the machine), then, when that gave no
// figures, the transcript estimate if it applies (quota source 3,
// internal/pace/estimate). The hook starts it detached with --holder (it
// took the OAuth lease already) or --estimate-holder (only the estimate
// is due); run by hand it takes the leases itself.
func newPacePollCmd() *cobra.Command {
	var holder, estimateHolder string
	cmd := &cobra.Command{
		Use:   "poll",
		Short: "Poll the OAuth usage endpoint once if due; without figures from it, estimate the 5-hour window from transcripts",
		Long: `Poll GET /api/oauth/usage once with Claude Code's OAuth token (read from
$CLAUDE_CONFIG_DIR/.credentials.json or ~/.claude/.credentials.json, never
refreshed) and store the figures. A lease in the store makes it a no-op when
another process polled within pacing.poll_interval, after a 429 until its
Retry-After, and during the exponential backoff after failures. The hook
starts it in the background when the status line's figures are older than
the poll interval. WARDEN_OAUTH_BASE_URL overrides the API host.

When the poll gives no figures (token expired or refused, endpoint
unreachable, backing off) and neither the status line nor the endpoint gave
any in the last 5 hours, it estimates the 5-hour utilisation from the local
transcripts instead: the current 5-hour block's cost against the largest
completed block's of the last 30 days (at least 3 needed), stored marked
estimated; the 7-day window stays unknown. Only when a subscription token
exists: API-key users get no estimate.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cwd, _ := os.Getwd()
			cfg, _ := config.Load(paths.UserConfig(), cwd)
			s := pace.SettingsFrom(cfg)
			st, err := sqlite.Open(ctx, paths.DB())
			if err != nil {
				return err
			}
			defer st.Close()
			now := time.Now().UTC()
			out := cmd.OutOrStdout()
			var pollErr error
			if estimateHolder == "" {
				r := oauth.PollIfDue(ctx, st, oauth.Options{Interval: s.PollInterval, Getenv: os.Getenv, Holder: holder}, now)
				switch {
				case r.Err != nil:
					pollErr = fmt.Errorf("usage poll: %s (next poll not before %s)", r.Status, r.Next.Format(time.RFC3339))
				case !r.Polled:
					fmt.Fprintf(out, "not polled: %s\n", r.Status)
				default:
					fmt.Fprintf(out, "polled: %s; next poll not before %s\n", pace.SourceText(r.Snapshot, now), r.Next.Format(time.RFC3339))
				}
				if r.Snapshot != nil {
					estimateHolder = "-"
				}
			}
			if estimateHolder != "-" {
				h := estimateHolder
				e := estimate.IfDue(ctx, st, s.PollInterval, h, os.Getenv, nil, now)
				switch {
				case e.Snapshot != nil:
					fmt.Fprintf(out, "estimated: %s\n", e.Basis.Text())
				case e.Err != nil && pollErr == nil:
					pollErr = fmt.Errorf("transcript estimate: %s", e.Status)
				case e.Err != nil:
					fmt.Fprintf(cmd.ErrOrStderr(), "warden: transcript estimate: %s\n", e.Status)
				default:
					fmt.Fprintf(out, "no estimate: %s\n", e.Status)
				}
			}
			// Housekeeping while in the background: keep the pacing tables
			// to the retention period.
			st.PrunePacing(ctx, now.AddDate(0, 0, -cfg.RetentionDays))
			return pollErr
		},
	}
	cmd.Flags().StringVar(&holder, "holder", "", "OAuth lease already taken by the caller (the hook)")
	cmd.Flags().Lookup("holder").Hidden = true
	cmd.Flags().StringVar(&estimateHolder, "estimate-holder", "", "estimate lease already taken by the caller (the hook): estimate only")
	cmd.Flags().Lookup("estimate-holder").Hidden = true
	return cmd
}

// newPaceSimulateCmd is `warden pace simulate`.
func newPaceSimulateCmd() *cobra.Command {
	var (
		profile, out string
		steady       float64
		days         int
		start        flagval.Time
		sessions     int
	)
	cmd := &cobra.Command{
		Use:   "simulate [--profile FILE | --steady CALLS_PER_HOUR] [--days 7] [--start RFC3339] [--out chart.svg]",
		Short: "Replay a usage profile through pacing and draw utilisation against the allowance",
		Long: `Replay a usage profile through the pacing algorithm, once without throttling and
once with warden's delays, over a 7-day window (from --start, default the
coming Monday 00:00 UTC), and draw the 7-day utilisation of both runs, the
allowance and the safe allowance (weekends shaded) as SVG. Prints
whether and when 100 % was hit and the total delay added.

The profile is JSON; every key is optional:
  {"calls_per_hour": 120, "cost_per_call": 0.012, "five_hour_cost_per_call": 0.12,
   "start_hour": 9, "end_hour": 18, "weekends": false, "sessions": 1}
costs are utilisation points per tool call of the 7-day and 5-hour windows;
hours are UTC. --steady N is N calls an hour around the clock, every day.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var p simulate.Profile
			switch {
			case profile != "" && cmd.Flags().Changed("steady"):
				return errors.New("pass --profile or --steady, not both")
			case profile != "":
				var err error
				if p, err = simulate.LoadProfile(profile); err != nil {
					return err
				}
			case cmd.Flags().Changed("steady"):
				p = simulate.Steady(steady)
			default:
				p = simulate.DefaultProfile()
			}
			if cmd.Flags().Changed("sessions") {
				p.Sessions = sessions
			}
			if err := p.Validate(); err != nil {
				return err
			}
			if days < 1 || days > 28 {
				return fmt.Errorf("--days is %d; use 1 to 28", days)
			}
			t0 := start.T
			if !start.Given {
				now := time.Now().UTC()
				t0 = time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
				for t0.Weekday() != time.Monday || !t0.After(now) {
					t0 = t0.Add(24 * time.Hour)
				}
			}
			cwd, _ := os.Getwd()
			cfg, _ := config.Load(paths.UserConfig(), cwd)
			res := simulate.Run(p, pace.SettingsFrom(cfg).Params, t0, days)
			f, err := os.Create(out)
			if err != nil {
				return err
			}
			if err := res.SVG(f); err != nil {
				f.Close()
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintln(w, res.Summary())
			fmt.Fprintf(w, "Chart: %s\n", out)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&profile, "profile", "", "usage profile (JSON)")
	f.Float64Var(&steady, "steady", 120, "steady load: tool calls per hour, around the clock")
	f.IntVar(&days, "days", 7, "days to simulate")
	f.Var(&start, "start", "start of the 7-day window, RFC 3339 (default: next Monday 00:00 UTC)")
	f.StringVar(&out, "out", "pace-simulation.svg", "SVG file to write")
	f.IntVar(&sessions, "sessions", 1, "parallel sessions sharing the account (fair sharing)")
	return cmd
}
