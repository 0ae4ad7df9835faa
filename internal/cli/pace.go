package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/flagval"
	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/hookio"
	"github.com/warden-dev/warden/internal/pace"
)

// The flags that carry usage figures: a what-if needs both utilisations;
// a reset time left out defaults to mid-window.
var paceWindowFlags = []string{"five-hour-util", "five-hour-resets-at", "seven-day-util", "seven-day-resets-at"}

const paceExample = `  warden pace --at 2025-11-06T12:00:00Z \
    --five-hour-util 40 --five-hour-resets-at 2025-11-06T14:30:00Z \
    --seven-day-util 80 --seven-day-resets-at 2025-11-10T00:00:00Z --explain`

func newPaceCmd() *cobra.Command {
	var (
		asJSON, explain bool
		harnessName     string
		at              = flagval.Time{Unset: "now"}
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
		Use:   "pace [--explain] [--five-hour-util F --seven-day-util F [--five-hour-resets-at TIME|none] [--seven-day-resets-at TIME|none]]",
		Short: "Show the pacing decision (delay after each tool call) for given usage figures",
		Long: `Show the pacing decision for the 5-hour and 7-day usage windows: which
window is most constrained, how far it is above its allowance, and how long
warden waits after each tool call. The maths is Claude Pace Maker's (see
reference/pacing.md), so the figures match it.

Without figures it shows the decision in force, from the stored figures (the
status line's rate_limits, else the OAuth usage endpoint, else a 5-hour
estimate from the local transcripts, marked ESTIMATED), with the reasoning
(--explain is implied; with no figures stored, --explain says where figures
come from). With figures as flags it is a what-if. Utilisations are
percentages from 0 to 100; reset times are RFC 3339 (2025-11-06T14:30:00Z)
or "none" for a window with no active reset, and default to mid-window
(2 h 30 m and 3 d 12 h from --at).
With --harness codex it shows the decision a Codex CLI session gets now:
Codex's own rate limits (OpenAI's 5-hour and weekly windows, which Codex
records in its rollouts under $CODEX_HOME/sessions) pace Codex sessions, and
Claude Code's figures never do. Gemini CLI and Copilot CLI expose no quota:
their sessions are not paced.
--at sets the moment to decide at (default now). A what-if starts from the
pacing settings of config.toml ([pacing]); the other flags override them.`,
		Example: "  warden pace\n  warden pace --five-hour-util 40 --seven-day-util 60\n" + paceExample,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h, err := harness.Parse(harnessName)
			if err != nil {
				return fmt.Errorf("--harness: %v", err)
			}
			if h != harness.Claude {
				return runHarnessPace(cmd, h, asJSON)
			}
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
				if asJSON || at.Given {
					return fmt.Errorf("--json and --at need the usage figures of a what-if (at least --five-hour-util and --seven-day-util):\n%s",
						paceExample)
				}
				// No figures: the decision in force from the stored
				// figures, explained (the same text as the typed command);
				// --explain adds how figures reach warden when none have.
				if explain {
					return runUserCmd(cmd, "pace", []string{"--explain"})
				}
				return runUserCmd(cmd, "pace", nil)
			}
			now := time.Now().UTC()
			if at.Given {
				now = at.T
			}
			if err := defaultResets(cmd, now, &fiveReset, &sevenReset); err != nil {
				return err
			}
			for _, u := range []struct {
				name string
				v    float64
			}{{"five-hour-util", fiveUtil.v}, {"seven-day-util", sevenUtil.v}} {
				if u.v < 0 || u.v > 100 {
					return fmt.Errorf("--%s is %g; pass the window's utilisation as a percentage from 0 to 100", u.name, u.v)
				}
			}

			p := whatIfParams(cmd, configPaceParams(), paceParamFlags{preload: preload.v, safety: safety.v, threshold: threshold.v,
				base: base.v, maxDelay: maxDelay.v, weekly: weekly.v, fiveHour: fiveHour.v})
			if err := p.Validate(); err != nil {
				return paramFlagError(err)
			}
			timeout := hookio.SpecFor(event.PostToolUse).Timeout
			if capped, ok := pace.CapMaxDelay(p, timeout); ok {
				fmt.Fprintf(cmd.ErrOrStderr(), "warden: --max-delay %d lowered to %d: a pacing sleep must end %d s before the %d s PostToolUse timeout\n",
					p.MaxDelay, capped.MaxDelay, pace.DelayHeadroom, timeout)
				p = capped
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
	f.StringVar(&harnessName, "harness", "claude", "whose pacing: claude, or codex (its own rate limits); gemini and copilot expose none")
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

// defaultResets fills in the reset times a what-if left out: each window
// half gone (the 5-hour window resets in 2 h 30 m, the 7-day one in 3 d
// 12 h), said on stderr so the figure is not mistaken for a real one. The
// utilisations have no sensible default: missing ones are an error naming
// them.
func defaultResets(cmd *cobra.Command, now time.Time, five, seven *resetFlag) error {
	var missing []string
	for _, name := range []string{"five-hour-util", "seven-day-util"} {
		if !cmd.Flags().Changed(name) {
			missing = append(missing, "--"+name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing %s: a what-if needs both windows' utilisation, e.g. --five-hour-util 40 --seven-day-util 60 (reset times default to mid-window)",
			strings.Join(missing, " and "))
	}
	for _, r := range []struct {
		flag string
		f    *resetFlag
		half time.Duration
	}{{"five-hour-resets-at", five, 150 * time.Minute}, {"seven-day-resets-at", seven, 84 * time.Hour}} {
		if cmd.Flags().Changed(r.flag) {
			continue
		}
		t := now.Add(r.half).Truncate(time.Minute)
		r.f.t = &t
		fmt.Fprintf(cmd.ErrOrStderr(), "warden: --%s not given: assuming %s (the window half gone); pass it, or none, for your own figure\n",
			r.flag, t.Format(time.RFC3339))
	}
	return nil
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
	t, err := flagval.ParseRFC3339(s)
	if err != nil {
		return fmt.Errorf("%w, or none for a window with no active reset", err)
	}
	f.t = &t
	return nil
}

// The poll and simulate subcommands run in warden-helper: they link the
// network stack and the simulator, which must stay out of the binary that
// runs every hook.
func newPacePollCmd() *cobra.Command {
	return helperCmd("poll", "Poll the OAuth usage endpoint once if due; without figures from it, estimate the 5-hour window from transcripts", "pace", "poll")
}

func newPaceSimulateCmd() *cobra.Command {
	return helperCmd("simulate [--profile FILE | --steady CALLS_PER_HOUR] [--days 7] [--start RFC3339] [--out chart.svg]",
		"Replay a usage profile through pacing and draw utilisation against the allowance", "pace", "simulate")
}
