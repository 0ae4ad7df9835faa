package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/atomicfile"
	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/importer"
	"github.com/warden-dev/warden/internal/install"
	"github.com/warden-dev/warden/internal/paths"
)

func newImportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import {pace-maker}",
		Short: "Move the settings of another hook system to warden",
	}
	cmd.AddCommand(newImportPaceMakerCmd())
	return cmd
}

func newImportPaceMakerCmd() *cobra.Command {
	var from string
	var dryRun, removeHooks, yes bool
	cmd := &cobra.Command{
		Use:   "pace-maker [--from DIR] [--dry-run] [--remove-hooks] [--yes]",
		Short: "Import claude-pace-maker's config and state; optionally remove its hooks",
		Long: `Reads claude-pace-maker's config.json and state.json (~/.claude-pace-maker),
maps each setting onto warden's config keys, and adds them to
$WARDEN_HOME/config.toml — keys you already set there are kept, the file is
backed up first and written atomically. Lists every setting and state field
that has no equivalent, and why. --remove-hooks also removes pace-maker's
hook commands (~/.claude/hooks/*.sh it registered) from every Claude Code
settings scope, with install's diff, backup and atomic write; other hooks
stay. --dry-run shows all of it and changes nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			home, err := os.UserHomeDir()
			if err != nil {
				return err
			}
			if from == "" {
				from = importer.PaceMakerDir(home)
			}
			pm, err := importer.ReadPaceMaker(from)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if err := writeImportedConfig(cmd, pm, dryRun); err != nil {
				return err
			}
			if len(pm.Unmapped) > 0 {
				fmt.Fprintln(out, "\nno equivalent in warden (not imported):")
				tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
				for _, u := range pm.Unmapped {
					fmt.Fprintf(tw, "  %s\t%s = %s\t%s\n", u.Source, u.Key, u.Value, u.Why)
				}
				tw.Flush()
			}
			if pm.StateNote != "" {
				fmt.Fprintln(out, pm.StateNote)
			}
			if !removeHooks {
				fmt.Fprintln(out, "\npace-maker's hooks are still registered; run with --remove-hooks to remove them (warden's own hooks replace them)")
				return nil
			}
			fmt.Fprintln(out)
			o := install.Options{DryRun: dryRun, Yes: yes, Interactive: stdinIsTTY(),
				Stdin: cmd.InOrStdin(), Stdout: out}
			removed, err := install.RemoveForeign(cmd.Context(), o, "pace-maker", func(ev, command string) bool {
				return importer.OwnedByPaceMaker(ev, command, home)
			})
			if err != nil {
				return err
			}
			if len(removed) == 0 {
				fmt.Fprintln(out, "no pace-maker hooks registered in any Claude Code settings scope")
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&from, "from", "", "pace-maker's directory (default ~/.claude-pace-maker)")
	f.BoolVar(&dryRun, "dry-run", false, "show what would change, change nothing")
	f.BoolVar(&removeHooks, "remove-hooks", false, "also remove pace-maker's hooks from Claude Code's settings")
	f.BoolVarP(&yes, "yes", "y", false, "do not ask before changing settings")
	return cmd
}

// writeImportedConfig adds the mapped settings to the user config file.
func writeImportedConfig(cmd *cobra.Command, pm *importer.PaceMaker, dryRun bool) error {
	out := cmd.OutOrStdout()
	path := paths.UserConfig()
	old, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	merged, added, kept, err := importer.MergeTOML(string(old), pm.Settings)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(out, "claude-pace-maker in %s → %s\n", pm.Dir, path)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, s := range added {
		fmt.Fprintf(tw, "  %s\t→ %s = %s\t%s\n", s.From, s.Key, clipCell(config.FormatValue(s.Value), 50), s.Note)
	}
	for _, s := range kept {
		fmt.Fprintf(tw, "  %s\t→ %s\tkept: your config already sets it\n", s.From, s.Key)
	}
	tw.Flush()
	if len(added) == 0 {
		fmt.Fprintln(out, "nothing to add to the config")
		return nil
	}
	fmt.Fprint(out, install.Diff(path, existed, old, []byte(merged)))
	if dryRun {
		fmt.Fprintln(out, "dry run: the config was not changed")
		return nil
	}
	// Check the result as warden will read it before writing anything.
	tmp := filepath.Join(filepath.Dir(path), ".import-check.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(tmp, []byte(merged), 0o600); err != nil {
		return err
	}
	problems := config.Check(tmp, "")
	os.Remove(tmp)
	if len(problems) > 0 {
		return fmt.Errorf("the imported values do not pass warden's checks, nothing was changed: %s", problems[0].String())
	}
	if existed {
		bak := path + ".warden-backup-" + time.Now().Format("20060102-150405")
		if err := os.WriteFile(bak, old, 0o600); err != nil {
			return fmt.Errorf("back up %s: %w", path, err)
		}
		fmt.Fprintf(out, "✓ backed up the old config to %s\n", bak)
	}
	if err := atomicfile.Write(path, []byte(merged), 0o600); err != nil { // holds webhook secrets and URLs: the user's alone
		return fmt.Errorf("write %s: %w", path, err)
	}
	if !bytes.Equal(old, []byte(merged)) {
		fmt.Fprintf(out, "✓ wrote %d setting(s) to %s\n", len(added), path)
	}
	return nil
}
