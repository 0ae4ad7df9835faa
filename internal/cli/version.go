package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/warden-dev/warden/internal/version"
)

func newVersionCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print warden's version, commit and build date",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(version.Get())
			}
			_, err := fmt.Fprintln(cmd.OutOrStdout(), version.String())
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"version","commit","date","go"}`)
	return cmd
}
