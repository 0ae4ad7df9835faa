package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/install"
	"github.com/warden-dev/warden/internal/lifecycle"
)

func newInitCmd() *cobra.Command {
	var force, asJSON, withMCP bool
	var project string
	cmd := &cobra.Command{
		Use:   "init [--force] [--mcp]",
		Short: "Write warden's slash commands and agent templates into this project; git-ignore .warden/",
		Long: `Write into the project:

  .claude/commands/learn.md      /learn: save reusable patterns to memory (never secrets)
  .claude/commands/continue.md   /continue: pick up from the newest session or agent handoff
  .claude/commands/build.md      /build: task loop with an agent handoff after each task
  .claude/agents/*.md            security-reviewer (opus), code-reviewer, performance-reviewer,
                                 test-writer (sonnet), recon (haiku)

and add .warden/ to .gitignore (creating it if needed). A file that exists
with other content is yours and is kept; --force overwrites it.

With --mcp, also register "warden mcp" as the server "warden" in the
project's .mcp.json (other servers kept; the old file backed up, the new
one written atomically) and add the slash commands /check, /confirm,
/commit and /push (.claude/commands/*.md) that drive its tools.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := resolveProject(project)
			if err != nil {
				return err
			}
			res, err := lifecycle.Init(dir, force)
			out := cmd.OutOrStdout()
			var mres *install.MCPInitResult
			if withMCP && err == nil {
				r, merr := install.InitMCP(dir, "", force, time.Now())
				mres, err = &r, merr
			}
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				enc.Encode(struct {
					lifecycle.InitResult
					MCP *install.MCPInitResult `json:"mcp,omitempty"`
				}{res, mres})
				return err
			}
			for _, l := range []struct {
				label string
				files []string
			}{{"wrote", res.Written}, {"overwrote", res.Overwritten}, {"unchanged", res.Unchanged},
				{"kept (yours; --force to overwrite)", res.Skipped}} {
				for _, f := range l.files {
					fmt.Fprintf(out, "%-10s %s\n", l.label+":", f)
				}
			}
			switch res.Gitignore {
			case "created":
				fmt.Fprintln(out, "created .gitignore with .warden/")
			case "added":
				fmt.Fprintln(out, "added .warden/ to .gitignore")
			case "present":
				fmt.Fprintln(out, ".gitignore already ignores .warden/")
			}
			if mres != nil {
				printMCPInit(out, mres)
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite files that exist with other content")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&withMCP, "mcp", false, "also register `warden mcp` in .mcp.json and add /check, /confirm, /commit, /push")
	projectFlag(cmd, &project)
	return cmd
}

func printMCPInit(out io.Writer, r *install.MCPInitResult) {
	for _, l := range []struct {
		label string
		files []string
	}{{"wrote", r.Written}, {"overwrote", r.Overwritten}, {"unchanged", r.Unchanged},
		{"kept (yours; --force to overwrite)", r.Skipped}} {
		for _, f := range l.files {
			fmt.Fprintf(out, "%-10s %s\n", l.label+":", f)
		}
	}
	switch r.Server {
	case "unchanged":
		fmt.Fprintf(out, "%s already registers the MCP server %q\n", r.MCPJSON, install.MCPServerName)
	default:
		fmt.Fprintf(out, "%s the MCP server %q in %s (restart Claude Code; its tools are mcp__warden__*)\n", r.Server, install.MCPServerName, r.MCPJSON)
	}
	if r.Backup != "" {
		fmt.Fprintf(out, "backup:    %s\n", r.Backup)
	}
}
