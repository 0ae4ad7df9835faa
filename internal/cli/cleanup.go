package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/cleanup"
	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

func newCleanupCmd() *cobra.Command {
	var kill, asJSON, record bool
	var minAge, deadline time.Duration
	cmd := &cobra.Command{
		Use:   "cleanup [--kill] [--json]",
		Short: "List (and with --kill end) orphaned Claude Code, MCP-server and subagent processes",
		Long: `Lists this user's Claude Code, MCP-server and subagent processes whose
session is gone — their tree was adopted by init or a service manager, or
the session they were started in has ended — with age and memory. Live
sessions and other users' processes are never listed. --kill sends SIGTERM,
then SIGKILL after 3 s to those still running. With cleanup.on_start = true
every SessionStart runs "warden cleanup --kill --min-age 2m" in the
background.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			procs, err := cleanup.List()
			if err != nil {
				return err
			}
			now := time.Now()
			var orphans []cleanup.Orphan
			for _, o := range cleanup.Find(procs, os.Getuid()) {
				if o.Age(now) >= minAge {
					orphans = append(orphans, o)
				}
			}
			var killed, failed []int
			if os.Getenv("WARDEN_TEST_CLEANUP_DRY") == "1" {
				kill = false // tests on a shared machine list, never kill
			}
			if kill && len(orphans) > 0 {
				killed, failed = cleanup.Kill(ctx, orphans, 3*time.Second)
			}
			if record {
				recordCleanup(ctx, now, orphans, killed, failed)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				type row struct {
					PID      int    `json:"pid"`
					PPID     int    `json:"ppid"`
					Kind     string `json:"kind"`
					Top      int    `json:"top"`
					AgeS     int64  `json:"age_s"`
					RSSBytes int64  `json:"rss_bytes"`
					Command  string `json:"command"`
					Why      string `json:"why"`
				}
				rows := []row{}
				for _, o := range orphans {
					rows = append(rows, row{o.PID, o.PPID, o.Kind, o.Top, int64(o.Age(now).Seconds()), o.RSS, o.Command(), o.Why})
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(map[string]any{"orphans": rows, "killed": nonNil(killed), "failed": nonNil(failed)})
			}
			if len(orphans) == 0 {
				fmt.Fprintln(out, "no orphaned Claude Code, MCP-server or subagent processes")
				return nil
			}
			var total int64
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "PID\tPARENT\tKIND\tAGE\tMEMORY\tCOMMAND")
			for _, o := range orphans {
				total += o.RSS
				fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\n", o.PID, o.PPID, o.Kind, shortAge(o.Age(now)), mb(o.RSS), o.Command())
			}
			tw.Flush()
			fmt.Fprintf(out, "%d orphaned process(es), %s resident; why: %s\n", len(orphans), mb(total), orphans[0].Why)
			switch {
			case !kill:
				fmt.Fprintln(out, "run `warden cleanup --kill` to end them")
			case len(failed) > 0:
				fmt.Fprintf(out, "ended %d; could not end %v\n", len(killed), failed)
				return ExitError{Code: exitcode.Failure}
			default:
				fmt.Fprintf(out, "ended %d\n", len(killed))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&kill, "kill", false, "end them (SIGTERM, then SIGKILL after 3 s)")
	f.BoolVar(&asJSON, "json", false, "the list as JSON")
	f.DurationVar(&minAge, "min-age", 0, "only processes that have run at least this long")
	f.DurationVar(&deadline, "deadline", 20*time.Second, "give up after this long")
	f.BoolVar(&record, "record", false, "save what was done in the store (used by cleanup.on_start)")
	_ = f.MarkHidden("record")
	return cmd
}

func recordCleanup(ctx context.Context, now time.Time, orphans []cleanup.Orphan, killed, failed []int) {
	st, err := sqlite.Open(ctx, paths.DB())
	if err != nil {
		return
	}
	defer st.Close()
	msg := fmt.Sprintf("%s: %d orphaned, %d ended, %d could not be ended", now.UTC().Format(time.RFC3339), len(orphans), len(killed), len(failed))
	_ = st.SetSetting(ctx, cleanup.SettingLast, msg)
}

func shortAge(d time.Duration) string {
	switch {
	case d >= 24*time.Hour:
		return fmt.Sprintf("%dd%dh", int(d.Hours())/24, int(d.Hours())%24)
	case d >= time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}

func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }
