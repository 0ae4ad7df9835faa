package install

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// Options control install and uninstall. The zero value edits the user
// scope, asks nothing and writes to nowhere (set Stdout).
type Options struct {
	// Harness is the CLI to install into ("" or claude: Claude Code, by
	// Scope; codex, gemini, copilot: that CLI's user configuration).
	Harness harness.Name
	Scope   Scope
	// Cwd is the project directory for the project and local scopes;
	// empty means the current directory.
	Cwd string
	// DryRun prints the diff and changes nothing at all.
	DryRun bool
	// ShowDiff prints the settings file's full diff; otherwise install
	// prints a summary of it (a fresh file's diff runs to hundreds of
	// lines).
	ShowDiff bool
	// NoStatusLine leaves statusLine alone.
	NoStatusLine bool
	// Yes skips the question. Without it, Interactive sessions are asked
	// "Apply? [y/N]" on Stdout and answer on Stdin; others proceed (Claude
	// Code or CI runs warden without a terminal).
	Yes         bool
	Interactive bool
	Stdin       io.Reader
	Stdout      io.Writer
	// Source is the binary to install; empty means the running executable.
	Source string
	// Now names backups; nil means time.Now.
	Now func() time.Time
	// OpenStore creates or migrates the event store; nil opens SQLite.
	OpenStore func(ctx context.Context, path string) error
	// ClaudeVersion returns `claude --version` (or ErrClaudeNotFound),
	// which decides the hooks' form (hookform.go); nil runs the real one.
	ClaudeVersion func(ctx context.Context) (string, error)
	// StartKeeper starts the installed core's store keeper when none runs
	// (the CLI sets it; tests that do not want a resident process don't).
	StartKeeper bool
}

// ErrAborted is returned when the user answers no.
var ErrAborted = errors.New("aborted, nothing was changed")

func (o Options) withDefaults() (Options, error) {
	if o.Scope == "" {
		o.Scope = User
	}
	if o.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return o, err
		}
		o.Cwd = wd
	}
	if o.Stdout == nil {
		o.Stdout = io.Discard
	}
	if o.Stdin == nil {
		o.Stdin = strings.NewReader("")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.OpenStore == nil {
		o.OpenStore = openSQLite
	}
	return o, nil
}

// openSQLite runs the migrations and switches the file to WAL, so the
// first hook does not pay for it (or race another hook doing it).
func openSQLite(ctx context.Context, path string) error {
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	return st.Close()
}

// confirm asks before applying, when there is someone to ask.
func (o Options) confirm() error {
	if o.Yes || !o.Interactive {
		return nil
	}
	fmt.Fprint(o.Stdout, "Apply? [y/N] ")
	line, _ := bufio.NewReader(o.Stdin).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	return ErrAborted
}
