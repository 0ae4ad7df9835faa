package callfacts

import "path"

// wardenUserOnly are warden's subcommands only the user may type: a model
// that could run them would switch its own guards off. Self-protection in
// the policy and the self-toggle gate both ask WardenToggle, so they
// cannot disagree about which these are.
var wardenUserOnly = map[string]bool{
	"off": true, "on": true, "safemode": true, "breaker": true, "uninstall": true, "tempo": true,
	"s-": true, "rb-": true,
	"disable": true, // no such command: a model guessing at off
}

// wardenName reports whether a program is warden (pace-maker is its old
// name).
func wardenName(name string) bool { return name == "warden" || name == "pace-maker" }

// WardenToggle is the user-only warden command c runs ("warden off",
// "warden loop stop"), "" for none. A name built at run time from text
// the line hides ($(base64 -d < n.b64) off) running a user-only
// subcommand is taken for warden.
func (c *Cmd) WardenToggle() string {
	if !wardenName(c.Name) && !c.NameBuilt {
		return ""
	}
	pos := c.Pos
	for len(pos) > 0 && wardenName(path.Base(pos[0])) {
		// $(which warden || echo ~/bin/warden) off: the substitution's
		// other value, not an argument
		pos = pos[1:]
	}
	if len(pos) == 0 {
		return ""
	}
	name := c.Name
	if !wardenName(name) {
		name = "warden"
	}
	switch {
	case wardenUserOnly[pos[0]]:
		return name + " " + pos[0]
	case pos[0] == "loop" && len(pos) > 1 && pos[1] == "stop" && wardenName(c.Name):
		// Claude may start a loop, never end one it is held in.
		return name + " loop stop"
	}
	return ""
}
