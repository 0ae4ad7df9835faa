package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/warden-dev/warden/internal/store"
)

// newAgentCmd is `warden agent`: the agents `warden serve` runs, one per
// task, each in a window of the tmux session "warden".
func newAgentCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "agent {list|attach|logs|kill}",
		Short: "The agents running tasks: list, attach to, read or kill them",
		Long: `Each task warden serve runs gets a git worktree (~/.warden/worktrees/<project>/<task>,
branch warden/<task>) and an agent in a window of the tmux session "warden".
Its state comes from its own hooks: spawning, working, waiting (for input),
done, error, timed_out.`,
	}
	cmd.AddCommand(newAgentListCmd(), newAgentAttachCmd(), newAgentLogsCmd(), newAgentKillCmd())
	return cmd
}

// agentStore is what the agent commands need of the store: the manager's
// part, and closing it.
func newAgentListCmd() *cobra.Command {
	var all, asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--all] [--json]",
		Short: "Agents not cleaned up yet (--all: every agent ever run)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := context.Background()
			return withExistingStore(ctx, func(st store.Local) error {
				as, err := st.Agents(ctx, all)
				if err != nil {
					return err
				}
				if asJSON {
					enc := json.NewEncoder(cmd.OutOrStdout())
					for _, a := range as {
						if err := enc.Encode(a); err != nil {
							return err
						}
					}
					return nil
				}
				if len(as) == 0 {
					fmt.Fprintln(cmd.OutOrStdout(), "no agents")
					return nil
				}
				var b bytes.Buffer
				tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "TASK\tSTATE\tFOR\tLAST EVENT\tBRANCH\tREASON")
				now := time.Now()
				for _, a := range as {
					end := now
					if !a.Ended.IsZero() {
						end = a.Ended
					}
					last := "-"
					if !a.LastEvent.IsZero() {
						last = ago(now.Sub(a.LastEvent))
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", a.TaskID, a.State, end.Sub(a.Started).Round(time.Second), last, a.Branch, a.Reason)
				}
				tw.Flush()
				writeClipped(cmd.OutOrStdout(), b.String())
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "also agents that ended and were cleaned up")
	cmd.Flags().BoolVar(&asJSON, "json", false, "one JSON object per agent")
	return cmd
}

func ago(d time.Duration) string { return d.Round(time.Second).String() + " ago" }
