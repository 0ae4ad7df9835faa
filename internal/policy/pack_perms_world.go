package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// worldOpenRule: a tree of the user's files, or the system's, made
// writable by every account (chmod -R 777, chmod -R o+w, setfacl -R -m
// o::rwx, find ~ -exec chmod 777): anyone on the machine, any service
// running as another user, can change the user's files and plant code in
// their start-up files.
func worldOpenRule() Rule {
	return Rule{ID: "core.zones:world-writable-tree", Mode: Deny, Tools: shellTools, Cmds: []string{"chmod", "setfacl", "find", "fd", "xargs"},
		Desc: "Making a tree of the user's files or the system's writable by every account (chmod -R 777 ~/x, chmod -R o+w, setfacl -R -m o::rwx ~, find ~ -exec chmod 777 {} +): any account or service can change them and plant code",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if (c.Name != "chmod" && c.Name != "setfacl") || !worldWritable(c) || !treeWide(c) {
					continue
				}
				for _, tc := range e.Touches() {
					if tc.Effect != callfacts.PathPermissions && tc.Effect != callfacts.PathSetID {
						continue
					}
					switch tc.Zone {
					case callfacts.ZoneHomeData, callfacts.ZoneHomeConfig, callfacts.ZoneCredentials, callfacts.ZoneSystem:
						return c.Name + " makes " + homeRel(tc.Path, e.F.Home) + " and everything under it writable by every account"
					}
				}
			}
			return ""
		},
		Catch: []string{"setfacl -R -m o::rwx ~", "find ~ -type d -exec chmod 777 {} +", "chmod -R o+w ~/Documents", "sudo chmod -R a+rwx /usr/local/lib", "setfacl -R -m other:rwx ~/.config", "fd . ~/Pictures -x chmod 666 {}"},
		Allow: []string{"chmod -R 777 ./build", "chmod -R o+w /tmp/share", "setfacl -m o::r ~/notes.txt", "chmod -R go-w ~/.ssh", "find ~/proj/dist -type f -exec chmod 644 {} +", "chmod 777 ~/Downloads/x.sh", "setfacl -R -m u:www-data:rx ./public"}}
}

// worldWritable reports whether c gives every account write access: a
// chmod mode whose others' digit has 2 (777, 666, 1777) or o+w / a+w /
// +w… for others, a setfacl entry for others (o:: or other::) with w.
func worldWritable(c *Cmd) bool {
	if c.Name == "setfacl" {
		for _, a := range c.Args {
			l := strings.ToLower(a)
			for _, e := range strings.Split(l, ",") {
				if (strings.HasPrefix(e, "o:") || strings.HasPrefix(e, "other:")) && strings.Contains(e[strings.LastIndexByte(e, ':'):], "w") {
					return true
				}
			}
		}
		return false
	}
	if len(c.Pos) == 0 {
		return false
	}
	m := c.Pos[0]
	if m != "" && strings.Trim(m, "01234567") == "" {
		d := m[len(m)-1]
		return d == '2' || d == '3' || d == '6' || d == '7'
	}
	for _, cl := range strings.Split(m, ",") {
		i := strings.IndexAny(cl, "+=")
		if i >= 0 && strings.ContainsRune(cl[i:], 'w') && (strings.ContainsAny(cl[:i], "oa")) {
			return true
		}
	}
	return false
}

// treeWide reports whether c works on whole trees: -R, or run by find or
// fd over the files of one.
func treeWide(c *Cmd) bool {
	if c.Has("-R", "--recursive") {
		return true
	}
	for _, w := range c.Wrappers {
		if strings.HasPrefix(w, "find") || strings.HasPrefix(w, "fd") || strings.HasPrefix(w, "xargs") {
			return true
		}
	}
	return false
}
