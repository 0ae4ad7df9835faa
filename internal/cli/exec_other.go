//go:build !unix

package cli

import "github.com/spf13/cobra"

// execBinary runs the helper binary as a child where exec is not there.
func execBinary(bin string, path ...string) func(*cobra.Command, []string) error {
	return binaryCmd(bin, "", "", path...).RunE
}
