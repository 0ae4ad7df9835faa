package cli

import "github.com/spf13/cobra"

// newShipCmd is `warden ship`: the spool's shipper, in warden-helper (it
// links pgx; see internal/store/ship).
func newShipCmd() *cobra.Command {
	return helperCmd("ship [--once] [--status [--json]]",
		"Ship the local store's events to the shared PostgreSQL store (the keeper does it); --status: backlog and reachability", "ship")
}
