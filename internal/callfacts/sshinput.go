package callfacts

import "strings"

// deviceScript: input whose first line is a network device's own command
// (configure terminal, write erase, show …: admin.txt's device
// programs) is that device's CLI session, not a shell's: its lines that
// begin with a device command are kept, and the configuration mode's
// statements between them (interface Gi1/0/24, shutdown, end) are no
// programs of this or that host. ok false: a shell's script.
func deviceScript(s string) (string, bool) {
	var keep []string
	first := true
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") || strings.HasPrefix(f[0], "!") {
			continue
		}
		p := adminTab().progs[strings.ToLower(strings.TrimPrefix(f[0], "/"))]
		dev := p != nil && p.where == "device"
		if first && !dev {
			return "", false
		}
		first = false
		if dev {
			keep = append(keep, strings.TrimSpace(l))
		}
	}
	return strings.Join(keep, "\n"), !first
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
