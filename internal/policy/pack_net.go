package policy

import "slices"

// netRules join external.systems: what a command does to remote
// resources and the network — API calls that change things, production
// named as the target, exposure to the internet, SQL sent to a server,
// fleets and container runtimes. (Git against remotes joins core.git:
// gitRemoteRules.)
func netRules() []Rule {
	return slices.Concat(netAPIRules(), []Rule{httpChangeUnshownRule(), httpChangeRemoteRule(), chainTxSubcommandRule(), apiKeyClientRule(), interpAPIRule(), interpAPIChangeRule(), copyIntoProdRule()}, prodTargetRules(), netSQLRules(), exposureRules(), fleetRules(), shareRules(), shareSessionRules(), []Rule{shipRule(), grantAccessRule(), secretToServiceRule(), dnsCarriesDataRule(), dnsCarriesSecretRule(), purgeByConfigRule(), sqlSetsAdminRule(), sqlAccessRemoteRule(), openRulesDeployRule(), stagedUploadRule(), remoteCopyRule()}, sqlKindRules(), pushDeployRules(), unreviewedSourceRules(), remoteExportRules(), liveDataRules(), netUploadRules(), remoteAndProdRules(), blockchainRules(), sharedEnvRules(), []Rule{clusterSQLDropRule(), containerRowChangeRule()}, remoteAdminRules(), remoteTargetRules(), []Rule{prodHostDataDeleteRule(), uploadToRecordRule(), fetchToHostRule(), storeWriteRule()}, payloadSQLRules(), consoleRules(), interpFileSendRules(), brokerRules(), loaderRules(), appShellRules(), cloudSQLRules(), []Rule{sqlSecretReadRule()}, textPayloadRules(), netDeviceRules(), []Rule{controlAPIRule(), urlNamesChangeRule(), lanDeviceCallRule(), lanDeviceWipeRule(), lanDeviceRPCRule(), lanProgramActRule(), networkMediaDeviceRule(), modbusWriteRule(), hostOptionChangeRule(), firmwareUploadRule()}, adminAPIRules(), secretStoreAPIRules(), apiAccessOpenRules(), protocolSendRules(), []Rule{devicePortRule(), deviceActDefaultRule(), namedDevicePortRule(), deviceScriptCommandRule(), equipmentOptActRule(), actuatorOptionsRule(), deviceCLIRule(), serialSessionRule(), appConsoleSecretRule(), batchDeleteRule(), unknownRemoteNamedRule()}, overwriteExternalRules())
}
