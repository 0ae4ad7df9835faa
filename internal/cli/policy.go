package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/policy"
	"github.com/warden-dev/warden/internal/policy/corpus"
)

func newPolicyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Guards: explain a decision, list, test and lint rules",
		Long: `warden's guard engine evaluates tool calls against rule packs (built in) and
your rule files ($WARDEN_HOME/rules/*.toml, <project>/.warden/rules/*.toml).
Modes: deny > ask > warn > audit. Configure with policy.disabled,
policy.modes ("id=mode"), policy.raise, policy.protected_branches,
policy.max_lines_warn, policy.max_lines_deny, and the verdict table's
cells with policy.zones and policy.zones_raise (warden policy zones).`,
	}
	cmd.AddCommand(newPolicyExplainCmd(), newPolicyListCmd(), newPolicyTestCmd(), newPolicyLintCmd(), newPolicyZonesCmd())
	return cmd
}

// policyEnv is the engine as a hook in the current directory would build it.
type policyEnv struct {
	cfg     *config.Config
	cwd     string
	home    string
	project string
	user    []policy.Rule
	cases   []policy.TestCase
	probs   []policy.Problem
}

func loadPolicyEnv(extra []string) (*policyEnv, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	project := paths.ProjectDir(cwd)
	cfg, _ := config.Load(paths.UserConfig(), project)
	e := &policyEnv{cfg: cfg, cwd: cwd, home: home, project: project}
	if len(extra) == 0 {
		e.user, e.cases, e.probs = policy.LoadUserRules(policy.RuleDirs(paths.Home(), project))
		return e, nil
	}
	for _, f := range extra {
		r, c, p := policy.LoadRuleFile(f)
		e.user, e.cases, e.probs = append(e.user, r...), append(e.cases, c...), append(e.probs, p...)
	}
	return e, nil
}

func (e *policyEnv) engine() *policy.Engine {
	return policy.New(policy.Builtin(), e.user, policy.OptionsFrom(e.cfg, paths.Home()))
}

type explainOptions struct {
	json bool
	call string
}

