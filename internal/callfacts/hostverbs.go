package callfacts

import (
	"strings"
)

// ServerAction is the change a program makes on another host when its verb
// is not a subcommand: an action option
// (pt-kill --host db-prod-1 --kill, mysqlcheck -h db-prod-1 --optimize)
// or a verb in the program's own name (mariadb-upgrade -h db-prod-1,
// mysql_upgrade). Only with a host option naming another machine: the
// same words on this machine's server or a lab box stay the user's own.
// "" when there is none.
func (c *Cmd) ServerAction() string {
	host := c.hostOption()
	if host == "" || ThisMachine(host) || LabTarget(host, nil) {
		return ""
	}
	for _, a := range c.Args {
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, _, _ := strings.Cut(strings.ToLower(a[2:]), "=")
		if hostActionWords[name] {
			return "--" + name + " on " + host
		}
	}
	for _, p := range strings.FieldsFunc(strings.ToLower(c.Name), func(r rune) bool { return r == '-' || r == '_' }) {
		if hostNameWords[p] {
			return p + " on " + host
		}
	}
	return ""
}

// hostActionWords: verbs that change a server when a tool's option or its
// own name says them (database maintenance, session kills, upgrades).
// Not execute, apply or commit: mysql --execute runs a SELECT as well.
var hostActionWords = map[string]bool{
	"kill": true, "optimize": true, "repair": true, "upgrade": true, "import": true, "restore": true,
	"purge": true, "truncate": true, "flush": true, "reset": true, "restart": true, "reboot": true,
	"shutdown": true, "failover": true, "promote": true,
}

// hostNameWords: verbs in a program's own name that act when it runs
// (mariadb-upgrade, mysql_upgrade); not kill: pt-kill only prints
// unless given --kill.
var hostNameWords = map[string]bool{"upgrade": true, "restore": true, "import": true, "optimize": true, "repair": true}

// hostOption is the value of c's host option (-h/--host/-H/--server/
// --hostname), "" when it has none. -h counts only with a value that
// reads as a host name, not as a help flag.
func (c *Cmd) hostOption() string {
	for i, a := range c.Args {
		k, v, eq := strings.Cut(a, "=")
		switch k {
		case "--host", "--hostname", "--server", "-H", "-h":
		default:
			if strings.HasPrefix(a, "-h") && len(a) > 3 && strings.ContainsAny(a[2:], ".-") && !strings.HasPrefix(a, "--") {
				return a[2:] // mysql -hdb-prod-1
			}
			continue
		}
		if !eq {
			if i+1 >= len(c.Args) {
				return ""
			}
			v = c.Args[i+1]
		}
		if strings.HasPrefix(v, "-") || !strings.ContainsAny(v, ".-") && k == "-h" {
			continue
		}
		if _, after, ok := strings.Cut(v, "@"); ok {
			v = after
		}
		return v
	}
	return ""
}
