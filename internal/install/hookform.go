package install

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
)

// Claude Code runs a command hook in one of two forms. Shell form
// ("command" alone) hands the line to `bash -c`, so every hook event pays
// for a shell before warden starts. Exec form ("command" is the program,
// "args" its arguments) spawns the program directly. Claude Code 2.1.139
// added "args" (its changelog: "Added hook `args: string[]` field (exec
// form) that spawns the command directly without a shell"); an older one
// drops the unknown field and would run warden with no arguments at all.
// So install writes exec form when the installed Claude Code is 2.1.139 or
// newer, and shell form otherwise. The status line has no "args" (2.1.330's
// settings schema: type, command, padding, refreshInterval,
// hideVimModeIndicator), so it stays a command line.

// HookForm is how warden's hook handlers are written.
type HookForm int

const (
	// ShellForm: "command": "/path/warden hook --harness claude".
	ShellForm HookForm = iota
	// ExecForm: "command": "/path/warden", "args": ["hook", "--harness", "claude"].
	ExecForm
)

func (f HookForm) String() string {
	if f == ExecForm {
		return "exec form"
	}
	return "shell form"
}

// ExecFormSince is the first Claude Code release that runs exec-form hooks.
const ExecFormSince = "2.1.139"

// hookArgs are the arguments of warden's hook handler.
var hookArgs = []string{"hook", "--harness", "claude"}

// chooseForm picks the form for the Claude Code that `claude --version`
// reported (version, err) and says why in one line for install's output.
// Without a version it picks shell form: every release runs it.
func chooseForm(version string, err error) (HookForm, string) {
	if err != nil {
		return ShellForm, "hooks: shell form (Claude Code's version is unknown: " + err.Error() + "; exec form needs " + ExecFormSince + " or newer, run `warden install` again once `claude` is on PATH)"
	}
	v, ok := ParseVersion(version)
	if !ok {
		return ShellForm, "hooks: shell form (cannot read Claude Code's version from " + strconv.Quote(version) + "; exec form needs " + ExecFormSince + " or newer)"
	}
	if !VersionAtLeast(v, ExecFormSince) {
		return ShellForm, "hooks: shell form (Claude Code " + v + " predates exec form, which needs " + ExecFormSince + "; run `warden install` again after upgrading it)"
	}
	if HomePrefix() != "" {
		// Exec form cannot set a variable; the line must carry WARDEN_HOME.
		return ShellForm, "hooks: shell form (WARDEN_HOME is not the default and exec form cannot set it)"
	}
	return ExecForm, "hooks: exec form (Claude Code " + v + " runs warden without a shell)"
}

// installForm asks the installed Claude Code which form it runs.
func (o Options) installForm(ctx context.Context) (HookForm, string) {
	get := o.ClaudeVersion
	if get == nil {
		get = ClaudeVersion
	}
	return chooseForm(get(ctx))
}

// ParseVersion takes the version from `claude --version` output such as
// "2.1.330 (Claude Code)".
func ParseVersion(out string) (string, bool) {
	f := strings.Fields(out)
	if len(f) == 0 {
		return "", false
	}
	v := strings.TrimPrefix(f[0], "v")
	if _, ok := versionParts(v); !ok {
		return "", false
	}
	return v, true
}

// versionParts splits "major.minor.patch" (a pre-release suffix ignored).
func versionParts(v string) ([3]int, bool) {
	var out [3]int
	v, _, _ = strings.Cut(v, "-")
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return out, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return out, false
		}
		out[i] = n
	}
	return out, true
}

// VersionAtLeast reports whether v >= min (both well formed).
func VersionAtLeast(v, min string) bool {
	a, _ := versionParts(v)
	b, _ := versionParts(min)
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return true
}

// handlerArgs returns a hook handler's "args" and whether it has them (exec
// form); malformed args count as present and empty.
func handlerArgs(h *Object) ([]string, bool) {
	raw, ok := h.Get("args")
	if !ok {
		return nil, false
	}
	var args []string
	if json.Unmarshal(raw, &args) != nil {
		return []string{}, true
	}
	if args == nil {
		args = []string{}
	}
	return args, true
}

// handlerLine is a hook handler's command as one shell line: the command
// itself in shell form, the program and its quoted arguments in exec form.
// It names the handler in messages and lets matchers written for command
// lines (another tool's hooks) see both forms.
func handlerLine(h *Object) string {
	raw, _ := h.Get("command")
	cmd, _ := stringValue(raw)
	args, exec := handlerArgs(h)
	if !exec {
		return cmd
	}
	words := []string{ShellQuote(cmd)}
	for _, a := range args {
		words = append(words, ShellQuote(a))
	}
	return strings.Join(words, " ")
}

// setExecForm makes h run bin with warden's hook arguments, "args" right
// after "command" when it is new.
func setExecForm(h *Object, bin string) (changed bool) {
	if old, ok := h.Get("command"); !ok || !sameJSON(old, rawJSON(bin)) {
		h.Set("command", rawJSON(bin))
		changed = true
	}
	if old, ok := h.Get("args"); ok {
		if !sameJSON(old, rawJSON(hookArgs)) {
			h.Set("args", rawJSON(hookArgs))
			changed = true
		}
		return changed
	}
	h.insertAfter("command", "args", rawJSON(hookArgs))
	return true
}

// insertAfter adds a new key right after another (at the end when that
// one is missing), so a handler reads "command", "args", "timeout".
func (o *Object) insertAfter(after, key string, val any) {
	i := o.index(after)
	if i < 0 {
		o.Set(key, val)
		return
	}
	o.pairs = append(o.pairs[:i+1], append([]pair{{key: key, val: val}}, o.pairs[i+1:]...)...)
	o.src = nil
}
