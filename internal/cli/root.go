// Package cli is warden's command tree (cobra). Each command lives in its own
// file; root.go wires them all in one list.
// `warden hook` does not come through here: cmd/warden routes it straight to
// the hook package so a hook never pays for building this tree.
package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/version"
)

// ExitError carries a specific exit code (for example doctor's 1 when a
// problem was found) without printing anything more.
type ExitError struct{ Code int }

func (e ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

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
	root.AddCommand(hookHelpCmd())
	root.AddCommand(commands()...)
	root.AddCommand(userCommands()...)
	return root
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
		judgeCmd(),
		newPaceCmd(),
		tempoCmd(),
		newUsageCmd(),
		newHandoffCmd(),
		keeperCmd(),
		newServeCmd(),
		newTaskCmd(),
		newTokenCmd(),
		newLogsCmd(),
		newServiceCmd(),
	}
}

// hookHelpCmd documents `warden hook` in the tree; the real entry point is
// the fast path in cmd/warden.
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
	if err == nil {
		return 0
	}
	var ee ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	fmt.Fprintln(stderr, "warden:", err)
	return 1
}
