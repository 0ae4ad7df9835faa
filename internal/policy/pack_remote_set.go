package policy

import "slices"

// net3Rules: remote hosts, copies off the machine, production reached
// through runners and frameworks, shared compute, credentials printed
// (pack_web_backdoor.go, pack_shared_compute.go, pack_remote_misc.go, pack_prod_runners.go, pack_project_off.go, pack_remote_zone.go, pack_secret_credfiles.go, pack_ship_remote.go).
func net3Rules() []Rule {
	return slices.Concat([]Rule{net3RemoteHostRule(), remshRule(), prodJobRule(), net3CopyOffRule(), net3RegulatedOffRule(), net3ProjectOffRule(), net3ProdTaskRule(), net3FrameworkProdRule(), net3FrameworkProdDestroyRule(), net3HiddenSQLRule(), net3MigrateDownRule(), miss11MigrateProdRule(), net3BackdoorRule(), net3TunnelLoginRule(), net3SecretToHostRule()},
		net3ClusterRules(), net3MoreRules(), net3ShipRules())
}
