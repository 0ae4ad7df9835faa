package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/hookio"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/oauth"
	"github.com/warden-dev/warden/internal/pace/simulate"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

func init() { register(newPaceCmd) }

// The flags that carry usage figures; all four are needed for a what-if.
var paceWindowFlags = []string{"five-hour-util", "five-hour-resets-at", "seven-day-util", "seven-day-resets-at"}

const paceExample = `  warden pace --at 2025-11-06T12:00:00Z \
    --five-hour-util 40 --five-hour-resets-at 2025-11-06T14:30:00Z \
    --seven-day-util 80 --seven-day-resets-at 2025-11-10T00:00:00Z --explain`

func newPaceCmd() *cobra.Command {
	var (
		asJSON, explain bool
		at              timeFlag
		fiveUtil        floatFlag
		sevenUtil       floatFlag
		fiveReset       resetFlag
		sevenReset      resetFlag
	)
	p := pace.DefaultParams()
	preload, safety, threshold := floatFlag{v: p.PreloadHours}, floatFlag{v: p.SafetyBufferPct}, floatFlag{v: p.ThresholdPercent}
	base, maxDelay := intFlag{v: p.BaseDelay}, intFlag{v: p.MaxDelay}
	weekly, fiveHour := boolFlag{v: p.WeeklyLimit}, boolFlag{v: p.FiveHourLimit}

	cmd := &cobra.Command{
		Use:   "pace [--five-hour-util F --five-hour-resets-at TIME|none --seven-day-util F --seven-day-resets-at TIME|none]",
		Short: "Show the pacing decision (delay after each tool call) for given usage figures",
		Long: `Show the pacing decision for the 5-hour and 7-day usage windows: which
window is most constrained, how far it is above its allowance, and how long
warden waits after each tool call. The maths is Claude Pace Maker's (see
reference/pacing.md), so the figures match it.

Without figures it shows the decision in force, from the stored figures (the
status line's rate_limits, else the OAuth usage endpoint), with the reasoning
(--explain is implied). With figures as flags it is a what-if. Utilisations are percentages from 0 to 100; reset times are
RFC 3339 (2025-11-06T14:30:00Z) or "none" for a window with no active reset.
--at sets the moment to decide at (default now). The other flags override
the pacing settings.`,
		Example: "  warden pace\n" + paceExample,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON && explain {
				return errors.New("--explain prints words and --json prints the decision; pass one of them")
			}
			var missing []string
			for _, name := range paceWindowFlags {
				if !cmd.Flags().Changed(name) {
					missing = append(missing, "--"+name)
				}
			}
			if len(missing) == len(paceWindowFlags) {
				if asJSON || at.set {
					return fmt.Errorf("--json and --at need the usage figures of a what-if (all of --%s):\n%s",
						strings.Join(paceWindowFlags, ", --"), paceExample)
				}
				// No figures: the decision in force from the stored
				// figures, explained (the same text as the typed command).
				return runUserCmd(cmd, "pace", nil)
			}
			if len(missing) > 0 {
				return fmt.Errorf("missing %s: a what-if needs all of --%s (a reset time may be none)",
					strings.Join(missing, ", "), strings.Join(paceWindowFlags, ", --"))
			}
			for _, u := range []struct {
				name string
				v    float64
			}{{"five-hour-util", fiveUtil.v}, {"seven-day-util", sevenUtil.v}} {
				if u.v < 0 || u.v > 100 {
					return fmt.Errorf("--%s is %g; pass the window's utilisation as a percentage from 0 to 100", u.name, u.v)
				}
			}

			p := pace.Params{
				PreloadHours: preload.v, SafetyBufferPct: safety.v, ThresholdPercent: threshold.v,
				BaseDelay: base.v, MaxDelay: maxDelay.v, WeeklyLimit: weekly.v, FiveHourLimit: fiveHour.v,
			}
			if err := p.Validate(); err != nil {
				return paramFlagError(err)
			}
			timeout := hookio.SpecFor(event.PostToolUse).Timeout
			if capped, ok := pace.CapMaxDelay(p, timeout); ok {
				fmt.Fprintf(cmd.ErrOrStderr(), "warden: --max-delay %d lowered to %d: a pacing sleep must end %d s before the %d s PostToolUse timeout\n",
					p.MaxDelay, capped.MaxDelay, pace.DelayHeadroom, timeout)
				p = capped
			}

			now := time.Now().UTC()
			if at.set {
				now = at.t
			}
			in := pace.Input{Now: now,
				FiveHour: pace.Window{Utilization: fiveUtil.v, ResetsAt: fiveReset.t},
				SevenDay: pace.Window{Utilization: sevenUtil.v, ResetsAt: sevenReset.t},
			}
			d := pace.Decide(in, p)
			out := cmd.OutOrStdout()
			switch {
			case asJSON:
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(d)
			case explain:
				fmt.Fprint(out, pace.Summary(in, d))
				fmt.Fprintln(out, "\nWhy:")
				for _, line := range pace.Explain(in, p, d) {
					fmt.Fprintln(out, "- "+line)
				}
			default:
				fmt.Fprint(out, pace.Summary(in, d))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print the decision as JSON (the reference's keys)")
	f.BoolVar(&explain, "explain", false, "explain the decision in words: window, allowance, deviation, delay and strategy")
	f.Var(&at, "at", "decide at this RFC 3339 time instead of now")
	f.Var(&fiveUtil, "five-hour-util", "5-hour window utilisation, percent (0-100)")
	f.Var(&fiveReset, "five-hour-resets-at", `5-hour window reset time, RFC 3339, or "none"`)
	f.Var(&sevenUtil, "seven-day-util", "7-day window utilisation, percent (0-100)")
	f.Var(&sevenReset, "seven-day-resets-at", `7-day window reset time, RFC 3339, or "none"`)
	f.Var(&preload, "preload-hours", "weekday hours of the 7-day window preloaded at the start (0-120)")
	f.Var(&safety, "safety-buffer-pct", "share of the allowance that counts as safe, percent")
	f.Var(&weekly, "weekly-limit", "let the 7-day window throttle (true|false)")
	f.Var(&fiveHour, "five-hour-limit", "let the 5-hour window throttle (true|false)")
	f.Var(&base, "base-delay", "minimum delay in seconds; smaller delays are dropped")
	f.Var(&maxDelay, "max-delay", "maximum delay in seconds (at most the PostToolUse timeout minus 10 s)")
	f.Var(&threshold, "threshold-percent", "points over the safe allowance tolerated before throttling")
	for _, name := range []string{"weekly-limit", "five-hour-limit"} {
		f.Lookup(name).NoOptDefVal = "true"
	}
	cmd.AddCommand(newPacePollCmd(), newPaceSimulateCmd())
	return cmd
}

// paramFlagError turns a pace.ParamError (which names config keys) into one
// that names the flags.
func paramFlagError(err error) error {
	var pe *pace.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	msg := pe.Msg
	for _, key := range []string{"preload_hours", "safety_buffer_pct", "base_delay", "max_delay", "threshold_percent"} {
		msg = strings.ReplaceAll(msg, key, "--"+strings.ReplaceAll(key, "_", "-"))
	}
	return fmt.Errorf("--%s %s", strings.ReplaceAll(pe.Key, "_", "-"), msg)
}

// Flag values. pflag reports a Set error as
// `invalid argument "X" for "--flag" flag: <error>`, so each error says what
// to write instead.

type floatFlag struct{ v float64 }

func (f *floatFlag) String() string { return strconv.FormatFloat(f.v, 'g', -1, 64) }
func (f *floatFlag) Type() string   { return "number" }
func (f *floatFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return errors.New("not a number; write a decimal such as 42.5")
	}
	f.v = v
	return nil
}

type intFlag struct{ v int }

func (f *intFlag) String() string { return strconv.Itoa(f.v) }
func (f *intFlag) Type() string   { return "seconds" }
func (f *intFlag) Set(s string) error {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return errors.New("not a whole number of seconds; write one such as 5")
	}
	f.v = v
	return nil
}

type boolFlag struct{ v bool }

func (f *boolFlag) String() string { return strconv.FormatBool(f.v) }
func (f *boolFlag) Type() string   { return "bool" }
func (f *boolFlag) Set(s string) error {
	v, err := strconv.ParseBool(strings.TrimSpace(s))
	if err != nil {
		return errors.New("write true or false")
	}
	f.v = v
	return nil
}

type timeFlag struct {
	t   time.Time
	set bool
}

func (f *timeFlag) String() string {
	if !f.set {
		return "now"
	}
	return f.t.Format(time.RFC3339)
}
func (f *timeFlag) Type() string { return "time" }
func (f *timeFlag) Set(s string) error {
	t, err := parseRFC3339(s)
	if err != nil {
		return err
	}
	f.t, f.set = t, true
	return nil
}

type resetFlag struct{ t *time.Time }

// String is empty until set, so help shows no default (the flag is needed).
func (f *resetFlag) String() string {
	if f.t == nil {
		return ""
	}
	return f.t.Format(time.RFC3339)
}
func (f *resetFlag) Type() string { return "time|none" }
func (f *resetFlag) Set(s string) error {
	if strings.EqualFold(strings.TrimSpace(s), "none") {
		f.t = nil
		return nil
	}
	t, err := parseRFC3339(s)
	if err != nil {
		return fmt.Errorf("%w, or none for a window with no active reset", err)
	}
	f.t = &t
	return nil
}

func parseRFC3339(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, errors.New("not an RFC 3339 time; write it like 2025-11-06T14:30:00Z or 2025-11-06T15:30:00+01:00")
	}
	return t.UTC(), nil
}

