package cli

import (
	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/helper"
)

// helperCmd is a command that runs in warden-helper as `warden-helper
// path… args…`: flags and arguments pass through untouched, and its exit
// code is warden's.
func helperCmd(use, short string, path ...string) *cobra.Command {
	return &cobra.Command{
		Use:                use,
		Short:              short,
		DisableFlagParsing: true,
		RunE:               runHelper(path...),
	}
}

// runHelper runs `warden-helper path… args…` as a child and waits.
func runHelper(path ...string) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		code, err := helper.Run(append(append([]string{}, path...), args...), cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		if err != nil {
			return err
		}
		if code != 0 {
			return ExitError{Code: code}
		}
		return nil
	}
}
