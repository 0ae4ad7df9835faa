// Package usercmd implements the commands a user can type into the Claude
// Code prompt ("warden status", "warden off", …). The hook runtime answers
// them at UserPromptSubmit and keeps them from the model; the CLI runs the
// same commands, so both always say the same thing.
package usercmd

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/session"
	"github.com/warden-dev/warden/internal/store"
)

// Env is what a command may use. Store may be nil (unusable store); State
// and SessionID are set only when the command was typed in a session.
type Env struct {
	Store          store.Store
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

var commands = map[string]Command{}

// Register adds a command; call it from init.
func Register(c Command) { commands[c.Name] = c }

// Lookup finds a command by name.
func Lookup(name string) (Command, bool) {
	c, ok := commands[name]
	return c, ok
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
		c, ok := commands[a[0]]
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
		c, ok := commands["help"]
		return c, nil, ok
	}
	c, ok := commands[strings.ToLower(fields[1])]
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

func init() {
	Register(Command{Name: "help", Help: "list the commands you can type here", Run: runHelp})
}

func runHelp(_ context.Context, _ *Env, _ []string) (string, error) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("warden commands (type them as the whole prompt; they never reach the model):\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  warden %-8s %s\n", n, commands[n].Help)
	}
	b.WriteString("Short forms: s+ s- s? (safemode on, off, status), rb- rb? (breaker reset, status).\n")
	b.WriteString("`pace-maker <command>` works too. Every command is also a CLI subcommand: warden <command>.")
	return b.String(), nil
}
