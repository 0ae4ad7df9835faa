package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/replay"
	"github.com/warden-dev/warden/internal/store"
)

type replayOptions struct {
	since, until, project, session, tool string
	policies                             []string
	config                               string
	against                              string
	failOn                               string
	examples                             int
	json, shared                         bool
	judges                               bool
	judgeConcurrency                     int
	judgeTimeout                         time.Duration
}

func newReplayCmd() *cobra.Command {
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "replay [--since 7d] [--policy FILE|DIR]… [--config FILE] [--judges] [--fail-on deny-increase|any-change] [--json]",
		Short: "Evaluate recorded tool calls again, under the current rules or a candidate, and show the decisions that would change",
		Long: `Replay re-evaluates the tool calls warden recorded (PreToolUse and
PermissionRequest) with the policy engine and prints the decisions that
would change, grouped by rule, with counts and examples.

What is compared:
  no --policy/--config   the current config and rules against the decisions
                         as recorded (calls a gate or judge decided are not
                         compared: replay runs only the policy engine);
  --policy, --config     the candidate against the current config and rules
                         (--against recorded compares it with the record).
--policy FILE|DIR adds candidate rule files (a rule with the id of one of
yours replaces it); --config FILE is read instead of your config.toml (a
project's .warden/config.toml still applies, as in a hook).

Replay has no side effects: it writes nothing, runs no pacing sleeps
and no judges unless --judges, and never runs git (a rule that would ask git about
uncommitted changes is told "cannot tell" and asks, on both sides).
Calls recorded without their input (record.tool_inputs off, an input
over record.tool_input_max_kb) cannot be replayed; the report counts them
with the reason. --fail-on deny-increase exits 1 when any call would be
newly denied, --fail-on any-change when any decision changes (for CI on
a policy repository).

--judges runs the tool-approval judge (validation.tool_approve) again
where a side's config turns it on and its rules leave a call to it, as a
hook would: through warden-helper judge and your LLM provider, so it costs
model calls (the report says how many; --judge-concurrency bounds those in
flight, --judge-timeout each one). Its answers are kept in memory only: an
identical request is asked once, and no judgement is recorded.`,
		Example: `  warden replay --since 7d
  warden replay --policy candidate.toml --fail-on deny-increase
  warden replay --config new-config.toml --project . --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runReplay(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.since, "since", "7d", `only calls since a duration ago (24h, 7d) or a date (2026-11-22); "all" for every recorded call`)
	f.StringVar(&o.until, "until", "", "only calls before a duration ago or a date")
	f.StringVar(&o.project, "project", "", "only calls in this directory (and below)")
	f.StringVar(&o.session, "session", "", "only this session's calls")
	f.StringVar(&o.tool, "tool", "", "only calls of this tool (Bash, Write, mcp__…)")
	f.StringArrayVar(&o.policies, "policy", nil, "candidate rule file or directory of them (repeatable)")
	f.StringVar(&o.config, "config", "", "candidate config file, read instead of $WARDEN_HOME/config.toml")
	f.StringVar(&o.against, "against", "", `compare with "current" (the config and rules as they are) or "recorded" (the decisions as recorded); default: current with a candidate, recorded without`)
	f.StringVar(&o.failOn, "fail-on", "", "exit 1 when a change crosses this threshold: deny-increase or any-change")
	f.IntVar(&o.examples, "examples", 3, "example calls shown per change")
	f.BoolVar(&o.json, "json", false, "the report as JSON")
	f.BoolVar(&o.judges, "judges", false, "run the tool-approval judge again where the policy leaves a call to it (model calls; nothing recorded)")
	f.IntVar(&o.judgeConcurrency, "judge-concurrency", 4, "with --judges: judge calls in flight at once")
	f.DurationVar(&o.judgeTimeout, "judge-timeout", 0, "with --judges: deadline of one judge call (default: llm.timeout_ms)")
	f.BoolVar(&o.shared, "shared", false, "replay the shared PostgreSQL store's calls (every machine's) instead of this machine's")
	return cmd
}

func runReplay(cmd *cobra.Command, o replayOptions) error {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	fail := replay.FailOn(o.failOn)
	if fail != replay.FailNever && fail != replay.FailDenyIncrease && fail != replay.FailAnyChange {
		return fmt.Errorf("--fail-on %q: use deny-increase or any-change", o.failOn)
	}
	filter, err := replayFilter(o.since, o.until, o.project, o.session, o.tool)
	if err != nil {
		return err
	}
	opts := replay.Options{Filter: filter, Examples: o.examples}
	if o.judges {
		if o.judgeConcurrency < 1 {
			return fmt.Errorf("--judge-concurrency %d: give 1 or more", o.judgeConcurrency)
		}
		opts.Judges = &replay.Judges{Concurrency: o.judgeConcurrency, Deadline: o.judgeTimeout}
	} else if cmd.Flags().Changed("judge-concurrency") || cmd.Flags().Changed("judge-timeout") {
		return fmt.Errorf("--judge-concurrency and --judge-timeout go with --judges")
	}
	opts.Home, _ = os.UserHomeDir()
	current := &replay.Policy{Name: "current config and rules", UserConfig: paths.UserConfig(), WardenHome: paths.Home()}
	candidate := current
	if len(o.policies) > 0 || o.config != "" {
		extra, err := replay.LoadRules(o.policies)
		if err != nil {
			return err
		}
		userCfg := paths.UserConfig()
		if o.config != "" {
			if _, err := os.Stat(o.config); err != nil {
				return fmt.Errorf("--config %s: %v", o.config, err)
			}
			userCfg = o.config
		}
		candidate = &replay.Policy{Name: "candidate (" + candidateName(o) + ")", UserConfig: userCfg, WardenHome: paths.Home(), Extra: extra}
	}
	opts.Candidate = candidate
	switch o.against {
	case "":
		if candidate != current {
			opts.Baseline = current
		}
	case "current":
		opts.Baseline = current
	case "recorded":
	default:
		return fmt.Errorf("--against %q: use current or recorded", o.against)
	}
	evs, err := recordedEvents(ctx, o.shared, store.Filter{Since: filter.Since, SessionID: filter.Session}, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	r := replay.RunContext(ctx, evs, opts)
	w := cmd.OutOrStdout()
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else {
		r.WriteText(w)
	}
	if r.Fails(fail) {
		return ExitError{Code: 1}
	}
	return nil
}

func candidateName(o replayOptions) string {
	var parts []string
	for _, p := range o.policies {
		parts = append(parts, "--policy "+p)
	}
	if o.config != "" {
		parts = append(parts, "--config "+o.config)
	}
	return strings.Join(parts, " ")
}

// replayFilter reads the flags that choose recorded calls.
func replayFilter(since, until, project, session, tool string) (replay.Filter, error) {
	f := replay.Filter{Session: session, Tool: tool}
	now := time.Now()
	if since != "" && since != "all" {
		t, err := parseSince(since, now)
		if err != nil {
			return f, err
		}
		f.Since = t
	}
	if until != "" {
		t, err := parseSince(until, now)
		if err != nil {
			return f, fmt.Errorf("--until: %v", strings.TrimPrefix(err.Error(), "--since "))
		}
		f.Until = t
	}
	if project != "" {
		abs, err := filepath.Abs(project)
		if err != nil {
			return f, err
		}
		f.Project = abs
	}
	return f, nil
}
