package callfacts

import "strings"

// winProfileDirs are the Windows variables that name folders of the
// user's profile, so a credential under %APPDATA% is one under home
// (NuGet.Config, the PowerShell history) whichever way it is spelled.
var winProfileDirs = []struct {
	vars  []string
	under string
}{
	{[]string{"$env:APPDATA", "%APPDATA%", "${env:APPDATA}"}, "/AppData/Roaming"},
	{[]string{"$env:LOCALAPPDATA", "%LOCALAPPDATA%", "${env:LOCALAPPDATA}"}, "/AppData/Local"},
}

// winProfileDir puts p under home when it starts with one of
// winProfileDirs' variables, else returns it unchanged.
func winProfileDir(p, home string) string {
	for _, d := range winProfileDirs {
		for _, v := range d.vars {
			if len(p) >= len(v) && strings.EqualFold(p[:len(v)], v) {
				return home + d.under + p[len(v):]
			}
		}
	}
	return p
}
