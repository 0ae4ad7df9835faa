package daemon

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/termtext"
)

func newTaskCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "task add|list|show|cancel|approve|deny|diff|reply|merge|prune",
		Short: "Queue, list, inspect and cancel the daemon's tasks (through its API); answer a waiting agent, see its diff, reply, merge",
	}
	cmd.AddCommand(newTaskAddCmd(), newTaskListCmd(), newTaskShowCmd(), newTaskCancelCmd(),
		newTaskAnswerCmd(true), newTaskAnswerCmd(false), newTaskDiffCmd(), newTaskReplyCmd(), newTaskMergeCmd(), newTaskPruneCmd())
	return cmd
}

func client() (*Client, context.Context, context.CancelFunc, error) {
	c, err := NewClient(paths.ServeState(), paths.CLIToken())
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	return c, ctx, cancel, nil
}

func newTaskAddCmd() *cobra.Command {
	var req server.TaskRequest
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "add [--project DIR] [--priority N] [--agent KIND] [--done-when CRIT]… [--allow OP]… [--deny OP]… PROMPT…",
		Short: "Queue a task: an agent works on PROMPT in the project directory",
		Long: `Queue a task: an agent works on PROMPT in the project directory.

--done-when adds a completion criterion for this task, on top of agent.criteria:
committed (a commit past the base), clean (nothing uncommitted), run:CMD (CMD
exits 0 in the worktree), or a sentence for the completion judge. A task whose
agent stops with a criterion unmet fails with what is missing.

--allow lets this task's agent run a guarded operation:
  ` + strings.Join(task.AllowOps, ", ") + `
--deny forbids one it may otherwise run: ` + strings.Join(task.DenyOps, ", ") + `
--profile adds a named set: read-only (deny write, commit), offline (deny
network), sealed (all three), publish (allow push).
The agent's hooks enforce them for this task only; criteria and operations
need a worktree agent (tmux, codex, gemini or copilot).

--agent names the agent that runs the task (default: agent.runner):
  tmux      Claude Code in the task's own git worktree and tmux window
  claude-p  claude -p in the project directory
  codex     Codex CLI (codex exec), in its own worktree and tmux window
  gemini    Gemini CLI (gemini, headless), likewise
  copilot   Copilot CLI (copilot, headless), likewise
The other CLIs get the prompt on stdin, run with warden's hooks for them
installed (warden install --harness NAME, done for you when missing), and
their task is done by the same criteria as Claude Code's.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Prompt = strings.Join(args, " ")
			if err := task.CheckAgent(req.Agent); err != nil {
				return fmt.Errorf("--agent: %w", err)
			}
			if req.Project == "" {
				req.Project, _ = os.Getwd()
			}
			if abs, err := filepath.Abs(req.Project); err == nil {
				req.Project = abs
			}
			req.Source = "cli"
			c, ctx, cancel, err := client()
			if err != nil {
				return err
			}
			defer cancel()
			var t task.Task
			if err := c.Do(ctx, "POST", "/api/tasks", req, &t); err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), t)
			}
			pin := ""
			if t.System != "" {
				pin = ", on system " + t.System
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s %s (priority %d%s) in %s\n", t.ID, t.Status, t.Priority, pin, t.Project)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&req.Project, "project", "C", "", "project directory (default: the current one)")
	f.IntVarP(&req.Priority, "priority", "p", 0, "higher runs first (-1000..1000)")
	f.StringVar(&req.IdempotencyKey, "key", "", "idempotency key: running add again with it returns the same task")
	f.StringVar(&req.Agent, "agent", "", "agent kind: "+strings.Join(task.AgentKinds, ", ")+" (default: the daemon's agent.runner)")
	f.StringArrayVar(&req.Criteria, "done-when", nil, "a completion criterion (repeatable): committed, clean, run:CMD or a sentence")
	f.StringSliceVar(&req.Allow, "allow", nil, "let the agent run these guarded operations: "+strings.Join(task.AllowOps, ","))
	f.StringSliceVar(&req.Deny, "deny", nil, "deny the agent these operations: "+strings.Join(task.DenyOps, ","))
	f.StringVar(&req.Profile, "profile", "", "a named set of operations: read-only, offline, sealed, publish")
	f.StringVar(&req.System, "system", "", "run only on this worker of the pool (its serve.system; warden serve status lists them)")
	f.BoolVar(&asJSON, "json", false, "JSON output")
	return cmd
}

func newTaskListCmd() *cobra.Command {
	var status, project string
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--status queued,running] [--project DIR] [-n N]",
		Short: "List tasks, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			q := url.Values{}
			if status != "" {
				q.Set("status", status)
			}
			if project != "" {
				abs, _ := filepath.Abs(project)
				q.Set("project", abs)
			}
			q.Set("limit", fmt.Sprint(limit))
			c, ctx, cancel, err := client()
			if err != nil {
				return err
			}
			defer cancel()
			var out struct {
				Tasks []task.Task `json:"tasks"`
			}
			if err := c.Do(ctx, "GET", "/api/tasks?"+q.Encode(), nil, &out); err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), out)
			}
			if len(out.Tasks) == 0 {
				fmt.Fprintln(cmd.OutOrStdout(), "no tasks")
				return nil
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSTATUS\tPRI\tCREATED\tPROJECT\tPROMPT")
			for _, t := range out.Tasks {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", t.ID, t.Status, t.Priority, t.CreatedAt.Local().Format("01-02 15:04"),
					clip(termtext.Visible(filepath.Base(t.Project)), 20), clip(termtext.Visible(oneLine(t.Prompt)), 50))
			}
			return tw.Flush()
		},
	}
	f := cmd.Flags()
	f.StringVar(&status, "status", "", "only these statuses (comma-separated)")
	f.StringVar(&project, "project", "", "only this project directory")
	f.IntVarP(&limit, "limit", "n", 50, "at most this many (1..1000)")
	f.BoolVar(&asJSON, "json", false, "JSON output")
	return cmd
}

func newTaskShowCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "A task, its status history and every scheduling decision with its reason",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, ctx, cancel, err := client()
			if err != nil {
				return err
			}
			defer cancel()
			var d server.TaskDetail
			if err := c.Do(ctx, "GET", "/api/tasks/"+url.PathEscape(args[0]), nil, &d); err != nil {
				return err
			}
			as, err := loadAgentStory(ctx, args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), struct {
					server.TaskDetail
					Agent *AgentStory `json:"agent_story,omitempty"`
				}{d, as})
			}
			// Stored text (prompt, result, reasons) came from webhooks,
			// agents and the API: made visible before the terminal sees it.
			var story strings.Builder
			writeTaskStory(&story, &d)
			writeAgentStory(&story, as)
			_, err = io.WriteString(cmd.OutOrStdout(), termtext.VisibleLines(story.String()))
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "JSON output")
	return cmd
}

func newTaskCancelCmd() *cobra.Command {
	var reason string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "cancel ID [--reason TEXT]",
		Short: "Cancel a task (its agent is stopped)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, ctx, cancel, err := client()
			if err != nil {
				return err
			}
			defer cancel()
			var t task.Task
			if err := c.Do(ctx, "POST", "/api/tasks/"+url.PathEscape(args[0])+"/cancel", server.CancelRequest{Reason: reason}, &t); err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), t)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s %s\n", t.ID, t.Status)
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why (kept in the task's history)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "JSON output")
	return cmd
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
