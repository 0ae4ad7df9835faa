package cli

import (
	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/helper"
)

// helperCmd is a command that runs in warden-helper: flags and arguments
// pass through untouched, and its exit code is warden's.
func helperCmd(use, short string, path ...string) *cobra.Command {
	return binaryCmd(helper.Name, use, short, path...)
}

// binaryCmd is helperCmd for the helper binary named bin.
func binaryCmd(bin, use, short string, path ...string) *cobra.Command {
	return &cobra.Command{
		Use:                use,
		Short:              short,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			code, err := helper.RunNamed(bin, append(append([]string{}, path...), args...), cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			if code != 0 {
				return ExitError{Code: code}
			}
			return nil
		},
	}
}
