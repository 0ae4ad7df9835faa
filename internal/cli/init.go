package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/lifecycle"
)

func newInitCmd() *cobra.Command {
	var force, asJSON bool
	var project string
	cmd := &cobra.Command{
		Use:   "init [--force]",
		Short: "Write warden's slash commands and agent templates into this project; git-ignore .warden/",
		Long: `Write into the project:

  .claude/commands/learn.md      /learn: save reusable patterns to memory (never secrets)
  .claude/commands/continue.md   /continue: pick up from the newest session or agent handoff
  .claude/commands/build.md      /build: task loop with an agent handoff after each task
  .claude/agents/*.md            security-reviewer (opus), code-reviewer, performance-reviewer,
                                 test-writer (sonnet), recon (haiku)

and add .warden/ to .gitignore (creating it if needed). A file that exists
with other content is yours and is kept; --force overwrites it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := resolveProject(project)
			if err != nil {
				return err
			}
			res, err := lifecycle.Init(dir, force)
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				enc.Encode(res)
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
			return err
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite files that exist with other content")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	projectFlag(cmd, &project)
	return cmd
}
