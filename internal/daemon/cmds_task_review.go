package daemon

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// The review side of a task, run where its agent runs (the daemon's
// machine, like `warden task show`'s agent story): answer a waiting
// agent's pending call, see what its branch holds.

// localAgents opens this machine's store and an agent manager with the
// configured tmux server; the caller closes the store.
func localAgents(ctx context.Context) (*agent.Manager, *sqlite.Store, error) {
	if _, err := os.Stat(paths.DB()); err != nil {
		return nil, nil, fmt.Errorf("no warden store at %s: tasks run by `warden serve` on this machine keep their agents there", paths.DB())
	}
	st, err := sqlite.Open(ctx, paths.DB())
	if err != nil {
		return nil, nil, err
	}
	cfg, _ := config.Load(paths.UserConfig(), "")
	return agent.NewManager(agent.ConfigFrom(cfg), st), st, nil
}

func newTaskAnswerCmd(approve bool) *cobra.Command {
	var reason string
	var asJSON, always bool
	use, short := "approve ID [--always]", "Approve the tool call a waiting task's agent asks about (answers Claude Code's dialog: Yes)"
	if !approve {
		use, short = "deny ID [--reason TEXT]", "Deny the tool call a waiting task's agent asks about; the agent is told why and goes on"
	}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long: short + `.

A task's agent waits when warden's policy answered one of its tool calls
with ask: Claude Code shows its permission dialog in the agent's tmux
window. This answers that dialog without attaching: approve selects "Yes";
deny selects "No" and types a message for the agent (the call, and --reason
when given) so it carries on without the call. ` + "`warden task show ID`" + ` prints
the call under "waiting on:".

approve --always also allows the same kind of call for the rest of the
task, without asking: the same command exactly (Bash), or the same tool on
the same file (Edit, Write, Read…), or the same tool with the same input.
A rule that denies still denies.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			m, st, err := localAgents(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			p, err := m.Answer(ctx, args[0], approve, always, reason)
			if err != nil {
				return err
			}
			verb := "approved"
			if !approve {
				verb = "denied"
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), map[string]any{"task": args[0], "answer": verb, "call": p, "reason": reason, "always": always})
			}
			if always {
				verb += " (always for this task)"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s %s: %s\n", args[0], verb, p)
			return nil
		},
	}
	if !approve {
		cmd.Flags().StringVar(&reason, "reason", "", "why, for the agent (it gets the call denied and this text)")
	} else {
		cmd.Flags().BoolVar(&always, "always", false, "also allow the same command (or tool and file) for the rest of this task")
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "JSON output")
	return cmd
}

func newTaskDiffCmd() *cobra.Command {
	var statOnly, asJSON bool
	cmd := &cobra.Command{
		Use:   "diff ID [--stat]",
		Short: "What a task's branch holds against the commit its agent started from: commits, stat and patch",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			m, st, err := localAgents(ctx)
			if err != nil {
				return err
			}
			defer st.Close()
			s, err := m.Status(ctx, args[0])
			if err != nil {
				return err
			}
			if s == nil {
				return fmt.Errorf("task %s has no agent here, so no branch (warden task show %s)", args[0], args[0])
			}
			d, err := agent.BranchDiff(ctx, s.Agent, !statOnly)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), d)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "task %s: branch %s against %s@%s: %s\n", d.Task, d.Branch, d.Base, short(d.BaseCommit), d.Stat)
			if len(d.Commits) > 0 {
				fmt.Fprintln(w, "\ncommits:")
				for _, c := range d.Commits {
					fmt.Fprintln(w, "  "+c)
				}
			}
			if d.StatText != "" {
				fmt.Fprintln(w, "\n"+d.StatText)
			}
			if d.Patch != "" {
				fmt.Fprintln(w, "\n"+d.Patch)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&statOnly, "stat", false, "commits and stat only, no patch")
	cmd.Flags().BoolVar(&asJSON, "json", false, "JSON output")
	return cmd
}
