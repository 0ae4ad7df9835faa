package callfacts

import "strings"

// DeviceLineAction is what one line of a network device's own command
// line does (admin.txt's device programs: configure, commit, delete
// flash:, no login authentication, write erase), when the line comes by
// a channel other than a remote shell's payload: an ansible network
// module's commands=, a netmiko or napalm call's strings, Junos' cli -c.
// nil when the line reads, is no device word, or names nothing.
func DeviceLineAction(line string) *AdminAct {
	f := strings.Fields(line)
	if len(f) == 0 {
		return nil
	}
	// RouterOS writes its menus as paths (/system reboot)
	name := strings.ToLower(strings.TrimPrefix(f[0], "/"))
	if p := adminTab().progs[name]; p == nil || p.where != "device" {
		return nil
	}
	c := &Cmd{Name: name, Raw: f[0], Args: f[1:], Wrappers: []string{"ssh"}}
	splitFlags(c)
	return c.AdminAction()
}
