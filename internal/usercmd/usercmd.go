// Package usercmd implements the commands a user can type into the Claude
// Code prompt ("warden status", "warden off", …). The hook runtime answers
// them at UserPromptSubmit and keeps them from the model; the CLI runs the
// same commands, so both always say the same thing.
package usercmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/session"
	"github.com/warden-dev/warden/internal/store"
)

// Env is what a command may use. Store may be nil (unusable store); State
// and SessionID are set only when the command was typed in a session.
type Env struct {
	Store          store.Local
	StorePath      string
	StoreErr       error
	SessionID      string
	State          *session.State
	ConfigProblems []config.Problem
	// Config is the effective config (nil: defaults).
	Config *config.Config
	// ProjectDir is the project the command is about (the session's, or
	// the CLI's working directory).
	ProjectDir string
}

// config returns the effective config or the defaults.
func (e *Env) config() *config.Config {
	if e.Config == nil {
		return config.Defaults()
	}
	return e.Config
}

// Command is one user command.
type Command struct {
	// Name is the word after "warden", e.g. "status".
	Name string
	// Help is one line for `warden help`.
	Help string
	// Run returns the text shown to the user.
	Run func(ctx context.Context, env *Env, args []string) (string, error)
}

// commands is every command, wired here in one list (no init()
// registry), in the order `warden help` shows them.
func commands() []Command {
	return []Command{
		{Name: "help", Help: "list the commands you can type here", Run: runHelp},
		{Name: "status", Help: "show whether warden is on, the store, this session and config health", Run: runStatus},
		{Name: "on", Help: "turn every warden handler on again", Run: setEnabled(true)},
		{Name: "off", Help: "turn every warden handler off (events are still recorded)", Run: setEnabled(false)},
		{Name: "pace", Help: "show the pacing decision now and why (figures, allowance, delay)", Run: runPace},
		{Name: "safemode", Help: "on|off|status — deny every change until turned off (s+ s- s?)", Run: runSafemode},
		{Name: "breaker", Help: "status|reset — the circuit breaker for repeated failures (rb? rb-)", Run: runBreaker},
		{Name: "research", Help: "show the research gate's progress for this task", Run: runResearch},
		{Name: "tempo", Help: "on|off|status, session on|off|status — the completion judge at Stop", Run: runTempo},
	}
}

// Lookup finds a command by name.
func Lookup(name string) (Command, bool) {
	for _, c := range commands() {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// prefixes that introduce a typed command; pace-maker is accepted for users
// migrating from claude-pace-maker.
var prefixes = []string{"warden", "pace-maker"}

// aliases are short prompts users type often (kept from the tools warden
// replaces): s+ s- s? for safemode, rb- rb? for the breaker.
var aliases = map[string][]string{
	"s+": {"safemode", "on"}, "s-": {"safemode", "off"}, "s?": {"safemode", "status"},
	"rb-": {"breaker", "reset"}, "rb?": {"breaker", "status"}, "reset breaker": {"breaker", "reset"},
}

// Parse recognises a typed command: the whole prompt is a prefix followed by
// a known command name and at most a few arguments, or one of the short
// aliases. Anything else ("warden should refactor X") is an ordinary prompt
// and goes to the model.
func Parse(prompt string) (Command, []string, bool) {
	if a, ok := aliases[strings.ToLower(strings.Join(strings.Fields(prompt), " "))]; ok {
		c, ok := Lookup(a[0])
		return c, a[1:], ok
	}
	fields := strings.Fields(strings.TrimSpace(prompt))
	if len(fields) == 0 || len(fields) > 4 {
		return Command{}, nil, false
	}
	first := strings.ToLower(strings.TrimPrefix(fields[0], "/"))
	known := false
	for _, p := range prefixes {
		if first == p {
			known = true
		}
	}
	if !known {
		return Command{}, nil, false
	}
	if len(fields) == 1 {
		c, ok := Lookup("help")
		return c, nil, ok
	}
	c, ok := Lookup(strings.ToLower(fields[1]))
	if !ok {
		return Command{}, nil, false
	}
	return c, fields[2:], true
}

// Run executes a parsed command and returns the text for the user; an error
// becomes a readable line rather than a failure.
func Run(ctx context.Context, c Command, env *Env, args []string) string {
	out, err := c.Run(ctx, env, args)
	if err != nil {
		return fmt.Sprintf("warden %s: %v", c.Name, err)
	}
	return out
}

func runHelp(_ context.Context, _ *Env, _ []string) (string, error) {
	var b strings.Builder
	b.WriteString("warden commands (type them as the whole prompt; they never reach the model):\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "  warden %-8s %s\n", c.Name, c.Help)
	}
	b.WriteString("Short forms: s+ s- s? (safemode on, off, status), rb- rb? (breaker reset, status).\n")
	b.WriteString("`pace-maker <command>` works too. Every command is also a CLI subcommand: warden <command>.")
	return b.String(), nil
}
