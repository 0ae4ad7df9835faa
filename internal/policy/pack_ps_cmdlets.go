package policy

import "github.com/warden-dev/warden/internal/callfacts"

// psCmdletRules judge PowerShell cmdlets of the modules that administer
// something elsewhere (Az, AzureAD, Graph, AD, Exchange, AWS Tools,
// PowerCLI…) by their approved verb, as data (callfacts/pscmdlets.txt):
// Remove-/Clear-/Uninstall- there are denied, Set-/New-/Stop-/Restart-/
// Update-/Move-… asked, Get-/Test-/Show-/Find- and -WhatIf left alone.
// A cmdlet is read from pwsh/powershell -Command, powershell.exe from
// WSL, and the PowerShell tool alike.
func psCmdletRules() []Rule {
	rule := func(id string, mode Mode, kind, desc, says string, catch, allow []string) Rule {
		on := On(FactWriteEffect) // the reading gives such a cmdlet its effect (callfacts/effect.go)
		if kind == "destroy" {
			on = On(FactDeleteEffect | FactWriteEffect) // a change fed every object destroys too (PSFedByAll)
		}
		return Rule{ID: id, Mode: mode, Tools: shellTools, Desc: desc, Catch: catch, Allow: allow, On: on,
			Match: func(e *Env) string {
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					k := c.PSRemoteCmdlet()
					if k == "change" && callfacts.PSFedByAll(e.F, i) {
						k = "destroy" // Get-ADUser -Filter * | Disable-ADAccount: every account at once (win14)
					}
					if k == kind && !e.localOnly(i) {
						return c.Name + " " + says + ": " + c.String()
					}
				}
				return ""
			}}
	}
	return []Rule{
		rule("external.systems:ps-remote-destroy", Deny, "destroy",
			"A PowerShell cmdlet that removes or empties something a remote module administers (Remove-AzResourceGroup, Remove-ADUser, Clear-AzContext… ), wipes or retires devices (Invoke-MgWipe…), or changes every object a Get- -All/-Filter * pipes to it (Get-ADUser -Filter * | Disable-ADAccount; the verbs and module prefixes are data: callfacts/pscmdlets.txt)",
			"removes or empties a resource outside this machine",
			[]string{`pwsh -Command "Remove-AzResourceGroup -Name rg-payments-prod -Force"`, `powershell.exe -c "Remove-AzVM -ResourceGroupName rg -Name vm1 -Force"`, `pwsh -c "Remove-S3Bucket -BucketName logs -DeleteBucketContent -Force"`, `pwsh -c "Get-AzResource -ResourceGroupName rg-old | Remove-AzResource -Force"`},
			[]string{`pwsh -c "Get-AzResourceGroup"`, `pwsh -c "Remove-AzResourceGroup -Name rg-x -WhatIf"`, `pwsh -c "Remove-Item -Recurse ./bin"`, `pwsh -c "Remove-Variable x"`, `pwsh -c "Test-AzDeployment -TemplateFile main.bicep"`}),
		rule("external.systems:ps-remote-change", Ask, "change",
			"A PowerShell cmdlet that creates, sets, stops, restarts, moves or deploys something a remote module administers (New-AzResourceGroupDeployment, Set-AzWebApp, Stop-AzVM, Restart-VM; the verbs and module prefixes are data: callfacts/pscmdlets.txt)",
			"changes a resource outside this machine",
			[]string{`pwsh -c "New-AzResourceGroupDeployment -ResourceGroupName rg-prod -TemplateFile infra/aks.bicep"`, `pwsh -c "Stop-AzVM -Name vm1 -ResourceGroupName rg -Force"`, `powershell -Command "Move-AzResource -DestinationResourceGroupName rg-new -ResourceId $id -Force"`, `pwsh -c "Restart-AzWebApp -Name app -ResourceGroupName rg"`},
			[]string{`pwsh -c "Get-AzVM -Status"`, `pwsh -c "New-AzResourceGroupDeployment -ResourceGroupName rg -TemplateFile x.bicep -WhatIf"`, `pwsh -c "New-Item -ItemType Directory out"`, `pwsh -c "Set-Location src"`, `pwsh -c "Start-Sleep 5"`, `pwsh -c "Find-Module Az"`}),
	}
}
