package harness

import (
	"fmt"
	"strings"
)

// Name is a governed CLI, as `--harness` spells it and the store records it.
type Name string

const (
	Claude  Name = "claude"
	Codex   Name = "codex"
	Gemini  Name = "gemini"
	Copilot Name = "copilot"
)

// All lists the harnesses in the order docs and doctor show them.
var All = []Name{Claude, Codex, Gemini, Copilot}

// Parse accepts a harness name (any case).
func Parse(s string) (Name, error) {
	n := Name(strings.ToLower(strings.TrimSpace(s)))
	for _, h := range All {
		if n == h {
			return h, nil
		}
	}
	return "", fmt.Errorf("unknown harness %q (known: claude, codex, gemini, copilot)", s)
}

// Title is the CLI's name for messages.
func (h Name) Title() string {
	switch h {
	case Codex:
		return "Codex CLI"
	case Gemini:
		return "Gemini CLI"
	case Copilot:
		return "Copilot CLI"
	}
	return "Claude Code"
}
