package install

import (
	"os"
	"path/filepath"
	"strings"
)

// A hook whose program does not exist fails every time, Claude Code shows
// at most a short non-blocking error, and the guard it was meant to be is
// silently gone. CheckCommands finds those in a settings file the way the
// shell would resolve them: first word of the command, ~ and $VAR expanded
// (CLAUDE_PROJECT_DIR = the project), bare names looked up on PATH, and for
// `python3 script.py`-style commands the script too.

// Env is the environment a hook command would run in.
type Env struct {
	// Cwd is the project directory: the hook's cwd and CLAUDE_PROJECT_DIR.
	Cwd string
	// Getenv looks variables up; nil means os.LookupEnv.
	Getenv func(string) (string, bool)
}

func (e Env) lookup(name string) (string, bool) {
	if name == "CLAUDE_PROJECT_DIR" {
		return e.Cwd, true
	}
	if e.Getenv == nil {
		return os.LookupEnv(name)
	}
	return e.Getenv(name)
}

// BadCommand is a command whose program or script is not there.
type BadCommand struct {
	File    string `json:"file"`
	Where   string `json:"where"` // hooks.<Event>[i].hooks[j], statusLine or statusLine --wrap
	Command string `json:"command"`
	Reason  string `json:"reason"`
	// Unsure: the path used variables unset here (or shell substitutions),
	// so it may well exist when Claude Code runs it.
	Unsure bool `json:"unsure,omitempty"`
}

// CheckCommands returns the hook and status line commands of s that would
// not find their program.
func CheckCommands(s *Settings, env Env) []BadCommand {
	var out []BadCommand
	report := func(where, cmd, reason string, unsure bool) {
		out = append(out, BadCommand{File: s.Path, Where: where, Command: cmd, Reason: reason, Unsure: unsure})
	}
	_ = s.Visit(func(loc Location, h *Object) {
		if cmd, reason, unsure := env.checkHandler(h); reason != "" {
			report(loc.String(), cmd, reason, unsure)
		}
	}, nil)

	if raw, ok := s.Root.Get("statusLine"); ok && kindOf(raw) == "an object" {
		sl, err := parseObject(raw)
		if err != nil {
			return out
		}
		cmdRaw, _ := sl.Get("command")
		cmd, _ := stringValue(cmdRaw)
		if reason, unsure := env.checkLine(cmd); reason != "" {
			report("statusLine", cmd, reason, unsure)
		}
		if inv, ok := parseWarden(cmd); ok && inv.sub() == "statusline" {
			if inner, ok := inv.wrappedCommand(); ok {
				if reason, unsure := env.checkLine(inner); reason != "" {
					report("statusLine --wrap", inner, reason, unsure)
				}
			}
		}
	}
	return out
}

// checkHandler returns why a hook handler's program cannot run ("" when it
// can, or when the handler executes nothing: http, mcp_tool, prompt, agent,
// PowerShell).
func (e Env) checkHandler(h *Object) (cmd, reason string, unsure bool) {
	if t, ok := h.Get("type"); ok {
		if v, _ := stringValue(t); v != "command" {
			return "", "", false
		}
	}
	if sh, ok := h.Get("shell"); ok {
		if v, _ := stringValue(sh); v == "powershell" {
			return "", "", false // not a POSIX command line
		}
	}
	raw, _ := h.Get("command")
	cmd, _ = stringValue(raw)
	if _, exec := h.Get("args"); exec {
		// Exec form: command is the program itself, placeholders substituted.
		var unset bool
		prog := os.Expand(cmd, func(n string) string {
			v, ok := e.lookup(n)
			unset = unset || !ok || v == ""
			return v
		})
		return handlerLine(h), e.findProgram(prog), unset
	}
	reason, unsure = e.checkLine(cmd)
	return cmd, reason, unsure
}

// shellBuiltins run without a file: nothing to check.
var shellBuiltins = map[string]bool{
	"cd": true, ".": true, "source": true, "eval": true, "export": true, "test": true,
	"[": true, "[[": true, "if": true, "for": true, "while": true, "until": true,
	"case": true, "{": true, "!": true, "true": true, "false": true, "echo": true,
	"printf": true, "set": true, "unset": true, "read": true, "exit": true,
	"return": true, ":": true, "trap": true, "umask": true, "ulimit": true,
	"wait": true, "type": true, "local": true, "declare": true, "readonly": true,
	"shift": true, "pushd": true, "popd": true, "builtin": true, "alias": true,
}

