package cli

import "github.com/spf13/cobra"

// newStoreCmd is `warden store`, run by warden-helper: checking the shared
// PostgreSQL store links pgx, which the hook binary must not.
func newStoreCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "store", Short: "The store: which one is configured (SQLite or PostgreSQL), and whether it answers"}
	cmd.AddCommand(helperCmd("check", "Connect to the configured store and check its server and schema (changes nothing; --json)", "store", "check"))
	return cmd
}
