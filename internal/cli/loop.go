package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/loop"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

func newLoopCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "loop {start|status|stop}",
		Short: "Iteration loop: keep Claude working on a task until its acceptance criteria hold",
		Long: `An iteration loop for the current project. Every Stop of a Claude Code
session in the project checks the criteria — the --check commands (exit 0 =
holds), then the --criteria text by the LLM judge when one is configured,
else by Claude declaring them met — counts the iteration and, while
something is missing, blocks the stop with what is missing. The loop ends
when everything holds or at --max iterations, with a summary.`,
	}
	cmd.AddCommand(newLoopStartCmd(), newLoopStatusCmd(), newLoopStopCmd())
	return cmd
}

func newLoopStartCmd() *cobra.Command {
	var criteria, checks []string
	var max int
	var force bool
	cmd := &cobra.Command{
		Use:   `start "TASK" --criteria "…" [--check CMD] [--max 20]`,
		Short: "Start a loop for this project",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := context.Background()
			project := loopProject()
			l, err := loop.New(project, args[0], criteria, checks, max, time.Now())
			if err != nil {
				return err
			}
			return withStore(ctx, func(st store.Local) error {
				old, err := loop.Load(ctx, st, project)
				if err != nil {
					return err
				}
				if old != nil && old.Status == loop.Active && !force {
					return fmt.Errorf("a loop is already active in %s (%q, iteration %d of %d); `warden loop stop` it first or pass --force to replace it",
						old.Project, old.Task, old.Iteration, old.Max)
				}
				if err := loop.Save(ctx, st, l); err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				fmt.Fprintf(out, "loop started in %s: %q, at most %d iterations\n", l.Project, l.Task, l.Max)
				for _, c := range l.Criteria {
					fmt.Fprintf(out, "  criterion: %s\n", c)
				}
				for _, c := range l.Checks {
					fmt.Fprintf(out, "  check:     %s\n", c)
				}
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&criteria, "criteria", nil, "an acceptance criterion (repeatable)")
	f.StringArrayVar(&checks, "check", nil, "a shell command that exits 0 when the work is done (repeatable)")
	f.IntVar(&max, "max", loop.DefaultMax, "end the loop after this many iterations")
	f.BoolVar(&force, "force", false, "replace an active loop")
	return cmd
}

func newLoopStatusCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status [--json]",
		Short: "Show this project's loop: iteration, criteria, what was missing at each stop",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := context.Background()
			l, err := loadLoop(ctx)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(l) // null when there is none
			}
			if l == nil {
				fmt.Fprintf(out, "no loop in %s\n", loop.Canonical(loopProject()))
				return nil
			}
			fmt.Fprintln(out, l.Summary())
			for _, c := range l.Criteria {
				fmt.Fprintf(out, "  criterion: %s\n", c)
			}
			for _, c := range l.Checks {
				fmt.Fprintf(out, "  check:     %s\n", c)
			}
			for _, it := range l.History {
				state := "all held"
				if len(it.Missing) > 0 {
					state = fmt.Sprintf("%d missing: %s", len(it.Missing), clipLine(strings.ReplaceAll(strings.Join(it.Missing, "; "), "\n", " "), 100))
				}
				fmt.Fprintf(out, "  #%-3d %s  %s\n", it.N, it.Time.Local().Format("01-02 15:04:05"), state)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "the loop as JSON")
	return cmd
}

func newLoopStopCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "stop",
		Short: "Stop this project's loop (stops are no longer blocked)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := context.Background()
			return withStore(ctx, func(st store.Local) error {
				l, err := loop.Load(ctx, st, loopProject())
				if err != nil {
					return err
				}
				if l == nil || l.Status != loop.Active {
					fmt.Fprintf(cmd.OutOrStdout(), "no active loop in %s\n", loop.Canonical(loopProject()))
					return nil
				}
				l.Status = loop.Stopped
				if err := loop.Save(ctx, st, l); err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout(), l.Summary())
				return nil
			})
		},
	}
}

func loopProject() string {
	cwd, _ := os.Getwd()
	return paths.ProjectDir(cwd)
}

func loadLoop(ctx context.Context) (*loop.Loop, error) {
	if _, err := os.Stat(paths.DB()); err != nil {
		return nil, nil // no store: no loop
	}
	st, err := sqlite.Open(ctx, paths.DB())
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return loop.Load(ctx, st, loopProject())
}
