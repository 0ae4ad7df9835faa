package callfacts

import "strings"

// family is which group of tools.go a program belongs to.
type family byte

const (
	famFormat family = iota
	famDisk
	famPower
	famUser
	famSQL
	famVerbs // subcommand CLIs: a change verb decides
	famKill
	famKernel
	famHistory
	famSnapshot
)

// families maps each program of tools.go to its family.
func families() map[family][]string {
	return map[family][]string{
		famFormat: FormatTools, famDisk: DiskTools, famPower: PowerTools, famUser: UserTools,
		famSQL:    append([]string{"sqlite3", "duckdb", "dropdb", "dropuser", "mysqladmin"}, SQLServerClients...),
		famVerbs:  append(append([]string(nil), SyncTools...), remoteCLIs...),
		famKill:   {"kill", "pkill", "killall", "killall5", "skill", "kill-port", "fuser", "taskkill", "taskkill.exe", "tskill"},
		famKernel: {"sysctl"}, famHistory: {"history"}, famSnapshot: SnapshotTools,
	}
}

// familyRule is the effect rule of a family's programs: what the family
// does unless the options only list, print or show help.
func familyRule(f family) effectRule {
	return func(c *Cmd) (Effect, string) {
		if c.Has("--help", "--version") {
			return EffectNone, ""
		}
		return familyEffect(f, c)
	}
}

// familyEffect is the coarse effect of program c of family f.
func familyEffect(f family, c *Cmd) (Effect, string) {
	switch f {
	case famFormat:
		if c.Name == "wipefs" && !c.Has("-a", "--all", "-o", "--offset") {
			return EffectNone, "" // wipefs DEVICE only lists the signatures it finds
		}
		return EffectDelete, c.Name + " formats or wipes a filesystem"
	case famDisk:
		if c.Has("-l", "--list", "-p", "--print", "-L", "-i") || c.Sub(0) == "status" || c.Sub(0) == "list" || len(c.Pos) == 0 || DiskReadTest(c) {
			return EffectNone, ""
		}
		return EffectDelete, c.Name + " rewrites or erases a disk"
	case famPower:
		if c.Name == "shutdown" && c.Has("-c", "--show") || (c.Name == "init" || c.Name == "telinit") && !anyOf(c.Sub(0), "0", "6", "1", "s", "S") ||
			c.Name == "kexec" && !c.Has("-e", "--exec") {
			return EffectNone, ""
		}
		return EffectStop, c.Name + " stops or restarts the machine"
	case famUser:
		if c.Name == "passwd" && c.Has("-S", "--status") {
			return EffectNone, ""
		}
		if strings.HasPrefix(c.Name, "del") || strings.HasSuffix(c.Name, "del") {
			return EffectDelete, c.Name + " deletes an account"
		}
		return EffectWrite, c.Name + " changes an account"
	case famSQL:
		switch {
		case c.Name == "dropdb" || c.Name == "dropuser":
			return EffectDelete, c.Name + " drops a database object"
		case c.Name == "mysqladmin" && anyOf(c.Sub(0), "drop", "create", "shutdown", "password", "reload", "refresh", "kill", "flush-hosts", "flush-logs", "flush-privileges", "flush-tables"):
			return EffectWrite, "mysqladmin " + c.Sub(0)
		case sqlWrite.MatchString(strings.Join(c.Args, " ") + "\n" + c.Heredoc):
			return EffectWrite, c.Name + " with a statement that writes"
		}
	case famKill:
		if anyArg(c, "-0", "-l", "-L", "--list") || c.Name == "fuser" && !c.Has("-k") {
			return EffectNone, ""
		}
		return EffectStop, c.Name + " signals processes"
	case famKernel:
		if c.Has("-w", "--write") || strings.Contains(strings.Join(c.Pos, " "), "=") {
			return EffectWrite, "sysctl changes kernel parameters"
		}
	case famHistory:
		if c.Has("-c", "-d") {
			return EffectDelete, "history " + strings.Join(c.Flags, " ") + " wipes the shell history"
		}
	case famSnapshot:
		words := c.Pos
		if len(words) > 3 {
			words = words[:3]
		}
		for _, p := range append(append([]string(nil), words...), c.Flags...) {
			w := strings.ToLower(p)
			for _, v := range []string{"delete", "destroy", "remove", "prune", "forget", "purge", "thin"} {
				if strings.Contains(w, v) || w == "rm" {
					return EffectDelete, c.Name + " " + p + " deletes backups or snapshots"
				}
			}
		}
	case famVerbs:
		for i, p := range c.Pos {
			if i == 3 {
				break
			}
			if changeVerb(p) {
				return EffectWrite, c.Name + " " + p + " changes a service, container, cluster or remote store"
			}
		}
	}
	return EffectNone, ""
}

// changeVerbs are the subcommands by which a CLI changes what it manages.
var changeVerbs = map[string]bool{
	"delete": true, "destroy": true, "remove": true, "rm": true, "rmi": true, "rb": true, "purge": true, "prune": true, "drop": true,
	"uninstall": true, "apply": true, "deploy": true, "undeploy": true, "create": true, "update": true, "upgrade": true, "put": true,
	"patch": true, "replace": true, "scale": true, "drain": true, "cordon": true, "taint": true, "stop": true, "kill": true,
	"restart": true, "start": true, "enable": true, "disable": true, "mask": true, "unmask": true, "reload": true,
	"daemon-reload": true, "isolate": true, "reboot": true, "poweroff": true, "halt": true, "kexec": true, "suspend": true,
	"hibernate": true, "rescue": true, "emergency": true, "down": true, "sync": true, "mv": true, "cp": true, "mb": true,
	"move": true, "copy": true, "moveto": true, "copyto": true, "deletefile": true, "rmdir": true, "rmdirs": true, "mkdir": true,
	"touch": true, "cleanup": true, "dedupe": true, "bisync": true, "set": true, "edit": true, "label": true, "annotate": true,
	"rollout": true, "rollback": true, "import": true, "load": true, "commit": true, "push": true, "tag": true, "bootout": true,
	"bootstrap": true, "unload": true, "kickstart": true, "terminate": true, "format": true, "sanitize": true, "labelclear": true,
	"luksformat": true, "erase": true, "reset": true, "rsync": true, "mirror": true,
}

// changeVerb reports whether a subcommand word changes something: one of
// changeVerbs, or an API verb prefix (aws ec2 terminate-instances,
// delete-bucket, put-object).
func changeVerb(w string) bool {
	w = strings.ToLower(w)
	if changeVerbs[w] {
		return true
	}
	for _, p := range []string{"delete-", "terminate-", "create-", "put-", "update-", "remove-", "modify-", "stop-", "start-", "reboot-", "attach-", "detach-", "run-"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// anyArg reports whether one of c's arguments is exactly one of vals
// (not a letter of a cluster: kill -KILL is no -L).
func anyArg(c *Cmd, vals ...string) bool {
	for _, a := range c.Args {
		if anyOf(a, vals...) {
			return true
		}
	}
	return false
}

func anyOf(s string, vals ...string) bool {
	for _, v := range vals {
		if s == v {
			return true
		}
	}
	return false
}
