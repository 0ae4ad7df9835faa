package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/usage"
)

type usageOptions struct {
	json, breakdown, offline, noCache bool
	since, until, project, timezone   string
	harness                           string
	startOfWeek                       string
	// blocks
	tokenLimit    string
	active        bool
	recent        bool
	sessionLength float64
}

func newUsageCmd() *cobra.Command {
	var o usageOptions
	cmd := &cobra.Command{
		Use:   "usage daily|weekly|monthly|session|blocks [flags]",
		Short: "Token and cost reports from Claude Code transcripts (ccusage-compatible), or another CLI's",
		Long: `Token and cost reports from the Claude Code transcripts under
$CLAUDE_CONFIG_DIR (a comma-separated list is allowed) or ~/.claude and
~/.config/claude (projects/**/*.jsonl, subagent transcripts included).

Each API response is counted once, by ccusage's rules: session and blocks
give ccusage's figures on the same files, and daily, weekly and monthly use
the same entries, so every report adds up to the same total (ccusage's own
daily can differ from its session report). Costs come from a price table
embedded in warden (no network); models it does not know cost 0 and are
named in a warning. --json prints ccusage's JSON shapes.

Parsed entries are cached per file in warden's store, so a later run reads
only what was appended (--no-cache reads everything).

--harness codex|gemini|copilot gives the same reports over that CLI's own
transcripts: Codex's rollouts ($CODEX_HOME/sessions), Gemini CLI's chats
(~/.gemini/tmp/*/chats) or Copilot CLI's session events
(~/.copilot/session-state). Input is the input not read from a cache,
output includes reasoning; a session's project is the directory it ran in.`,
		Args: cobra.NoArgs,
	}
	pf := cmd.PersistentFlags()
	pf.BoolVarP(&o.json, "json", "j", false, "JSON output (ccusage's field names and nesting)")
	pf.StringVarP(&o.since, "since", "s", "", "from this date (YYYYMMDD or YYYY-MM-DD), inclusive")
	pf.StringVarP(&o.until, "until", "u", "", "until this date (YYYYMMDD or YYYY-MM-DD), inclusive")
	pf.StringVarP(&o.project, "project", "p", "", "only this project (Claude Code: directory name under projects/; other CLIs: the session's directory)")
	pf.BoolVarP(&o.breakdown, "breakdown", "b", false, "per-model rows in tables")
	pf.StringVarP(&o.timezone, "timezone", "z", "", "time zone for dates (default: local)")
	pf.BoolVarP(&o.offline, "offline", "O", true, "use the embedded price table (always; accepted for ccusage compatibility)")
	pf.BoolVar(&o.noCache, "no-cache", false, "read every file, ignore and do not update the cache")
	pf.StringVar(&o.harness, "harness", "claude", "whose transcripts: claude, codex, gemini or copilot")

	for _, kind := range []string{usage.Daily, usage.Weekly, usage.Monthly} {
		kind := kind
		c := &cobra.Command{
			Use:   kind,
			Short: "Usage per " + map[string]string{usage.Daily: "day", usage.Weekly: "week", usage.Monthly: "month"}[kind],
			Args:  cobra.NoArgs,
			RunE:  func(cmd *cobra.Command, _ []string) error { return runUsage(cmd, kind, o) },
		}
		if kind == usage.Weekly {
			c.Flags().StringVarP(&o.startOfWeek, "start-of-week", "w", "sunday", "first day of a week")
		}
		cmd.AddCommand(c)
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "session",
		Short: "Usage per session (transcript file; subagent files count for their session)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return runUsage(cmd, "session", o) },
	})
	blocks := &cobra.Command{
		Use:   "blocks",
		Short: "Usage per 5-hour billing block, with burn rate and projection for the active one",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return runUsage(cmd, "blocks", o) },
	}
	bf := blocks.Flags()
	bf.StringVarP(&o.tokenLimit, "token-limit", "t", "", `token limit for the active block's status (N or "max")`)
	bf.BoolVarP(&o.active, "active", "a", false, "only the active block")
	bf.BoolVarP(&o.recent, "recent", "r", false, "blocks of the last 3 days (and the active one)")
	bf.Float64VarP(&o.sessionLength, "session-length", "n", 5, "block length in hours")
	cmd.AddCommand(blocks)
	return cmd
}

func normDate(s, flag string) (string, error) {
	if s == "" {
		return "", nil
	}
	d := strings.ReplaceAll(s, "-", "")
	if _, err := time.Parse("20060102", d); err != nil {
		return "", fmt.Errorf("--%s %q: want YYYYMMDD or YYYY-MM-DD", flag, s)
	}
	return d, nil
}

// usageMemoryLimit is the soft heap limit of a usage run (unless GOMEMLIMIT
// says otherwise): a cold scan of a large tree then collects garbage more
// often instead of growing past ~150 MB of resident memory.
const usageMemoryLimit = 100 << 20

