package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/lifecycle"
	"github.com/warden-dev/warden/internal/paths"
)

// exitBlocked is `warden handoff check`'s exit code when the newest agent
// handoff (newer than the newest session handoff) is blocked.
const exitBlocked = exitcode.No

func newHandoffCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "handoff write|check|auto",
		Short: "Write and check session and agent handoffs (.warden/handoffs)",
		Long: `Handoffs carry work across sessions and between agents.

Session handoffs (handoff-YYYYMMDD-HHMMSS.md) are written by "warden handoff
auto", which the status line starts once per session when the context
crosses context.threshold; the next SessionStart in the project injects it.

Agent handoffs (agent-<task>-YYYYMMDD-HHMMSS.md) are written by agents with
"warden handoff write" and end with a Signal JSON block (from, to, task_id,
status complete|partial|blocked, files_modified, open_questions, blocking).
"warden handoff check" lists both kinds, newest first, reports malformed
Signals as invalid, and exits 3 when the newest agent handoff is blocked.`,
	}
	cmd.AddCommand(newHandoffWriteCmd(), newHandoffCheckCmd(), newHandoffAutoCmd())
	return cmd
}

func projectFlag(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "project", "", "project directory (default: $CLAUDE_PROJECT_DIR, else the current directory)")
}

func resolveProject(p string) (string, error) {
	if p != "" {
		return filepath.Abs(p)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return paths.ProjectDir(cwd), nil
}

func newHandoffWriteCmd() *cobra.Command {
	var h lifecycle.AgentHandoff
	var project string
	cmd := &cobra.Command{
		Use:   "write --from A --to B --task T --status complete|partial|blocked [--files F…] [--question Q…] [--blocking]",
		Short: "Write an agent handoff with a Signal block",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := resolveProject(project)
			if err != nil {
				return err
			}
			p, err := lifecycle.WriteAgentHandoff(dir, h)
			if err != nil {
				return fmt.Errorf("handoff write: %w", err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), p)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&h.From, "from", "", "agent handing off (required)")
	f.StringVar(&h.To, "to", "", "agent taking over (required)")
	f.StringVar(&h.TaskID, "task", "", "task id (required)")
	f.StringVar(&h.Status, "status", "", "complete, partial or blocked (required)")
	f.StringSliceVar(&h.FilesModified, "files", nil, "files modified (repeat or comma-separate)")
	f.StringArrayVar(&h.OpenQuestions, "question", nil, "an open question (repeatable)")
	f.BoolVar(&h.Blocking, "blocking", false, "the open questions block the next step")
	f.StringVar(&h.Context, "context", "", "what the task was and where it stands")
	f.StringVar(&h.Findings, "findings", "", "what was found or done")
	f.StringVar(&h.Recommendations, "recommendations", "", "what the next agent should do")
	projectFlag(cmd, &project)
	for _, req := range []string{"from", "to", "task", "status"} {
		cmd.MarkFlagRequired(req)
	}
	return cmd
}

func newHandoffCheckCmd() *cobra.Command {
	var project string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check [--json]",
		Short: "List handoffs newest first, validate Signals; exit 3 when the newest agent handoff is blocked",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := resolveProject(project)
			if err != nil {
				return err
			}
			entries, err := lifecycle.ListHandoffs(dir)
			if err != nil {
				return err
			}
			blocked := lifecycle.Blocked(entries)
			out := cmd.OutOrStdout()
			if asJSON {
				if entries == nil {
					entries = []lifecycle.Entry{}
				}
				res := struct {
					Handoffs []lifecycle.Entry `json:"handoffs"`
					Blocked  *lifecycle.Entry  `json:"blocked"`
				}{entries, blocked}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(res); err != nil {
					return err
				}
			} else {
				if len(entries) == 0 {
					fmt.Fprintln(out, "no handoffs in", lifecycle.HandoffDir(dir))
				}
				for _, e := range entries {
					rel, _ := filepath.Rel(dir, e.Path)
					line := fmt.Sprintf("%s  %-7s  %s", e.Time.Format(time.RFC3339), e.Kind, rel)
					switch {
					case !e.Valid:
						line += "  INVALID: " + e.Problem
					case e.Signal != nil:
						line += fmt.Sprintf("  %s→%s %s", e.Signal.From, e.Signal.To, e.Signal.Status)
						if e.Signal.Blocking {
							line += " (blocking)"
						}
					}
					fmt.Fprintln(out, line)
				}
				if blocked != nil {
					fmt.Fprintf(out, "BLOCKED: %s (task %s): stop and resolve its open questions\n",
						filepath.Base(blocked.Path), blocked.Signal.TaskID)
				}
			}
			if blocked != nil {
				return ExitError{Code: exitBlocked}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	projectFlag(cmd, &project)
	return cmd
}

func newHandoffAutoCmd() *cobra.Command {
	var h lifecycle.SessionHandoff
	cmd := &cobra.Command{
		Use:   "auto --project DIR [--session ID] [--transcript PATH] [--percent N]",
		Short: "Write a session handoff and register it for the next SessionStart (started by the status line)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := resolveProject(h.Project)
			if err != nil {
				return err
			}
			h.Project = dir
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			p, err := lifecycle.WriteSessionHandoff(ctx, h)
			if err != nil {
				return fmt.Errorf("handoff auto: %w", err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), p)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&h.Project, "project", "", "project directory")
	f.StringVar(&h.SessionID, "session", "", "Claude Code session id")
	f.StringVar(&h.Transcript, "transcript", "", "the session's transcript (JSONL)")
	f.IntVar(&h.Percent, "percent", 0, "context use that triggered the handoff")
	return cmd
}
