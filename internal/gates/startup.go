package gates

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/warden-dev/warden/internal/event"
)

// Step is one startup-gate step: read a file, or run a command.
type Step struct {
	Raw  string // as configured: "read:PATH" or "run:REGEX"
	Read string // absolute path, for read steps
	Run  *regexp.Regexp
}

// ParseSteps reads gates.startup_steps; a step it cannot understand is an
// error naming it (config check reports it; the hook skips it).
func ParseSteps(raw []string, projectDir string) ([]Step, error) {
	var out []Step
	for _, r := range raw {
		kind, arg, ok := strings.Cut(r, ":")
		arg = strings.TrimSpace(arg)
		switch {
		case ok && kind == "read" && arg != "":
			p := arg
			if !filepath.IsAbs(p) {
				p = filepath.Join(projectDir, p)
			}
			out = append(out, Step{Raw: r, Read: filepath.Clean(p)})
		case ok && kind == "run" && arg != "":
			re, err := regexp.Compile(arg)
			if err != nil {
				return out, fmt.Errorf("gates.startup_steps %q: %v", r, err)
			}
			out = append(out, Step{Raw: r, Run: re})
		default:
			return out, fmt.Errorf(`gates.startup_steps %q: write "read:PATH" or "run:REGEX"`, r)
		}
	}
	return out, nil
}

// Done reports whether a successful tool call completes step s.
func (s Step) Done(in *event.Input) bool {
	switch {
	case s.Read != "" && in.ToolName == "Read":
		return filepath.Clean(in.ToolString("file_path")) == s.Read
	case s.Run != nil && (in.ToolName == "Bash" || in.ToolName == "PowerShell"):
		return s.Run.MatchString(in.ToolString("command"))
	}
	return false
}

// Describe says what the step asks, for Claude.
func (s Step) Describe() string {
	if s.Read != "" {
		return "read " + s.Read
	}
	return "run a command matching /" + s.Run.String() + "/ (successfully)"
}

// MissingSteps lists the steps not done yet.
func MissingSteps(steps []Step, done map[string]bool) []Step {
	var out []Step
	for _, s := range steps {
		if !done[s.Raw] {
			out = append(out, s)
		}
	}
	return out
}

// StepsText lists steps as lines for a briefing or a denial.
func StepsText(steps []Step) string {
	var b strings.Builder
	for i, s := range steps {
		fmt.Fprintf(&b, "\n  %d. %s", i+1, s.Describe())
	}
	return b.String()
}
