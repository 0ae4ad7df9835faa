package daemon

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// newTaskPruneCmd is `warden task prune`: the daemon's hourly task
// retention (prune.go) at once, on the store that holds the queue (the
// shared PostgreSQL store when one is configured), with or without a
// daemon running.
func newTaskPruneCmd() *cobra.Command {
	var dry, asJSON bool
	var filesDays, rowsDays int
	cmd := &cobra.Command{
		Use:   "prune [--dry-run] [--json] [--files-days N] [--rows-days N]",
		Short: "Remove finished tasks' directories and rows past their retention (serve.task_files_days, serve.task_rows_days)",
		Long: `Removes the directories ($WARDEN_HOME/tasks/<id>) and agents' logs
($WARDEN_HOME/logs/agents/<id>.log) of tasks finished more than
serve.task_files_days ago (14) and deletes the rows — the task, its
history and decisions — of tasks finished more than serve.task_rows_days
ago (90). A task that is not finished is never touched; one whose git
worktree is still there keeps its rows and is listed, with what to do.
The daemon does the same every hour; --dry-run says what would go.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _ := config.Load(paths.UserConfig(), "")
			if !cmd.Flags().Changed("files-days") {
				filesDays = cfg.Serve.TaskFilesDays
			}
			if !cmd.Flags().Changed("rows-days") {
				rowsDays = cfg.Serve.TaskRowsDays
			}
			if filesDays < 0 || rowsDays < 0 {
				return fmt.Errorf("--files-days and --rows-days take 0 (keep) or more days")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			var st interface {
				pruneStore
				Close() error
			}
			if u, _ := cfg.StoreURL(); u != "" {
				pg, err := postgres.Open(ctx, u)
				if err != nil {
					return err
				}
				st = pg
			} else {
				lite, err := sqlite.Open(ctx, paths.DB())
				if err != nil {
					return err
				}
				st = lite
			}
			defer st.Close()
			r, err := pruneTasks(ctx, st, PruneOptions{TaskDir: paths.TaskDir(), AgentLogs: paths.AgentLogs(), Worktrees: paths.Worktrees(),
				FilesDays: filesDays, RowsDays: rowsDays, Now: time.Now(), DryRun: dry})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return printJSON(out, r)
			}
			verb := map[bool][2]string{false: {"removed", "deleted"}, true: {"would remove", "would delete"}}[dry]
			fmt.Fprintf(out, "%s %d task directories and %d agent logs (%s), %s %d finished tasks (%s)\n",
				verb[0], len(r.Dirs), len(r.Logs), days("serve.task_files_days", filesDays), verb[1], len(r.Tasks), days("serve.task_rows_days", rowsDays))
			for _, k := range r.Kept {
				fmt.Fprintf(out, "kept %s: %s (%s)\n", k.Task, k.Why, k.Path)
			}
			for _, e := range r.Errors {
				fmt.Fprintf(out, "error: %s\n", e)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&dry, "dry-run", false, "say what would be removed, remove nothing")
	f.BoolVar(&asJSON, "json", false, "JSON output: the directories, the task ids, what was kept and why")
	f.IntVar(&filesDays, "files-days", 0, "override serve.task_files_days (0 = keep every directory)")
	f.IntVar(&rowsDays, "rows-days", 0, "override serve.task_rows_days (0 = keep every row)")
	return cmd
}

func days(key string, n int) string {
	if n == 0 {
		return key + " = 0: kept"
	}
	return fmt.Sprintf("finished over %d days ago", n)
}
