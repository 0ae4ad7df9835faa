package install

import (
	"fmt"
	"path/filepath"

	"github.com/warden-dev/warden/internal/paths"
)

// Scope is which Claude Code settings file to edit (claude-code-hooks.md §1.1).
type Scope string

const (
	// User is ~/.claude/settings.json (or under CLAUDE_CONFIG_DIR): every project.
	User Scope = "user"
	// Project is <project>/.claude/settings.json, committed with the project.
	Project Scope = "project"
	// Local is <project>/.claude/settings.local.json, this machine only.
	Local Scope = "local"
)

// Scopes lists every scope, broadest first.
var Scopes = []Scope{User, Project, Local}

// ParseScope accepts user, project or local ("" is user).
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case "", User:
		return User, nil
	case Project, Local:
		return Scope(s), nil
	}
	return "", fmt.Errorf("unknown scope %q: use user, project or local", s)
}

// SettingsPath is the settings file of a scope; project and local are
// relative to the project directory cwd.
func SettingsPath(sc Scope, cwd string) string {
	switch sc {
	case Project:
		return filepath.Join(cwd, ".claude", "settings.json")
	case Local:
		return filepath.Join(cwd, ".claude", "settings.local.json")
	}
	return filepath.Join(paths.ClaudeDir(), "settings.json")
}
