// Package cli is warden's command tree (cobra). Each command lives in its own
// file; root.go wires them all in one list.
// `warden hook` does not come through here: cmd/warden routes it straight to
// the hook package so a hook never pays for building this tree.
package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/exitcode"
	"github.com/warden-dev/warden/internal/version"
)

// ExitError carries a specific exit code (for example doctor's 1 when a
// problem was found) without printing anything more; the codes are
// internal/exitcode's.
type ExitError = exitcode.Error

// NewRoot builds the whole command tree.
func NewRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "warden",
		Short: "Govern Claude Code: pacing, guards, gates, context and a record of every event",
		Long: `warden governs Claude Code through its hooks and status line.

Install it once with "warden install"; Claude Code then runs "warden hook"
for every event. Type "warden help" in the Claude Code prompt for the
commands you can use there.`,
		Version:       version.String(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.DisableSuggestions = true // unknownCommand suggests, with a stricter distance
	root.AddCommand(hookHelpCmd())
	root.AddCommand(commands()...)
	root.AddCommand(userCommands()...)
	groupCommands(root)
	groupsRejectUnknown(root)
	return root
}

// groupsRejectUnknown makes a command that only groups others (policy,
// usage, …) answer an unknown subcommand with an error and a hint rather
// than its help and exit 0, which is what cobra does for them.
func groupsRejectUnknown(c *cobra.Command) {
	for _, sub := range c.Commands() {
		groupsRejectUnknown(sub)
	}
	if c.HasParent() && c.HasSubCommands() && !c.Runnable() {
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return fmt.Errorf("unknown command %q for %q", args[0], cmd.CommandPath())
		}
	}
}

// commands is every top-level command, wired here in one place (no init()
// registry) so the tree does not depend on file or test order. A new
// command adds its constructor to this list.
func commands() []*cobra.Command {
	return []*cobra.Command{
		newInstallCmd(),
		newUninstallCmd(),
		newDoctorCmd(),
		newInitCmd(),
		newConfigCmd(),
		newStatuslineCmd(),
		newLogCmd(),
		newAuditCmd(),
		newPolicyCmd(),
		newReplayCmd(),
		judgeCmd(),
		newPaceCmd(),
		tempoCmd(),
		newUsageCmd(),
		newHandoffCmd(),
		keeperCmd(),
		newShipCmd(),
		newServeCmd(),
		newTaskCmd(),
		newTokenCmd(),
		newLogsCmd(),
		newServiceCmd(),
		newLoopCmd(),
		newStatsCmd(),
		newCleanupCmd(),
		newImportCmd(),
		newMCPCmd(),
		newAgentCmd(),
		newVersionCmd(),
		newStoreCmd(),
	}
}

// hookHelpCmd documents `warden hook` in the tree; the real entry point is
// the front in cmd/warden.
func hookHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "hook [EVENT] [--harness claude]",
		Short: "Handle one Claude Code hook event (reads the JSON payload on stdin)",
		Long: `Handle one Claude Code hook event. Claude Code runs this for every event
registered by "warden install"; the payload is read from stdin (10 MB cap,
2 s read deadline). The event is taken from hook_event_name unless EVENT is
given. Allow is silence; a block is one JSON object on stdout (exit 0) or a
reason on stderr (exit 2). Any internal error fails open: exit 0, one line
on stderr, and a record in the store.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("internal: warden hook is dispatched before the command tree")
		},
	}
}

// Main runs the command tree and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	root := NewRoot()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err != nil && !exitcode.Silent(err) {
		if msg, ok := unknownCommand(root, args, err); ok {
			fmt.Fprint(stderr, msg)
			return exitcode.Failure
		}
	}
	return exitcode.Report(stderr, err)
}

// unknownCommand words cobra's "unknown command" error: the name, the
// commands it is close to (a typo of one or two letters, or the start of
// a name), and where the list is.
func unknownCommand(root *cobra.Command, args []string, err error) (string, bool) {
	if !strings.HasPrefix(err.Error(), "unknown command ") {
		return "", false
	}
	cmd, rest, ferr := root.Find(args)
	if ferr != nil || cmd == nil {
		cmd = root
	}
	typed := ""
	if len(rest) > 0 {
		typed = rest[0]
	}
	for _, a := range args {
		if typed == "" && !strings.HasPrefix(a, "-") {
			typed = a
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "warden: unknown command %q", typed)
	if cmd != root {
		fmt.Fprintf(&b, " for %q", cmd.CommandPath())
	}
	b.WriteString("\n")
	if near := nearCommands(cmd, typed); len(near) > 0 {
		fmt.Fprintf(&b, "Did you mean: %s?\n", strings.Join(near, ", "))
	}
	fmt.Fprintf(&b, "Run '%s --help' for the list of commands.\n", cmd.CommandPath())
	return b.String(), true
}

// nearCommands are the subcommands of parent that typed may be a typo of:
// at most one edit away (two for names of six letters or more), or whose
// name starts with it.
func nearCommands(parent *cobra.Command, typed string) []string {
	typed = strings.ToLower(typed)
	if typed == "" {
		return nil
	}
	var out []string
	for _, c := range parent.Commands() {
		if !c.IsAvailableCommand() {
			continue
		}
		for _, name := range append([]string{c.Name()}, c.Aliases...) {
			max := 1
			if len(typed) >= 6 {
				max = 2
			}
			if strings.HasPrefix(name, typed) || config.EditDistance(typed, name) <= max {
				out = append(out, c.Name())
				break
			}
		}
	}
	return out
}
