package callfacts

import (
	"path"
	"strings"
)

// ScriptFile is the script file c runs: the first operand with a
// script's extension of a shell, an interpreter or a batch scheduler
// (bash ~/Downloads/fix.sh, python3 /tmp/x.py), or the path c is itself
// run by when it names a script (./x.sh, ~/bin/panelize.sh,
// /tmp/glider_sync.sh, ~/Downloads/setup.run). "" for none; the path is
// as written.
func (c *Cmd) ScriptFile() string {
	if f := c.scriptFileArg(); f != "" {
		return f
	}
	if c.Payload != "" || c.Heredoc != "" {
		return ""
	}
	if IsShell(c.Name) && !c.Has("-c") {
		for _, a := range c.Args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if strings.EqualFold(path.Ext(a), ".run") {
				return a // an installer: sh ~/Downloads/NVIDIA-Linux-x86_64.run
			}
			break
		}
	}
	if e := strings.ToLower(path.Ext(c.Raw)); strings.HasPrefix(c.Raw, "/") && (scriptExts[e] || e == ".run") || strings.HasPrefix(c.Raw, "~/") && e == ".run" {
		return c.Raw
	}
	return ""
}

// HandedScript is a script file handed to a program nobody listed (no
// interpreter, shell or table names it) as an operand or an option's
// value (metashape.sh -r x.py, photoscan --script=x.py, qgis --code
// x.py): an application that takes a script file runs it; "" for none.
// The outside-script rule reads it only where it sits in a downloads
// folder.
func (c *Cmd) HandedScript() string {
	if c.Payload != "" || c.Heredoc != "" || IsShell(c.Name) || IsInterpreter(c.Name) || Known(c.Name) {
		return ""
	}
	for _, a := range c.Args {
		if o, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(o, "-") {
			a = v
		}
		if !strings.HasPrefix(a, "-") && scriptExts[strings.ToLower(path.Ext(a))] {
			return a
		}
	}
	return ""
}
