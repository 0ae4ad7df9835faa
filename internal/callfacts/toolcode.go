package callfacts

import "strings"

// Tools that run shell code of their own: git's configured commands, sed's
// e flag, vim's :! (task runners: runners.go). What they would run is parsed as shell
// and goes through the same rules.

// gitShellKey reports whether git runs the value of a config key as a command.
func gitShellKey(k string) bool {
	switch k {
	case "core.pager", "core.sshcommand", "core.editor", "core.fsmonitor", "sequence.editor", "diff.external", "core.askpass", "credential.helper", "gpg.program", "pager.log", "pager.diff", "pager.show", "interactive.difffilter":
		return true
	}
	return false
}

// gitConfigCode parses the commands in git -c key=value options: core.pager,
// core.sshCommand, alias.x=!cmd and the like.
func (n *normalizer) gitConfigCode(args []string, depth int, wrappers []string) {
	var aliases map[string]string
	for i := 0; i < len(args); i++ {
		if args[i] != "-c" || i+1 == len(args) {
			if !strings.HasPrefix(args[i], "-") {
				if v, ok := aliases[strings.ToLower(args[i])]; ok {
					// git -c alias.ship='push -f origin HEAD:main' ship: git
					// runs git push -f origin HEAD:main
					code := "git " + v
					if len(args) > i+1 {
						code += " " + argvCode(args[i+1:])
					}
					n.derive("git -c alias.%s runs %q", args[i], code)
					n.shell(code, depth+1, append(append([]string(nil), wrappers...), "git -c alias."+args[i]), nil)
				}
				return
			}
			if args[i] == "-C" {
				i++
			}
			continue
		}
		k, v, ok := strings.Cut(args[i+1], "=")
		i++
		if !ok {
			continue
		}
		k = strings.ToLower(k)
		if name, ok := strings.CutPrefix(k, "alias."); ok && v != "" && !strings.HasPrefix(v, "!") {
			if aliases == nil {
				aliases = map[string]string{}
			}
			aliases[name] = v
			continue
		}
		code := ""
		switch {
		case strings.HasPrefix(k, "alias.") && strings.HasPrefix(v, "!"):
			code = v[1:]
		case strings.HasPrefix(k, "credential.") && strings.HasPrefix(v, "!"):
			code = v[1:]
		case gitShellKey(k) || strings.HasPrefix(k, "pager.") || strings.HasSuffix(k, ".textconv") || strings.HasSuffix(k, ".command") || strings.HasPrefix(k, "filter.") && (strings.HasSuffix(k, ".clean") || strings.HasSuffix(k, ".smudge")):
			code = v
		}
		if code != "" {
			n.derive("git -c %s runs %q", k, code)
			n.shell(code, depth+1, append(append([]string(nil), wrappers...), "git -c "+k), nil)
		}
	}
}

// gitConfigSetCode parses the command `git config alias.x '!…'` (or a
// key git runs, core.pager…) stores: it runs at the next `git x`, usually
// in the same line, so it is checked as if it ran now.
func (n *normalizer) gitConfigSetCode(args []string, depth int, wrappers []string) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if args[i] == "-c" || args[i] == "-C" {
			i++
		}
		i++
	}
	if i >= len(args) || args[i] != "config" {
		return
	}
	var kv []string
	for j := i + 1; j < len(args); j++ {
		switch a := args[j]; {
		case a == "--file" || a == "-f" || a == "--blob":
			j++
		case strings.HasPrefix(a, "-") || len(kv) == 0 && (a == "set" || a == "--add"):
		default:
			kv = append(kv, a)
		}
	}
	if len(kv) != 2 {
		return
	}
	k, v := strings.ToLower(kv[0]), kv[1]
	code := ""
	switch {
	case strings.HasPrefix(k, "alias.") && strings.HasPrefix(v, "!"):
		code = v[1:]
	case gitShellKey(k):
		code = v
	}
	if code != "" {
		n.derive("git config %s stores %q, which git runs later", k, code)
		n.shell(code, depth+1, append(append([]string(nil), wrappers...), "git config "+k), nil)
	}
}

