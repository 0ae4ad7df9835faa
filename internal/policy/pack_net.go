package policy

import "slices"

// netRules join external.systems: what a command does to remote
// resources and the network — API calls that change things, production
// named as the target, exposure to the internet, SQL sent to a server,
// fleets, published data and git remotes.
func netRules() []Rule {
	return slices.Concat(netAPIRules(), prodTargetRules(), netSQLRules())
}
