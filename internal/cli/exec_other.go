//go:build !unix

package cli

import "github.com/spf13/cobra"

// execHelper runs warden-helper as a child where exec is not there.
func execHelper(path ...string) func(*cobra.Command, []string) error { return runHelper(path...) }
