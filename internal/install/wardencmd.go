package install

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// HookCommand is the command install registers for every hook event.
func HookCommand(bin string) string { return HomePrefix() + ShellQuote(bin) + " hook --harness claude" }

// StatusLineCommand is the status line install sets when there was none.
func StatusLineCommand(bin string) string { return HomePrefix() + ShellQuote(bin) + " statusline" }

// HomePrefix pins a non-default WARDEN_HOME into the registered commands:
// Claude Code does not pass the installing shell's environment to hooks, and
// without it they would write to ~/.warden while doctor looks elsewhere.
func HomePrefix() string {
	h := os.Getenv("WARDEN_HOME")
	if h == "" {
		return ""
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.Clean(h) == filepath.Join(home, ".warden") {
		return ""
	}
	return "WARDEN_HOME=" + ShellQuote(h) + " "
}

// wrapCommand is the status line install sets over someone else's: warden
// runs the old command and appends its own segment.
func wrapCommand(bin, old string) string {
	return StatusLineCommand(bin) + " --wrap " + singleQuote(old)
}

// invocation is a command line that runs a warden binary.
type invocation struct {
	line      string
	progStart int    // where the program word starts (after NAME=value prefixes)
	progEnd   int    // where it ends
	args      []word // the words after the program
}

// sub is the warden subcommand ("hook", "statusline"), or "".
func (inv invocation) sub() string {
	if len(inv.args) == 0 {
		return ""
	}
	return inv.args[0].text
}

// withProgram returns the line with the program replaced by bin and
// everything else (assignments before it, arguments after it) kept.
func (inv invocation) withProgram(bin string) string {
	return withoutHomeAssignment(inv.line[:inv.progStart]) + HomePrefix() + ShellQuote(bin) + inv.line[inv.progEnd:]
}

// homeAssignment matches a WARDEN_HOME=value word in a command's prefix.
// Compiled on first use: this package is linked into the binary that runs
// hooks, and package init runs on every hook.
var homeAssignment = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|\s)WARDEN_HOME=('[^']*'|"[^"]*"|\S+)\s*`)
})

// withoutHomeAssignment drops an earlier install's WARDEN_HOME pin from a
// prefix of NAME=value words (the user's own assignments stay), so the pin
// is always the current one and never doubled.
func withoutHomeAssignment(prefix string) string {
	return homeAssignment().ReplaceAllString(prefix, "$1")
}

// parseWarden reports whether line runs a warden binary (any path whose
// last element is "warden"), so a registration written by an older install,
// from another path or by hand is recognised as warden's own.
func parseWarden(line string) (invocation, bool) {
	words, _, err := commandWords(line, nil)
	if err != nil || len(words) == 0 || !isWardenProgram(words[0].text) {
		return invocation{}, false
	}
	return invocation{line: line, progStart: words[0].start, progEnd: words[0].end, args: words[1:]}, true
}

func isWardenProgram(p string) bool {
	base := path.Base(strings.ReplaceAll(p, `\`, "/"))
	return strings.TrimSuffix(base, ".exe") == "warden"
}

// IsWardenHook reports whether a hook handler is one warden registered:
// type "command" running `warden hook …`, in shell form or exec form
// (`command` plus an `args` array).
func IsWardenHook(h *Object) bool {
	if t, ok := h.Get("type"); ok {
		if s, _ := stringValue(t); s != "command" {
			return false
		}
	}
	raw, ok := h.Get("command")
	if !ok {
		return false
	}
	cmd, _ := stringValue(raw)
	if argsRaw, ok := h.Get("args"); ok {
		var args []string
		if json.Unmarshal(argsRaw, &args) != nil {
			return false
		}
		return isWardenProgram(cmd) && len(args) > 0 && args[0] == "hook"
	}
	inv, ok := parseWarden(cmd)
	return ok && inv.sub() == "hook"
}

// wrappedCommand returns the --wrap argument of a warden status line.
func (inv invocation) wrappedCommand() (string, bool) {
	for i, w := range inv.args {
		if v, ok := strings.CutPrefix(w.text, "--wrap="); ok {
			return v, true
		}
		if w.text == "--wrap" && i+1 < len(inv.args) {
			return inv.args[i+1].text, true
		}
	}
	return "", false
}