// sedCode parses what GNU sed's e command and s///e flag run.
func (n *normalizer) sedCode(c *Cmd, depth int, wrappers []string) {
	var scripts []string
	for i, a := range c.Args {
		if (a == "-e" || a == "--expression") && i+1 < len(c.Args) {
			scripts = append(scripts, c.Args[i+1])
		}
	}
	if len(scripts) == 0 && len(c.Pos) > 0 && !c.Has("-f") {
		scripts = append(scripts, c.Pos[0])
	}
	for _, s := range scripts {
		for _, cmd := range strings.Split(s, ";") {
			cmd = strings.TrimLeft(cmd, " 0123456789,$/^")
			if rest, ok := strings.CutPrefix(cmd, "e "); ok {
				n.derive("sed's e command runs %q", rest)
				n.shell(rest, depth+1, append(append([]string(nil), wrappers...), "sed e"), nil)
				continue
			}
			if strings.HasPrefix(cmd, "s") && len(cmd) > 3 {
				d := string(cmd[1])
				parts := strings.Split(cmd[2:], d)
				if len(parts) >= 3 && strings.Contains(parts[2], "e") {
					n.derive("sed's s///e runs %q", parts[1])
					n.shell(strings.ReplaceAll(parts[1], "\\"+d, d), depth+1, append(append([]string(nil), wrappers...), "sed s///e"), nil)
				}
			}
		}
	}
}

// vimCode parses the :!cmd of vim -c / +cmd / --cmd.
func (n *normalizer) vimCode(c *Cmd, depth int, wrappers []string) {
	for i, a := range c.Args {
		code := ""
		switch {
		case (a == "-c" || a == "--cmd") && i+1 < len(c.Args):
			code = c.Args[i+1]
		case strings.HasPrefix(a, "+"):
			code = a[1:]
		}
		code = strings.TrimLeft(code, ": ")
		if strings.HasPrefix(code, "!") || strings.HasPrefix(code, "r !") || strings.HasPrefix(code, "r!") || strings.HasPrefix(code, "call system(") || strings.HasPrefix(code, "silent !") {
			if j := strings.IndexByte(code, '!'); j >= 0 {
				code = code[j+1:]
			} else {
				code = strings.TrimSuffix(strings.TrimPrefix(code, "call system("), ")")
				if l := Literals(code); len(l) > 0 {
					code = l[0]
				}
			}
			n.derive("%s runs %q", c.Name, code)
			n.shell(code, depth+1, append(append([]string(nil), wrappers...), c.Name+" -c !"), nil)
		}
	}
}

