// Package doctor is `warden doctor`: every check of an installation —
// the three binaries, PATH, warden's registration in each settings scope
// and harness, the hook form against the Claude Code version, the store,
// the keeper, file modes, the shared store and its spool, config, the
// judges, the MCP registration — one line each, with one fix per problem.
// It changes nothing (opening an existing store applies pending
// migrations, as the next hook would); `doctor --fix` goes through
// install.FixBroken. It reads settings through internal/install, which
// only installs.
package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/warden-dev/warden/internal/install"
)

// Check is one line of `warden doctor`: a problem carries one fix; a
// passing check may still carry a note in Detail. Level tells a clean
// pass from one worth a look: a warning (something a feature needs is
// missing) or information (a feature is off), neither of which fails
// doctor.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Level  Level  `json:"level"`
	Detail string `json:"detail"`
	Fix    string `json:"fix"`
}

// Level grades a check.
type Level string

// The levels, most severe first; only LevelError makes OK false.
const (
	LevelError Level = "error"
	LevelWarn  Level = "warn"
	LevelInfo  Level = "info"
	LevelOK    Level = "ok"
)

// marks are the text report's first column, one width.
var marks = map[Level]string{LevelError: "ERR ", LevelWarn: "WARN", LevelInfo: "info", LevelOK: "ok  "}

// Report is the whole doctor run.
type Report struct {
	OK     bool    `json:"ok"`
	Checks []Check `json:"checks"`
}

// Options make doctor's environment explicit for tests.
type Options struct {
	// Cwd is the project directory (project and local scopes, project
	// config, CLAUDE_PROJECT_DIR); empty means the current directory.
	Cwd string
	// Getenv resolves variables in hook commands; nil means os.LookupEnv.
	Getenv func(string) (string, bool)
	// ClaudeVersion returns `claude --version`, or install.ErrClaudeNotFound; nil
	// runs the real command.
	ClaudeVersion func(ctx context.Context) (string, error)
}

// Run runs every check. It changes nothing (except that opening an
// existing store applies pending migrations, as the next hook would).
func Run(ctx context.Context, o Options) Report {
	if o.Cwd == "" {
		o.Cwd, _ = os.Getwd()
	}
	if o.ClaudeVersion == nil {
		o.ClaudeVersion = install.ClaudeVersion
	}
	d := &doctor{opts: o, env: install.Env{Cwd: o.Cwd, Getenv: o.Getenv}}
	d.binary()
	d.onPath()
	d.settings()
	d.claude(ctx)
	d.harnesses()
	d.store(ctx)
	d.storeFaults(ctx)
	d.modes()
	d.sharedStore(ctx)
	d.stateKey()
	d.config()
	d.llmJudges(ctx)
	d.mcpServer()
	d.tools()
	d.agentMemory()
	r := Report{OK: true, Checks: d.checks}
	for _, c := range d.checks {
		r.OK = r.OK && c.OK
	}
	return r
}

type doctor struct {
	opts   Options
	env    install.Env
	checks []Check
	// forms are the forms warden's hook handlers are registered in.
	forms map[install.HookForm]bool
}

func (d *doctor) ok(name, detail string) {
	d.checks = append(d.checks, Check{Name: name, OK: true, Level: LevelOK, Detail: detail})
}

// info: a feature is off or not set up yet; nothing to fix.
func (d *doctor) info(name, detail string) {
	d.checks = append(d.checks, Check{Name: name, OK: true, Level: LevelInfo, Detail: detail})
}

// warn: something a feature needs is missing, warden still works.
func (d *doctor) warn(name, detail, fix string) {
	d.checks = append(d.checks, Check{Name: name, OK: true, Level: LevelWarn, Detail: detail, Fix: fix})
}

func (d *doctor) problem(name, detail, fix string) {
	d.checks = append(d.checks, Check{Name: name, Level: LevelError, Detail: detail, Fix: fix})
}

// WriteText prints one line per check and the fix under each problem.
func (r Report) WriteText(w io.Writer) {
	problems, warnings := 0, 0
	for _, c := range r.Checks {
		level := c.Level
		if level == "" { // a Check built without one
			level = LevelOK
			if !c.OK {
				level = LevelError
			}
		}
		switch level {
		case LevelError:
			problems++
		case LevelWarn:
			warnings++
		}
		fmt.Fprintf(w, "%s  %-16s %s\n", marks[level], c.Name, c.Detail)
		if (level == LevelError || level == LevelWarn) && c.Fix != "" {
			fmt.Fprintf(w, "      %-16s fix: %s\n", "", c.Fix)
		}
	}
	var warned string
	switch warnings {
	case 0:
	case 1:
		warned = " 1 warning (WARN: warden works, a feature may not)."
	default:
		warned = fmt.Sprintf(" %d warnings (WARN: warden works, a feature may not).", warnings)
	}
	switch problems {
	case 0:
		fmt.Fprintln(w, "All good."+warned)
	case 1:
		fmt.Fprintln(w, "1 problem found."+warned)
	default:
		fmt.Fprintf(w, "%d problems found.%s\n", problems, warned)
	}
}

// WriteJSON prints the report as one JSON object.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// describe renders an error for a check line, split into detail and fix
// when the error knows its fix.
func describe(err error) (detail, fix string) {
	var pe *install.ParseError
	var fe *install.FSError
	switch {
	case errors.As(err, &pe):
		return pe.Where() + ": " + pe.Msg, pe.Fix()
	case errors.As(err, &fe):
		return fmt.Sprintf("cannot %s %s: %v", fe.Op, fe.Path, fe.Err), fe.Fix()
	}
	return err.Error(), ""
}

// joinLimit joins items with sep, eliding the tail of long lists.
func joinLimit(items []string, max int, sep string) string {
	if len(items) > max {
		items = append(items[:max:max], fmt.Sprintf("… (%d more)", len(items)-max))
	}
	return strings.Join(items, sep)
}
