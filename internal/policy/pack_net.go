package policy

import "slices"

// netRules join external.systems: what a command does to remote
// resources and the network — API calls that change things, production
// named as the target, exposure to the internet, SQL sent to a server,
// fleets and container runtimes. (Git against remotes joins core.git:
// gitRemoteRules.)
func netRules() []Rule {
	return slices.Concat(netAPIRules(), []Rule{httpChangeUnshownRule(), httpChangeRemoteRule(), chainTxSubcommandRule(), apiKeyClientRule(), interpAPIRule(), interpAPIChangeRule(), copyIntoProdRule()}, prodTargetRules(), netSQLRules(), exposureRules(), fleetRules(), shareRules(), shareSessionRules(), []Rule{net2ShipRule(), net2GrantRule(), net2SendRule(), net2DNSRule(), net2DNSSecretRule(), net2PurgeRule(), net2SQLAdminRule(), ops14SQLAccessRule(), ops14OpenRulesRule(), net2StagedRule(), net2RemoteCopyRule()}, miss3SQLRules(), net2PushRules(), net2SourceRules(), remoteExportRules(), liveDataRules(), netUploadRules(), net3Rules(), net4ChainRules(), sharedEnvRules(), []Rule{net4ClusterSQLRule()}, remote5AdminRules(), []Rule{remote5UploadRule(), remote5FetchToHostRule()}, payloadSQLRules(), consoleRules(), interpFileSendRules(), loaderRules(), appShellRules(), []Rule{sqlSecretReadRule()}, miss9aRules(), net14DeviceRules(), []Rule{controlAPIRule(), lanDeviceCallRule(), modbusWriteRule(), net14HostOptionRule(), firmwareUploadRule()}, rec16AdminAPIRules(), vault16Rules(), apiAccessOpenRules(), protocolSendRules(), []Rule{devicePortRule(), serialSessionRule(), appConsoleSecretRule(), batchDeleteRule()}, overwriteExternalRules())
}