func runUsage(cmd *cobra.Command, report string, o usageOptions) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(usageMemoryLimit))
	}
	var f usage.Filter
	var err error
	if f.Since, err = normDate(o.since, "since"); err != nil {
		return err
	}
	if f.Until, err = normDate(o.until, "until"); err != nil {
		return err
	}
	f.Project = o.project
	f.Loc = time.Local
	if o.timezone != "" {
		if f.Loc, err = time.LoadLocation(o.timezone); err != nil {
			return fmt.Errorf("--timezone %q: %v", o.timezone, err)
		}
	}
	var bopt usage.BlockOptions
	if report == "blocks" {
		if o.sessionLength <= 0 {
			return fmt.Errorf("--session-length must be positive")
		}
		bopt = usage.BlockOptions{Length: time.Duration(o.sessionLength * float64(time.Hour)), Active: o.active, Recent: o.recent}
		switch strings.ToLower(o.tokenLimit) {
		case "":
		case "max":
			bopt.LimitMax = true
		default:
			n, err := strconv.ParseInt(o.tokenLimit, 10, 64)
			if err != nil || n <= 0 {
				return fmt.Errorf("--token-limit %q: want a positive number or max", o.tokenLimit)
			}
			bopt.TokenLimit = n
		}
	}
	week := time.Sunday
	if report == usage.Weekly {
		days := map[string]time.Weekday{"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday,
			"wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday}
		w, ok := days[strings.ToLower(o.startOfWeek)]
		if !ok {
			return fmt.Errorf("--start-of-week %q: want a day name", o.startOfWeek)
		}
		week = w
	}

	h, err := harness.Parse(o.harness)
	if err != nil {
		return fmt.Errorf("--harness: %v", err)
	}
	if h != harness.Claude {
		return runHarnessUsage(ctx, cmd, string(h), report, o, f, bopt, week)
	}

	opt := usage.Options{}
	var st usage.CacheStore // nil: no cache
	if !o.noCache {
		if s, err := sqlite.Open(ctx, paths.DB()); err == nil {
			defer s.Close()
			st, opt.Cache = s, usage.StoreCache{St: s}
		}
	}
	dirs := usage.ConfigDirs()
	if st != nil {
		opt.Files, err = usage.DiscoverStore(ctx, st, dirs)
	} else {
		opt.Files, err = usage.Discover(dirs)
	}
	if err != nil {
		return err
	}
	if len(opt.Files) == 0 {
		// Say where it looked: an empty report from the wrong directory
		// looks just like no usage.
		where := make([]string, len(dirs))
		for i, d := range dirs {
			where[i] = filepath.Join(d, "projects")
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "warden: no Claude Code transcripts (*.jsonl) under %s; set CLAUDE_CONFIG_DIR to read another directory\n",
			strings.Join(where, " or "))
	}
	// The unfiltered blocks are kept in the store: an unchanged tree is
	// answered from a snapshot and appended lines are added to the last
	// block without reading every file's entries (status line, pacing).
	if report == "blocks" && st != nil && f.Since == "" && f.Until == "" && f.Project == "" {
		stopProgress := startProgress(cmd.ErrOrStderr(), &opt)
		aggs, _, err := usage.LoadBlocks(ctx, st, opt, bopt.Length)
		stopProgress()
		if err != nil {
			return err
		}
		return printBlocks(cmd, usage.FinishBlocks(aggs, bopt), o.json)
	}
	stopProgress := startProgress(cmd.ErrOrStderr(), &opt)
	d, err := usage.Load(ctx, opt)
	stopProgress()
	if err != nil {
		return err
	}
	return printUsage(cmd, d, report, o, f, bopt, week)
}

// printUsage prints report over the loaded entries that pass f.
func printUsage(cmd *cobra.Command, d *usage.Data, report string, o usageOptions, f usage.Filter, bopt usage.BlockOptions, week time.Weekday) error {
	es := d.Select(f)
	out := cmd.OutOrStdout()
	width := terminalWidth()
	var unpriced []string
	switch report {
	case "session":
		r := usage.Sessions(d, es)
		unpriced = r.Totals.UnpricedModels
		if o.json {
			return writeJSON(out, r)
		}
		io.WriteString(out, usage.SessionTable(r, o.breakdown, width))
	case "blocks":
		return printBlocks(cmd, usage.Blocks(d, es, bopt), o.json)
	default:
		rows, t := usage.Periods(d, es, report, f.Loc, week)
		unpriced = t.UnpricedModels
		if o.json {
			return writeJSON(out, usage.PeriodJSON(report, rows, t))
		}
		io.WriteString(out, usage.PeriodTable(report, rows, t, o.breakdown, width))
	}
	if len(unpriced) > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: no price for %s: counted at $0\n", strings.Join(unpriced, ", "))
	}
	return nil
}

func printBlocks(cmd *cobra.Command, r usage.BlocksReport, asJSON bool) error {
	if asJSON {
		return writeJSON(cmd.OutOrStdout(), r)
	}
	io.WriteString(cmd.OutOrStdout(), usage.BlocksTable(r, terminalWidth(), time.Now()))
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// startProgress shows a progress line on stderr when the scan takes more
// than half a second and stderr is a terminal; nothing otherwise.
func startProgress(w io.Writer, opt *usage.Options) (stop func()) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return func() {}
	}
	var done, total atomic.Int64
	opt.Progress = func(d, t int64) { done.Store(d); total.Store(t) }
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		shown := false
		for {
			select {
			case <-quit:
				if shown {
					fmt.Fprint(f, "\r\033[K")
				}
				return
			case <-tick.C:
				if time.Since(start) < 500*time.Millisecond {
					continue
				}
				t := total.Load()
				if t <= 0 {
					continue
				}
				shown = true
				d := done.Load()
				const barW = 30
				n := int(float64(barW) * float64(d) / float64(t))
				if n > barW {
					n = barW
				}
				fmt.Fprintf(f, "\rscanning transcripts [%s%s] %3.0f%% %d/%d MB", strings.Repeat("#", n), strings.Repeat(".", barW-n),
					100*float64(d)/float64(t), d>>20, t>>20)
			}
		}
	}()
	return func() { close(quit); <-finished }
}
