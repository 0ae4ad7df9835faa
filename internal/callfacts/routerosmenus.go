package callfacts

import "strings"

// rosMenus: RouterOS's top menus. Over a remote shell a line that begins
// with one of them written as a path (/ip firewall filter remove …,
// /interface disable ether5, /user set admin …) is the router's own
// command line, not a program of that name (ip, user) on a Linux host:
// admin.txt's "routeros" lines judge it.
var rosMenus = map[string]bool{"ip": true, "ipv6": true, "interface": true, "routing": true, "user": true, "queue": true, "tool": true, "ppp": true, "certificate": true, "snmp": true, "radius": true, "disk": true, "file": true, "log": true, "caps-man": true, "container": true, "mpls": true, "port": true, "special-login": true, "console": true}

// routerOSMenu returns c read as a RouterOS menu line, nil when c's
// program is not written /MENU or is not run through a remote shell.
func routerOSMenu(c *Cmd) *Cmd {
	f := strings.Fields(c.Raw)
	if len(f) == 0 || !strings.HasPrefix(f[0], "/") || strings.Count(f[0], "/") != 1 || !rosMenus[strings.TrimPrefix(f[0], "/")] || !InRemoteShell(c) {
		return nil
	}
	cp := *c
	cp.Name = "routeros"
	cp.Args = append([]string{strings.TrimPrefix(f[0], "/")}, c.Args...)
	return &cp
}
