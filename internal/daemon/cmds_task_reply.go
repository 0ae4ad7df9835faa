package daemon

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/server"
)

// `warden task reply` and `warden task merge` go through the daemon's
// API: a follow-up run needs its scheduler, and a merge is recorded on
// the task. The daemon runs on the machine of the agents and their
// project repositories.

// reviewTimeout bounds a reply (typing into the agent's prompt waits for
// Claude Code to take it) and a merge (a push and gh for --pr).
const reviewTimeout = 3 * time.Minute

func reviewClient() (*Client, context.Context, context.CancelFunc, error) {
	c, _, cancel, err := client()
	if err != nil {
		return nil, nil, nil, err
	}
	cancel()
	ctx, cancel := context.WithTimeout(context.Background(), reviewTimeout)
	return c, ctx, cancel, nil
}

func newTaskReplyCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "reply ID TEXT…",
		Short: "Send a follow-up to a task's agent: typed into its prompt while it runs; a new run on its branch once it finished",
		Long: `Send a follow-up to a task's agent.

While the agent runs, TEXT is typed into Claude Code's prompt in its tmux
window, literally (control characters are dropped; newlines become
spaces), and submitted: the agent reads it when its current step is done.
An agent waiting on a call the policy asked about is answered first with
warden task approve / deny --reason.

A finished task (done or failed) is queued again: its agent starts a
follow-up run in a new worktree on the task's own branch, with TEXT as its
prompt and the task's context (the original prompt, the branch's commits,
how the last run ended). A cancelled task takes no reply.`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			text := strings.Join(args[1:], " ")
			if strings.TrimSpace(text) == "" {
				return fmt.Errorf("the reply is empty: say what the agent should do")
			}
			c, ctx, cancel, err := reviewClient()
			if err != nil {
				return err
			}
			defer cancel()
			var res server.ReplyResult
			if err := c.Do(ctx, "POST", "/api/tasks/"+url.PathEscape(args[0])+"/reply", server.ReplyRequest{Text: text}, &res); err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), res)
			}
			switch res.Delivered {
			case "typed":
				fmt.Fprintf(cmd.OutOrStdout(), "%s: reply sent to the running agent\n", res.Task)
			default:
				fmt.Fprintf(cmd.OutOrStdout(), "%s %s: a follow-up run on its branch starts with the reply\n", res.Task, res.Status)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "JSON output")
	return cmd
}

func newTaskMergeCmd() *cobra.Command {
	var req server.MergeRequest
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge ID [--pr] [--dry-run]",
		Short: "Merge a finished task's branch into its base, or open a pull request with gh",
		Long: `Merge a finished task's branch into its base branch, in the project's
repository.

Nothing changes unless the merge is clean: conflicts are found first
(git merge-tree) and refused with the files named; where the base is
checked out, uncommitted or untracked files the merge would change refuse
it too (other local changes are left alone). Then git merge --no-ff runs
in that checkout, or, with the base not checked out, the merge commit is
made without one. The task records the merge: the board shows it merged.

--pr pushes the branch to the project's GitHub remote and opens a pull
request into the base with gh (which must be logged in: gh auth status).
--dry-run says what would happen and changes nothing.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, ctx, cancel, err := reviewClient()
			if err != nil {
				return err
			}
			defer cancel()
			var res server.MergeResult
			if err := c.Do(ctx, "POST", "/api/tasks/"+url.PathEscape(args[0])+"/merge", req, &res); err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), res)
			}
			w := cmd.OutOrStdout()
			would := ""
			if res.DryRun {
				would = "would be "
			}
			if res.Method == "pr" {
				if res.DryRun {
					fmt.Fprintf(w, "%s: %s would be pushed to %s and a pull request opened into %s on %s\n", res.Task, res.Branch, res.Remote, res.Base, res.Repo)
				} else {
					fmt.Fprintf(w, "%s: pull request %s (%s into %s)\n", res.Task, res.URL, res.Branch, res.Base)
				}
				return nil
			}
			where := "without a checkout (" + res.Base + " is not checked out)"
			if res.Checkout != "" {
				where = "in " + res.Checkout
			}
			fmt.Fprintf(w, "%s: %s %smerged into %s %s: %d commit(s), %d file(s)", res.Task, res.Branch, would, res.Base, where, len(res.Commits), len(res.Files))
			if res.Commit != "" {
				fmt.Fprintf(w, ", merge commit %s", short(res.Commit))
			}
			fmt.Fprintln(w)
			for _, c := range res.Commits {
				fmt.Fprintln(w, "  "+c)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&req.PR, "pr", false, "open a pull request with gh instead of merging here")
	cmd.Flags().BoolVar(&req.DryRun, "dry-run", false, "say what would happen, change nothing")
	cmd.Flags().BoolVar(&asJSON, "json", false, "JSON output")
	return cmd
}