func newPolicyExplainCmd() *cobra.Command {
	var o explainOptions
	cmd := &cobra.Command{
		Use:   "explain [--json] (-- '<shell command>' | --call '<PreToolUse JSON>')",
		Short: "Show the decision for a command or a tool call, the rules that fired and the parsed facts",
		Example: `  warden policy explain -- 'git push --force origin main'
  warden policy explain --json --call '{"tool_name":"Write","tool_input":{"file_path":"~/.ssh/config","content":"x"}}'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPolicyExplain(cmd.Context(), cmd.OutOrStdout(), o, args)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, `print {"decision","rules","facts"} as JSON`)
	cmd.Flags().StringVar(&o.call, "call", "", "a PreToolUse payload (tool_name, tool_input, optional cwd) instead of a command")
	return cmd
}

type explainJSON struct {
	Decision string        `json:"decision"`
	Rules    []policy.Hit  `json:"rules"`
	Facts    *policy.Facts `json:"facts"`
	// Zones are the call's effects on paths with the verdict table's
	// cell for each ("recursive delete · home data → deny").
	Zones []policy.ZoneCell `json:"zones,omitempty"`
	Input map[string]any    `json:"input,omitempty"`
}

func runPolicyExplain(ctx context.Context, w io.Writer, o explainOptions, args []string) error {
	switch {
	case o.call == "" && len(args) == 0:
		return errors.New("nothing to explain: give a shell command after --, e.g. warden policy explain -- 'git push --force', or a tool call with --call '{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}'")
	case o.call != "" && len(args) > 0:
		return errors.New("give a shell command after -- or a tool call with --call, not both")
	}
	env, err := loadPolicyEnv(nil)
	if err != nil {
		return err
	}
	var call policy.Call
	if o.call != "" {
		if call, err = policy.CaseCall(o.call, env.home, env.project); err != nil {
			return err
		}
		var given struct {
			Cwd string `json:"cwd"`
		}
		if json.Unmarshal([]byte(o.call), &given); given.Cwd == "" {
			call.Cwd = env.cwd // a call without its own cwd runs where explain does
		}
	} else {
		b, _ := json.Marshal(map[string]string{"command": strings.Join(args, " ")})
		call = policy.Call{Event: "PreToolUse", Tool: "Bash", Input: b, Cwd: env.cwd, Home: env.home, Project: env.project}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	f := policy.Normalize(call)
	eng := env.engine()
	res := eng.Evaluate(ctx, f)
	zones := eng.ZoneCells(f)
	dec := string(res.Decision)
	if dec == "" {
		dec = "allow"
	}
	if o.json {
		out := explainJSON{Decision: dec, Rules: res.Hits, Facts: f, Zones: zones}
		if out.Rules == nil {
			out.Rules = []policy.Hit{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	fmt.Fprintf(w, "decision: %s\n", dec)
	if len(res.Hits) == 0 {
		fmt.Fprintln(w, "rules:    none fired")
	} else {
		fmt.Fprintln(w, "rules:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, h := range res.Hits {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", h.Mode, h.ID, h.Reason)
		}
		tw.Flush()
	}
	printFacts(w, f)
	if len(zones) > 0 {
		fmt.Fprintln(w, "zones (warden policy zones):")
		for _, z := range zones {
			note := ""
			if elsewhere(f, z.Path) {
				note = " (a file of another host, read as this machine's)"
			}
			fmt.Fprintf(w, "  %s: %s%s\n", oneLineClip(z.Via, 100), z.Cell, note)
		}
	}
	if len(f.Derivation) > 0 {
		fmt.Fprintln(w, "derivation:")
		for _, d := range f.Derivation {
			fmt.Fprintf(w, "  %s\n", oneLineClip(d, 160))
		}
	}
	return nil
}

// elsewhere: the path p of the call is a file of another host
// (PathRef.Elsewhere), normalized as this machine's.
func elsewhere(f *policy.Facts, p string) bool {
	return slices.ContainsFunc(f.Paths, func(r policy.PathRef) bool { return r.Path == p && r.Elsewhere != "" })
}

func printFacts(w io.Writer, f *policy.Facts) {
	fmt.Fprintln(w, "facts:")
	fmt.Fprintf(w, "  tool: %s   cwd: %s\n", f.Tool, f.Cwd)
	if f.ParseError != "" {
		fmt.Fprintf(w, "  parse error: %s (matched on words conservatively)\n", f.ParseError)
	}
	if f.FilePath != "" {
		fmt.Fprintf(w, "  file: %s", f.FilePath)
		if f.Lines > 0 {
			fmt.Fprintf(w, " (%d lines)", f.Lines)
		}
		fmt.Fprintln(w)
	}
	for _, c := range f.Commands {
		fmt.Fprintf(w, "  command: %s", c.String())
		var notes []string
		if c.Depth > 0 {
			notes = append(notes, fmt.Sprintf("depth %d", c.Depth))
		}
		if len(c.Wrappers) > 0 {
			notes = append(notes, "via "+strings.Join(c.Wrappers, " > "))
		}
		if len(c.Upstream) > 0 {
			notes = append(notes, "piped from "+strings.Join(c.Upstream, ", "))
		}
		if len(c.Flags) > 0 {
			notes = append(notes, "flags "+strings.Join(c.Flags, " "))
		}
		if c.Escaped {
			notes = append(notes, "alias bypass")
		}
		if c.Payload != "" {
			notes = append(notes, fmt.Sprintf("payload %q", c.Payload))
		}
		if c.Feed != "" {
			notes = append(notes, "runs code from "+c.Feed)
		}
		if c.FeedUnknown {
			notes = append(notes, "runs a script the command does not show")
		}
		if len(notes) > 0 {
			fmt.Fprintf(w, "   [%s]", strings.Join(notes, "; "))
		}
		fmt.Fprintln(w)
	}
	// a file of another host is named as written: read against this
	// machine's cwd it would look like one of the project's
	for _, r := range f.Redirects {
		if r.Elsewhere != "" {
			fmt.Fprintf(w, "  redirect: %s %s on another host (%s)\n", r.Op, r.Elsewhere, r.Cmd)
			continue
		}
		fmt.Fprintf(w, "  redirect: %s %s (%s)\n", r.Op, r.Target, r.Cmd)
	}
	for _, p := range f.Paths {
		if p.Elsewhere != "" {
			fmt.Fprintf(w, "  path: %s on another host (%s by %s)\n", p.Elsewhere, p.Op, p.Via)
			continue
		}
		fmt.Fprintf(w, "  path: %s (%s by %s)\n", p.Path, p.Op, p.Via)
	}
	// scp/rsync [user@]host:path: a file of that host, not a project path
	// (callfacts/remote_operand.go); the destination is written there
	for i := range f.Commands {
		c := &f.Commands[i]
		if c.Name != "scp" && c.Name != "rsync" {
			continue
		}
		for j, a := range c.Pos {
			login, rp, ok := callfacts.RemoteOperand(a)
			if !ok {
				continue
			}
			op := callfacts.OpRead
			if j == len(c.Pos)-1 && len(c.Pos) > 1 {
				op = callfacts.OpWrite
			}
			fmt.Fprintf(w, "  path: %s on %s (%s by %s)\n", cmp.Or(rp, "~"), login, op, c.Name)
		}
	}
}

func newPolicyListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List every rule: id, pack, effective mode (off when disabled), description",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			env, err := loadPolicyEnv(nil)
			if err != nil {
				return err
			}
			opts := policy.OptionsFrom(env.cfg, paths.Home())
			type row struct {
				policy.RuleInfo
				On bool `json:"on"`
			}
			var rows []row
			for _, p := range policy.Builtin() {
				for i := range p.Rules {
					r := &p.Rules[i]
					m := policy.ResolveMode(r, &opts)
					rows = append(rows, row{policy.RuleInfo{ID: r.ID, Pack: p.Name, Mode: m, Desc: r.Desc, Source: "built-in"}, m != policy.Off})
				}
			}
			for i := range env.user {
				r := &env.user[i]
				m := policy.ResolveMode(r, &opts)
				rows = append(rows, row{policy.RuleInfo{ID: r.ID, Pack: r.Pack(), Mode: m, Desc: r.Desc, Source: r.Source}, m != policy.Off})
			}
			// Gates deny like rules do: they are listed with them.
			for _, g := range gates.Rules(env.cfg) {
				rows = append(rows, row{policy.RuleInfo{ID: g.ID, Pack: "gates", Mode: policy.Deny, Desc: g.Desc, Source: "built-in"}, g.On})
			}
			w := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			var buf bytes.Buffer
			defer func() { writeClipped(w, buf.String()) }()
			tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "RULE\tPACK\tMODE\tON\tDESCRIPTION")
			for _, r := range rows {
				on := "on"
				if !r.On {
					on = "off"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Pack, r.Mode, on, r.Desc)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "JSON output")
	return cmd
}

func newPolicyTestCmd() *cobra.Command {
	var verbose, asJSON, report bool
	var history historyOptions
	cmd := &cobra.Command{
		Use:   "test [FILES…]",
		Short: "Run rule tests: the built-in packs' own cases and the [[case]] entries of rule files",
		Long: `Run rule tests. Without FILES: every built-in rule's own cases (inputs it
must catch and near-misses it must allow) and the [[case]] entries of your
rule files. With FILES: those rule files' rules and cases (built-in rules
active too). A case is
  [[case]]
  command = "git push --force origin main"   # or call = '{"tool_name":…}'
  expect = "deny"                            # deny, ask, warn, audit, allow
  rule = "core.git:push-force"               # optional
