package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/warden-dev/warden/internal/doctor"
	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/install"
)

// installFlags are shared by install and uninstall.
type installFlags struct {
	harness string
	scope   string
	dryRun  bool
	diff    bool
	yes     bool
}

func (f *installFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.harness, "harness", "claude", "the agent CLI: claude (Claude Code), codex (OpenAI Codex CLI), gemini (Gemini CLI) or copilot (GitHub Copilot CLI); the others are set up in their user configuration")
	cmd.Flags().StringVar(&f.scope, "scope", "user", "settings file to edit: user (~/.claude/settings.json), project (.claude/settings.json) or local (.claude/settings.local.json)")
	cmd.Flags().BoolVar(&f.dryRun, "dry-run", false, "print the full diff and change nothing")
	cmd.Flags().BoolVar(&f.diff, "diff", false, "print the settings file's full diff, not only a summary")
	cmd.Flags().BoolVarP(&f.yes, "yes", "y", false, "do not ask before applying")
}

func (f *installFlags) options(cmd *cobra.Command) (install.Options, error) {
	sc, err := install.ParseScope(f.scope)
	if err != nil {
		return install.Options{}, err
	}
	h, err := harness.Parse(f.harness)
	if err != nil {
		return install.Options{}, err
	}
	if h != harness.Claude && cmd.Flags().Changed("scope") {
		return install.Options{}, fmt.Errorf("--scope is for Claude Code's settings files; --harness %s installs into that CLI's user configuration", h)
	}
	return install.Options{
		Harness:     h,
		Scope:       sc,
		DryRun:      f.dryRun,
		ShowDiff:    f.diff,
		Yes:         f.yes,
		Interactive: stdinIsTTY(),
		Stdin:       cmd.InOrStdin(),
		Stdout:      cmd.OutOrStdout(),
	}, nil
}

// stdinIsTTY is a real terminal test: /dev/null is a character device
// too, and Claude Code or CI running "warden install" with stdin on
// /dev/null must proceed, not wait for an answer that never comes.
func stdinIsTTY() bool { return term.IsTerminal(int(os.Stdin.Fd())) }

// aborted turns "the user said no" into exit 1 without another message.
func aborted(cmd *cobra.Command, err error) error {
	if errors.Is(err, install.ErrAborted) {
		fmt.Fprintln(cmd.OutOrStdout(), install.ErrAborted)
		return ExitError{Code: exitcode.Failure}
	}
	return err
}

func newInstallCmd() *cobra.Command {
	var f installFlags
	var noStatusLine bool
	cmd := &cobra.Command{
		Use:   "install [--harness claude|codex|gemini|copilot] [--scope user|project|local] [--diff] [--dry-run] [--no-statusline] [--yes]",
		Short: "Register warden's hooks and status line with Claude Code",
		Long: `Copy this binary to ~/.warden/bin/warden, create the event store, and merge
warden's hook registrations (with an explicit timeout per event) and its status
line into a Claude Code settings file. Every other key and every other tool's
hooks are kept; an existing status line is wrapped, not replaced. The old file
is backed up next to itself and the new one written atomically; a malformed
file is refused, never overwritten. The change is summarised first (events
added, status line set or wrapped, backup); --diff prints the full diff,
--dry-run prints it and changes nothing. When the install directory is not
on PATH, warden is linked from ~/.local/bin or ~/bin if one of them is on
PATH; otherwise the line to add to your shell's start-up file is printed.
Running it again changes nothing.

--harness codex, gemini or copilot sets warden up for that CLI instead, in
its user configuration: Codex's ~/.codex/hooks.json plus a trust entry per
hook in ~/.codex/config.toml (Codex skips an untrusted hook silently; the
entry is rewritten when the hook's command changes), Gemini CLI's
~/.gemini/settings.json, Copilot CLI's ~/.copilot/hooks/warden.json. The same
backups, summary, --diff and --dry-run apply.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := f.options(cmd)
			if err != nil {
				return err
			}
			o.NoStatusLine = noStatusLine
			o.StartKeeper = true
			_, err = install.Install(cmd.Context(), o)
			return aborted(cmd, err)
		},
	}
	f.add(cmd)
	cmd.Flags().BoolVar(&noStatusLine, "no-statusline", false, "leave the status line alone")
	return cmd
}

func newUninstallCmd() *cobra.Command {
	var f installFlags
	cmd := &cobra.Command{
		Use:   "uninstall [--harness claude|codex|gemini|copilot] [--scope user|project|local] [--diff] [--dry-run] [--yes]",
		Short: "Remove warden's hooks and status line from Claude Code settings",
		Long: `Remove exactly what "warden install" added to a settings file: warden's hook
handlers and its status line (a status line warden wrapped gets its original
command back), and the link install made on PATH. Backup, atomic write,
summary and diff as for install. The binary, the
store and the config stay; the output says how to delete them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := f.options(cmd)
			if err != nil {
				return err
			}
			_, err = install.Uninstall(cmd.Context(), o)
			return aborted(cmd, err)
		},
	}
	f.add(cmd)
	return cmd
}

func newDoctorCmd() *cobra.Command {
	var asJSON, fix bool
	var f installFlags
	cmd := &cobra.Command{
		Use:   "doctor [--json] [--fix [--dry-run] [--yes]]",
		Short: "Check the installation and print a fix for each problem",
		Long: `Check the installed binary, warden's registration in every settings scope
(user, project, local: missing events, timeouts), hook commands in any scope
whose program does not exist, malformed settings files, the Claude Code
version, the event store and the config. Prints one line per check and a fix
under each problem; exits 1 when anything is wrong.

With --fix, hook commands whose program does not exist (a typo in a path
silently disables that guard) are removed from every settings scope first:
the diff is shown and confirmed, the old file backed up, the new one written
atomically, as install does.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if fix {
				o, err := f.options(cmd)
				if err != nil {
					return err
				}
				n, err := install.FixBroken(cmd.Context(), o)
				if err := aborted(cmd, err); err != nil {
					return err
				}
				if n == 0 && !f.dryRun {
					fmt.Fprintln(cmd.OutOrStdout(), "no hook command with a missing program: nothing to fix")
				}
				fmt.Fprintln(cmd.OutOrStdout())
			}
			r := doctor.Run(cmd.Context(), doctor.Options{})
			if asJSON {
				if err := r.WriteJSON(cmd.OutOrStdout()); err != nil {
					return err
				}
			} else {
				r.WriteText(cmd.OutOrStdout())
			}
			if !r.OK {
				return ExitError{Code: exitcode.Failure}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"ok":…,"checks":[{"name","ok","detail","fix"}]}`)
	cmd.Flags().BoolVar(&fix, "fix", false, "first remove hook commands whose program does not exist (diff, confirm, backup)")
	cmd.Flags().BoolVar(&f.dryRun, "dry-run", false, "with --fix: print the diff and change nothing")
	cmd.Flags().BoolVarP(&f.yes, "yes", "y", false, "with --fix: do not ask before applying")
	return cmd
}
