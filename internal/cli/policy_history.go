package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/atomicfile"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/policy"
	"github.com/warden-dev/warden/internal/replay"
	"github.com/warden-dev/warden/internal/store"
)

// historyOptions are `warden policy test --from-history`'s flags.
type historyOptions struct {
	on                   bool
	since, session, tool string
	rule, output         string
	ids                  []int64
	limit                int
	shared               bool
}

func addHistoryFlags(cmd *cobra.Command, o *historyOptions) {
	f := cmd.Flags()
	f.BoolVar(&o.on, "from-history", false, "turn recorded tool calls into [[case]] entries of a rule file (see --rule, --id, -o)")
	f.StringVar(&o.since, "since", "7d", "with --from-history: calls since a duration ago (24h, 7d) or a date")
	f.StringVar(&o.session, "session", "", "with --from-history: only this session's calls")
	f.StringVar(&o.tool, "tool", "", "with --from-history: only calls of this tool")
	f.StringVar(&o.rule, "rule", "", "with --from-history: calls this rule decided, as recorded or now")
	f.Int64SliceVar(&o.ids, "id", nil, "with --from-history: these recorded events (ids from warden log --json), repeatable")
	f.IntVar(&o.limit, "limit", 20, "with --from-history: at most this many cases, newest first")
	f.StringVarP(&o.output, "output", "o", "", `with --from-history: rule file the cases are added to (default <project>/.warden/rules/history.toml; "-" prints them)`)
	f.BoolVar(&o.shared, "shared", false, "with --from-history: read the shared PostgreSQL store's calls")
}

// runPolicyTestFromHistory chooses recorded calls, turns each into a test
// case expecting what the rules decide now (in the test environment) and
// adds them to a rule file of the project, so an incident becomes a
// regression test in one command. Without --rule or --id the calls chosen
// are those the policy did not simply allow, as recorded or now.
func runPolicyTestFromHistory(cmd *cobra.Command, o historyOptions) error {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	if o.limit <= 0 {
		return errors.New("--limit must be at least 1")
	}
	filter, err := replayFilter(o.since, "", "", o.session, o.tool)
	if err != nil {
		return err
	}
	env, err := loadPolicyEnv(nil)
	if err != nil {
		return err
	}
	out := o.output
	if out == "" {
		out = filepath.Join(env.project, ".warden", "rules", "history.toml")
	}
	evs, err := recordedEvents(ctx, o.shared, store.Filter{Since: filter.Since, SessionID: filter.Session}, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	current := &replay.Policy{Name: "current", UserConfig: paths.UserConfig(), WardenHome: paths.Home()}
	testEng := policy.TestEngine(policy.Builtin(), env.user, policy.OptionsFrom(env.cfg, filepath.Join(policy.TestHome, ".warden")))
	seen := map[string]bool{}
	if out != "-" {
		_, existing, _ := policy.LoadRuleFile(out)
		for _, tc := range existing {
			seen[tc.Command+tc.Call] = true
		}
	}
	projects := replay.SessionProjects(evs)
	var blocks []string
	var skipped []string
	dup := 0
	for i := len(evs) - 1; i >= 0 && len(blocks) < o.limit; i-- { // newest first
		ev := &evs[i]
		if !replay.Replayable(ev) || !filter.Match(ev) || (len(o.ids) > 0 && !slices.Contains(o.ids, ev.ID)) {
			continue
		}
		call, skip := replay.CallOf(ev, env.home, projects[ev.SessionID])
		if skip != "" {
			if len(o.ids) > 0 || o.rule != "" && ev.Rule == o.rule {
				skipped = append(skipped, fmt.Sprintf("event %d: %s", ev.ID, skip))
			}
			continue
		}
		now := current.Outcome(call)
		recordedPolicy := ev.Rule == "" || current.Knows(call.Project, ev.Rule)
		switch {
		case len(o.ids) > 0:
		case o.rule != "":
			if ev.Rule != o.rule && now.Rule != o.rule {
				continue
			}
		default:
			if now.Decision == "allow" && (ev.Decision == "allow" || !recordedPolicy) {
				continue
			}
		}
		tc := replay.CaseOf(call)
		key := tc.Command + tc.Call
		if seen[key] {
			dup++
			continue
		}
		seen[key] = true
		in := tc.Command + tc.Call
		c, err := policy.CaseCall(in, policy.TestHome, policy.TestProject)
		if err != nil {
			continue
		}
		res := testEng.Evaluate(ctx, policy.Normalize(c))
		tc.Expect = "allow"
		if res.Decision != "" {
			tc.Expect = string(res.Decision)
			tc.Rule = res.Top().ID
		}
		rec := ev.Decision
		if ev.Rule != "" {
			rec += " by " + ev.Rule
		}
		comment := fmt.Sprintf("From event %d (%s, session %s): recorded %s.", ev.ID, ev.Time.UTC().Format("2006-01-02 15:04 UTC"), short(ev.SessionID, 8), rec)
		blocks = append(blocks, replay.TOMLCase(tc, comment))
	}
	w := cmd.OutOrStdout()
	for _, s := range skipped {
		fmt.Fprintf(cmd.ErrOrStderr(), "warden: not turned into a case: %s\n", s)
	}
	if len(blocks) == 0 {
		msg := "no recorded calls matched"
		if dup > 0 {
			msg += fmt.Sprintf(" that are not already cases (%d already are)", dup)
		}
		return fmt.Errorf("%s: widen --since (%s), or choose calls with --rule or --id (warden log --json shows ids)", msg, o.since)
	}
	text := strings.Join(blocks, "\n")
	if out == "-" {
		fmt.Fprint(w, text)
		return nil
	}
	if err := appendCases(out, text); err != nil {
		return err
	}
	// The file must still load and its cases pass, as `warden policy test` will run them.
	_, cases, probs := policy.LoadRuleFile(out)
	if len(probs) > 0 {
		return fmt.Errorf("%s no longer loads after adding the cases: %s", out, probs[0])
	}
	failed := 0
	for _, r := range policy.RunCases(testEng, cases) {
		if !r.OK {
			failed++
		}
	}
	fmt.Fprintf(w, "added %d cases to %s", len(blocks), out)
	if dup > 0 {
		fmt.Fprintf(w, " (%d calls already were cases)", dup)
	}
	fmt.Fprintln(w, "; `warden policy test` runs them")
	if failed > 0 {
		fmt.Fprintf(w, "%d cases of the file fail under the current rules: see `warden policy test %s`\n", failed, out)
	}
	return nil
}

// appendCases adds text to the rule file path, creating it (and its
// directory) when missing, with a header saying what it is.
func appendCases(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	var b strings.Builder
	if len(old) == 0 {
		b.WriteString("# Rule tests made from recorded tool calls (warden policy test --from-history).\n# Each case expects what the rules decided when it was added.\n\n")
	} else {
		b.Write(old)
		if !strings.HasSuffix(string(old), "\n") {
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(text)
	return atomicfile.Write(path, []byte(b.String()), 0o644)
}