// stringCode returns the shell code tools take as one string argument
// (trap, alias, tmux, screen, pdsh, ansible -a, salt cmd.run, gdb -ex
// shell, expect spawn, osascript do shell script), or nil.
func stringCode(c *Cmd) []string {
	var out []string
	switch c.Name {
	case "npm", "pnpm", "yarn", "bun":
		// npm pkg set scripts.postinstall="curl … | sh", npm set-script
		// K CODE: a manifest script the next install or run executes
		if c.Sub(0) == "pkg" && c.Sub(1) == "set" {
			for _, p := range c.Pos[2:] {
				if k, v, ok := strings.Cut(p, "="); ok && strings.HasPrefix(k, "scripts.") {
					out = append(out, v)
				}
			}
		}
		if c.Sub(0) == "set-script" && len(c.Pos) > 2 {
			out = append(out, c.Pos[2])
		}
	case "composer":
		// composer config scripts.post-install-cmd "CODE"
		if c.Sub(0) == "config" && len(c.Pos) > 2 && strings.HasPrefix(c.Pos[1], "scripts.") {
			out = append(out, c.Pos[2])
		}
	case "trap":
		if len(c.Pos) > 1 {
			out = append(out, c.Pos[0])
		}
	case "alias":
		for _, p := range c.Pos {
			if _, v, ok := strings.Cut(p, "="); ok {
				out = append(out, v)
			}
		}
	case "tmux":
		var rest []string
		for i, a := range c.Args {
			if a == c.Sub(0) {
				rest = SkipFlags(c.Args[i+1:], "tcnsxyFeENlLpSTb")
				break
			}
		}
		switch c.Sub(0) {
		case "new", "new-session", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "run-shell", "run", "respawn-window":
			if len(rest) > 0 {
				out = append(out, strings.Join(rest, " "))
			}
		case "send-keys", "send":
			var keys []string
			for _, p := range rest {
				if p != "Enter" && p != "C-m" && p != "KPEnter" {
					keys = append(keys, p)
				}
			}
			out = append(out, strings.Join(keys, " "))
		}
	case "screen":
		for i, a := range c.Args {
			if a == "stuff" && i+1 < len(c.Args) {
				out = append(out, c.Args[i+1])
			}
		}
	case "pdsh", "pssh", "parallel-ssh", "clush", "mussh", "dsh":
		if len(c.Pos) > 0 {
			out = append(out, c.Pos[len(c.Pos)-1])
		}
	case "ansible":
		for i, a := range c.Args {
			if (a == "-a" || a == "--args") && i+1 < len(c.Args) {
				out = append(out, c.Args[i+1])
			}
		}
	case "salt", "salt-ssh", "salt-call":
		for i, p := range c.Pos {
			if (p == "cmd.run" || p == "cmd.shell" || p == "cmd.script") && i+1 < len(c.Pos) {
				out = append(out, c.Pos[i+1])
			}
		}
	case "gdb", "lldb":
		for i, a := range c.Args {
			if (a == "-ex" || a == "-o" || a == "--one-line") && i+1 < len(c.Args) {
				v := c.Args[i+1]
				if r, ok := strings.CutPrefix(v, "shell "); ok {
					out = append(out, r)
				} else if r, ok := strings.CutPrefix(v, "!"); ok {
					out = append(out, r)
				} else if r, ok := strings.CutPrefix(v, "platform shell "); ok {
					out = append(out, r)
				}
			}
		}
	case "expect":
		for i, a := range c.Args {
			if a == "-c" && i+1 < len(c.Args) {
				if _, r, ok := strings.Cut(c.Args[i+1], "spawn "); ok {
					out = append(out, strings.SplitN(r, ";", 2)[0])
				}
			}
		}
	case "osascript":
		for _, a := range c.Args {
			// do shell script "…"; Terminal's do script "…" and iTerm's
			// write text "…" type the text into a new shell
			for _, verb := range []string{"do shell script", "do script", "write text"} {
				if _, r, ok := strings.Cut(a, verb); ok {
					if l := Literals(r); len(l) > 0 {
						out = append(out, l[0])
					}
					break
				}
			}
		}
	}
	return out
}

// psInvoke are PowerShell's names for evaluating a string as code.
var psInvoke = map[string]bool{"iex": true, "invoke-expression": true}

// psStart are PowerShell's names for starting a process.
var psStart = map[string]bool{"start-process": true, "saps": true}

// startProcessArgv is the command Start-Process starts: -FilePath (or the
// first positional) and -ArgumentList split into words.
func startProcessArgv(args []string) []string {
	prog, list := "", ""
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(args[i])
		switch {
		case (a == "-filepath" || a == "-file") && i+1 < len(args):
			prog = args[i+1]
			i++
		case (a == "-argumentlist" || a == "-args" || a == "-arguments") && i+1 < len(args):
			list = args[i+1]
			i++
		case a == "-verb" || a == "-windowstyle" || a == "-workingdirectory" || a == "-credential" || a == "-redirectstandardoutput" || a == "-redirectstandarderror":
			i++
		case strings.HasPrefix(a, "-"):
		case prog == "":
			prog = args[i]
		case list == "":
			list = args[i]
		}
	}
	if prog == "" {
		return nil
	}
	argv := []string{prog}
	list = strings.TrimSpace(list)
	// -c / -Command: the rest is one code string
	for _, f := range []string{"-c ", "-command ", "/c ", "-Command "} {
		if strings.HasPrefix(list, f) {
			return append(argv, strings.TrimSpace(f), strings.TrimSpace(list[len(f):]))
		}
	}
	return append(argv, strings.Fields(list)...)
}

// lowerName is name in lower case, without a copy when it has no upper
// case letter (almost every program name).
func lowerName(name string) string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(name)
		}
	}
	return name
}
