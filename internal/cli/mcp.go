package cli

import (
	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/hookclient"
)

// newMCPCmd documents `warden mcp` in the tree. The front (cmd/warden)
// execs `warden-helper mcp` before any tree is built; warden-core run
// directly does the same here.
func newMCPCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "MCP server on stdio: check, confirm, commit, push, validate_intent and warden's figures as tools",
		Long: `Serve MCP on stdin/stdout (the official Go MCP SDK) for Claude Code.
Register it in the project's .mcp.json with "warden init --mcp", which also
adds the slash commands /check, /confirm, /commit and /push.

Tools: check (lint and tests), confirm (a judge over the git diff that may
read the project with Read, Glob and Grep; CONFIRMED or DECLINED with
reasons), commit (confirm, a conventional message, commit), push (never
force, never a protected branch), validate_intent, status, pace, usage,
events, explain. It runs in warden-helper, so the hook path never links
the MCP SDK.`,
		Args:               cobra.NoArgs,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := hookclient.MCP(args); code != 0 {
				return ExitError{Code: code}
			}
			return nil
		},
	}
}