Tests run in a fixed environment: home /home/dev, project /home/dev/proj,
a dirty git tree on main. Exit status 1 when a case fails.

--report runs warden's own corpus of risky commands and harmless
look-alikes instead and prints recall (risky commands denied or asked)
and false flags (look-alikes denied or asked) per class of cause. With
FILES, --report runs those corpus files instead (lines "<expect>
<command>", "@class NAME" switching the class), e.g. a held-out set, or
sets written as JSON lines ({"cmd": …, "want": "deny|ask|allow"} and,
optionally, "persona", "disguise", "effect", "zone"): an ask is met by
ask or deny, a deny only by deny; the classes are the personas, and the
labels get tables of their own.

--from-history turns recorded tool calls into cases: those the policy did
not simply allow (as recorded or now), those a rule decided (--rule ID), or
chosen events (--id N, from warden log --json), newest first up to
--limit, within --since. Paths of the project and the home are moved into
the test environment; each case expects what the rules decide now. They
are added to <project>/.warden/rules/history.toml (-o FILE), which
warden policy test runs from then on.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if history.on {
				if len(args) > 0 || report {
					return errors.New("--from-history takes no FILES and no --report: choose the file with -o")
				}
				return runPolicyTestFromHistory(cmd, history)
			}
			if report {
				return runCorpusReport(cmd.OutOrStdout(), args, verbose, asJSON)
			}
			env, err := loadPolicyEnv(args)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			for _, p := range env.probs {
				fmt.Fprintln(cmd.ErrOrStderr(), "warden: "+p.String())
			}
			var results []policy.CaseResult
			if len(args) == 0 {
				results = policy.RunRuleCases(policy.Builtin())
			}
			eng := policy.TestEngine(policy.Builtin(), env.user, policy.OptionsFrom(env.cfg, filepath.Join(policy.TestHome, ".warden")))
			results = append(results, policy.RunCases(eng, env.cases)...)
			failed := 0
			for _, r := range results {
				if !r.OK {
					failed++
				}
			}
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				if err := enc.Encode(results); err != nil {
					return err
				}
			} else {
				for _, r := range results {
					if verbose || !r.OK {
						fmt.Fprintln(w, r.String())
					}
				}
				fmt.Fprintf(w, "%d cases, %d passed, %d failed\n", len(results), len(results)-failed, failed)
			}
			if failed > 0 || len(env.probs) > 0 {
				return ExitError{Code: exitcode.Failure}
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print every case, not only failures")
	cmd.Flags().BoolVar(&asJSON, "json", false, "JSON output")
	cmd.Flags().BoolVar(&report, "report", false, "run the built-in corpus and print recall and false flags per class")
	addHistoryFlags(cmd, &history)
	return cmd
}

