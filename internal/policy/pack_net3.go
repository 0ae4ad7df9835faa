package policy

import "slices"

// net3Rules: remote hosts, copies off the machine, production reached
// through runners and frameworks, shared compute, credentials printed
// (pack_net3_*.go).
func net3Rules() []Rule {
	return slices.Concat([]Rule{net3RemoteHostRule(), remshRule(), prodJobRule(), net3CopyOffRule(), net3RegulatedOffRule(), net3ProjectOffRule(), net3ProdTaskRule(), net3FrameworkProdRule(), net3FrameworkProdDestroyRule(), net3HiddenSQLRule(), net3MigrateDownRule(), miss11MigrateProdRule(), net3BackdoorRule(), net3TunnelLoginRule(), net3SecretToHostRule()},
		net3ClusterRules(), net3MoreRules(), net3ShipRules())
}
