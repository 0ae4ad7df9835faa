package policy

import "slices"

// remoteAndProdRules: remote hosts, copies off the machine, production reached
// through runners and frameworks, shared compute, credentials printed
// (pack_web_backdoor.go, pack_shared_compute.go, pack_remote_misc.go, pack_prod_runners.go, pack_project_off.go, pack_remote_zone.go, pack_secret_credfiles.go, pack_ship_remote.go).
func remoteAndProdRules() []Rule {
	return slices.Concat([]Rule{remoteHostChangeRule(), remshRule(), prodJobRule(), copyOffMachineRule(), regulatedDataOffRule(), projectOffRule(), prodTaskRule(), frameworkProdRule(), frameworkProdDestroyRule(), hiddenSQLServerRule(), hiddenMigrateDownRule(), migrateDownProdRule(), webBackdoorRule(), loginTunnelRule(), secretToHostRule()},
		sharedComputeRules(), remoteMiscRules(), remoteShipRules())
}
