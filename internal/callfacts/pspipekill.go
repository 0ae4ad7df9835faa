package callfacts

import (
	"slices"
	"strings"
)

// psPipedKillName gives a Stop-Process fed by Get-Process in the same
// pipeline (Get-Process -Name CADClient | Stop-Process -Force) the name
// Get-Process picked, as -Name: it ends every process of that name, as
// Stop-Process -Name CADClient and kill $(pgrep CADClient) do, not a pid
// the agent holds. Without it the piped form read as a bare kill. Runs
// on PowerShell commands only (powershell), after the cmdlets are mapped.
func psPipedKillName(cmds []Cmd, i int) {
	c := &cmds[i]
	if c.Name != "kill" || !c.PowerShell || !slices.ContainsFunc(c.Upstream, psGetProcess) || slices.ContainsFunc(c.Args, func(a string) bool { return strings.EqualFold(a, "-Name") }) {
		return
	}
	for j := i - 1; j >= 0; j-- {
		g := &cmds[j]
		if !psGetProcess(g.Name) {
			continue
		}
		name := ""
		for k, a := range g.Args {
			if strings.EqualFold(a, "-Name") && k+1 < len(g.Args) {
				name = g.Args[k+1]
			}
		}
		if name == "" && len(g.Pos) > 0 {
			name = g.Pos[0] // Get-Process CADClient: -Name is its first positional
		}
		if name != "" && !strings.HasPrefix(name, "-") {
			c.Args = append(c.Args, "-Name", name)
			c.Flags = append(c.Flags, "-name")
		}
		return
	}
}

// psGetProcess: PowerShell's Get-Process and its alias gps.
func psGetProcess(name string) bool {
	n := strings.ToLower(name)
	return n == "get-process" || n == "gps"
}