// newPacePollCmd is `warden pace poll`: one poll of the OAuth usage
// endpoint if it is due (the lease in the store allows one poll per
// pacing.poll_interval across the machine). The hook starts it detached
// with --holder (it took the lease already); run by hand it takes the
// lease itself.
func newPacePollCmd() *cobra.Command {
	var holder string
	cmd := &cobra.Command{
		Use:   "poll",
		Short: "Poll the OAuth usage endpoint once, if no other process did within the poll interval",
		Long: `Poll GET /api/oauth/usage once with Claude Code's OAuth token (read from
$CLAUDE_CONFIG_DIR/.credentials.json or ~/.claude/.credentials.json, never
refreshed) and store the figures. A lease in the store makes it a no-op when
another process polled within pacing.poll_interval, after a 429 until its
Retry-After, and during the exponential backoff after failures. The hook
starts it in the background when the status line's figures are older than
the poll interval. WARDEN_OAUTH_BASE_URL overrides the API host.`,
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
			r := oauth.PollIfDue(ctx, st, oauth.Options{Interval: s.PollInterval, Getenv: os.Getenv, Holder: holder}, now)
			// Housekeeping while in the background: keep the pacing tables
			// to the retention period.
			st.PrunePacing(ctx, now.AddDate(0, 0, -cfg.RetentionDays))
			out := cmd.OutOrStdout()
			switch {
			case r.Err != nil:
				return fmt.Errorf("usage poll: %s (next poll not before %s)", r.Status, r.Next.Format(time.RFC3339))
			case !r.Polled:
				fmt.Fprintf(out, "not polled: %s\n", r.Status)
			default:
				fmt.Fprintf(out, "polled: %s; next poll not before %s\n", pace.SourceText(r.Snapshot, now), r.Next.Format(time.RFC3339))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&holder, "holder", "", "lease already taken by the caller (the hook)")
	cmd.Flags().Lookup("holder").Hidden = true
	return cmd
}

// newPaceSimulateCmd is `warden pace simulate`.
func newPaceSimulateCmd() *cobra.Command {
	var (
		profile, out string
		steady       float64
		days         int
		start        timeFlag
		asPNG        bool
		sessions     int
	)
	cmd := &cobra.Command{
		Use:   "simulate [--profile FILE | --steady CALLS_PER_HOUR] [--days 7] [--start RFC3339] [--out chart.svg] [--png]",
		Short: "Replay a usage profile through pacing and draw utilisation against the allowance",
		Long: `Replay a usage profile through the pacing algorithm, once without throttling and
once with warden's delays, over a 7-day window (from --start, default the
coming Monday 00:00 UTC), and draw the 7-day utilisation of both runs, the
allowance and the safe allowance (weekends shaded) as SVG, and with --png
also as PNG (same path, .png; lines and shading only, no text). Prints
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
			t0 := start.t
			if !start.set {
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
			if asPNG {
				pngPath := strings.TrimSuffix(out, ".svg") + ".png"
				f, err := os.Create(pngPath)
				if err != nil {
					return err
				}
				if err := res.PNG(f); err != nil {
					f.Close()
					return err
				}
				if err := f.Close(); err != nil {
					return err
				}
				fmt.Fprintf(w, "PNG:   %s\n", pngPath)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&profile, "profile", "", "usage profile (JSON)")
	f.Float64Var(&steady, "steady", 120, "steady load: tool calls per hour, around the clock")
	f.IntVar(&days, "days", 7, "days to simulate")
	f.Var(&start, "start", "start of the 7-day window, RFC 3339 (default: next Monday 00:00 UTC)")
	f.StringVar(&out, "out", "pace-simulation.svg", "SVG file to write")
	f.BoolVar(&asPNG, "png", false, "also write a PNG next to the SVG")
	f.IntVar(&sessions, "sessions", 1, "parallel sessions sharing the account (fair sharing)")
	return cmd
}