// wrappers run the next word as the program.
var wrappers = map[string]bool{"exec": true, "command": true, "nohup": true, "env": true, "time": true}

// interpreters take a script path as their first operand.
var interpreters = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
	"python": true, "python3": true, "python2": true, "node": true, "nodejs": true,
	"ruby": true, "perl": true, "php": true, "bun": true, "deno": true, "tsx": true,
	"ts-node": true, "lua": true, "Rscript": true, "pwsh": true,
}

// isInterpreter also knows versioned names such as python3.12.
func isInterpreter(name string) bool {
	return interpreters[name] || strings.HasPrefix(name, "python")
}

// inlineFlags mean the code is on the command line, not in a file.
var inlineFlags = map[string]bool{
	"-c": true, "-e": true, "-E": true, "-m": true, "-p": true, "--eval": true,
	"--print": true, "-Command": true, "eval": true,
}

var scriptExts = []string{".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".rb", ".pl", ".php", ".lua", ".ps1"}

// checkLine returns why the command line cannot run, or "".
func (e Env) checkLine(line string) (reason string, unsure bool) {
	if strings.TrimSpace(line) == "" {
		return "the command is empty", false
	}
	words, _, err := commandWords(line, e.lookup)
	if err != nil {
		return "the command has " + err.Error() + "; the shell cannot run it", false
	}
	// Skip exec/env/nohup… to the program they run.
	for len(words) > 0 && wrappers[words[0].text] {
		words = words[1:]
		for len(words) > 0 && (strings.HasPrefix(words[0].text, "-") || assignment().MatchString(words[0].text)) {
			words = words[1:]
		}
	}
	if len(words) == 0 || shellBuiltins[words[0].text] || words[0].dynamic {
		return "", false
	}
	prog := words[0]
	if reason := e.findProgram(prog.text); reason != "" {
		return reason, len(prog.unset) > 0
	}
	if isInterpreter(filepath.Base(prog.text)) {
		if script, ok := scriptOperand(words[1:]); ok && !script.dynamic {
			p := script.text
			if !filepath.IsAbs(p) {
				p = filepath.Join(e.Cwd, p)
			}
			if _, err := os.Stat(p); err != nil {
				return "the script " + script.text + " does not exist", len(script.unset) > 0
			}
		}
	}
	return "", false
}

// scriptOperand finds the script an interpreter would run: its first
// operand that looks like a file (has a / or a script extension). bun and
// deno take a "run" subcommand first.
func scriptOperand(args []word) (word, bool) {
	for i, a := range args {
		switch {
		case inlineFlags[a.text]:
			return word{}, false
		case strings.HasPrefix(a.text, "-"):
			continue
		case a.text == "run" && i == 0:
			continue
		}
		if strings.Contains(a.text, "/") || hasScriptExt(a.text) {
			return a, true
		}
		return word{}, false
	}
	return word{}, false
}

func hasScriptExt(p string) bool {
	ext := filepath.Ext(p)
	for _, e := range scriptExts {
		if ext == e {
			return true
		}
	}
	return false
}

// findProgram resolves a program the way the shell does: a name with a
// slash is a path (relative to the cwd), a bare name is searched on PATH.
func (e Env) findProgram(p string) string {
	if p == "" {
		return "the program name is empty"
	}
	if strings.Contains(p, "/") {
		if !filepath.IsAbs(p) {
			p = filepath.Join(e.Cwd, p)
		}
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			return p + " does not exist"
		case fi.IsDir():
			return p + " is a directory"
		case fi.Mode().Perm()&0o111 == 0:
			return p + " is not executable (chmod +x " + ShellQuote(p) + ")"
		}
		return ""
	}
	pathVar, _ := e.lookup("PATH")
	for _, dir := range filepath.SplitList(pathVar) {
		if dir == "" {
			dir = "."
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(e.Cwd, dir)
		}
		if fi, err := os.Stat(filepath.Join(dir, p)); err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0 {
			return ""
		}
	}
	return p + " is not on PATH"
}