// runCorpusReport runs the built-in corpus against the built-in rules at
// their default modes (user config plays no part: the numbers describe
// warden, not this machine).
func runCorpusReport(w io.Writer, files []string, verbose, asJSON bool) error {
	cases, err := loadCorpus(files)
	if err != nil {
		return err
	}
	rs := corpus.Run(policy.TestEngine(policy.Builtin(), nil, policy.Options{}), cases)
	stats := corpus.Report(rs)
	// recall per effect and per zone: how a blind corpus will be judged
	byEffect := corpus.ReportBy(rs, func(r corpus.Result) string { return r.Effect })
	byZone := corpus.ReportBy(rs, func(r corpus.Result) string { return r.Zone })
	// and per label a JSON-lines set gives its cases (disguise…)
	byLabel := map[string][]corpus.ClassStats{}
	for _, k := range corpus.LabelKeys {
		if slices.ContainsFunc(rs, func(r corpus.Result) bool { return r.Labels[k] != "" }) {
			byLabel[k] = corpus.ReportBy(rs, func(r corpus.Result) string { return r.Labels[k] })
		}
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		var failed []corpus.Result
		for _, r := range rs {
			if !r.OK {
				failed = append(failed, r)
			}
		}
		if err := enc.Encode(map[string]any{"classes": stats, "effects": byEffect, "zones": byZone, "labels": byLabel, "failed": failed}); err != nil {
			return err
		}
	} else {
		for _, r := range rs {
			if verbose || !r.OK {
				mark := "ok  "
				if !r.OK {
					mark = "FAIL"
				}
				fmt.Fprintf(w, "%s %s: expected %s, got %s %s: %s\n", mark, r.Source, r.Expect, r.Got, r.Rule, oneLineClip(r.Command, 90))
			}
		}
		printStats(w, "CLASS", stats)
		fmt.Fprintln(w)
		printStats(w, "EFFECT", byEffect)
		fmt.Fprintln(w)
		printStats(w, "ZONE", byZone)
		for _, k := range corpus.LabelKeys {
			if st := byLabel[k]; st != nil {
				fmt.Fprintln(w)
				printStats(w, strings.ToUpper(k)+" (AS LABELLED)", st)
			}
		}
	}
	if stats[len(stats)-1].WrongDetail > 0 {
		return ExitError{Code: exitcode.Failure}
	}
	return nil
}

// printStats prints one table of the report: a row a group (class,
// effect or zone), the total last.
func printStats(w io.Writer, group string, stats []corpus.ClassStats) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, group+"\tRISKY\tCAUGHT\tRECALL\tLOOK-ALIKES\tFALSE FLAGS")
	for _, s := range stats {
		recall := "-"
		if s.Risky > 0 {
			recall = fmt.Sprintf("%.1f%%", 100*s.Recall)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%d\n", s.Class, s.Risky, s.Caught, recall, s.LookAlikes, s.FalseFlags)
	}
	tw.Flush()
}

// loadCorpus reads the corpus files named, or the built-in corpus.
func loadCorpus(files []string) ([]corpus.Case, error) {
	if len(files) == 0 {
		return corpus.Load()
	}
	var cases []corpus.Case
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("corpus file: %v", err)
		}
		parse := corpus.Parse
		if corpus.IsJSONL(f, b) {
			parse = corpus.ParseJSONL
		}
		cs, err := parse(f, b)
		if err != nil {
			return nil, err
		}
		cases = append(cases, cs...)
	}
	return cases, nil
}

func oneLineClip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func newPolicyLintCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "lint [FILES…]",
		Short: "Check rule files: expression and regexp errors with file:line, unknown fields, tools and events, rules that can never fire",
		RunE: func(cmd *cobra.Command, args []string) error {
			env, err := loadPolicyEnv(args)
			if err != nil {
				return err
			}
			opts := policy.OptionsFrom(env.cfg, paths.Home())
			var lines []string
			for _, p := range env.probs {
				lines = append(lines, p.String())
			}
			for _, p := range policy.Lint(env.user, opts) {
				lines = append(lines, p.String())
			}
			for _, s := range policy.LintOptions(env.user, policy.Builtin(), opts) {
				lines = append(lines, "config: "+s)
			}
			w := cmd.OutOrStdout()
			for _, l := range lines {
				fmt.Fprintln(w, l)
			}
			if len(lines) > 0 {
				return ExitError{Code: exitcode.Failure}
			}
			fmt.Fprintf(w, "%d user rules, no problems\n", len(env.user))
			return nil
		},
	}
}
