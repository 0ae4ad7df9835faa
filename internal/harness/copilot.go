package harness

import (
	"os"
	"path/filepath"
)

// CopilotHome is Copilot CLI's directory: $COPILOT_HOME, else ~/.copilot.
func CopilotHome(getenv func(string) string) string {
	if d := getenv("COPILOT_HOME"); d != "" {
		return d
	}
	return filepath.Join(getenv("HOME"), ".copilot")
}

// CopilotHookFile is the hook file `warden install --harness copilot`
// writes: Copilot loads every *.json in its hooks directory, and this one
// is warden's alone.
func CopilotHookFile(getenv func(string) string) string {
	return filepath.Join(CopilotHome(getenv), "hooks", "warden.json")
}

// CopilotTwin reports what a `--harness claude` hook should do when
// Copilot CLI runs it: Copilot also loads a trusted repository's
// .claude/settings.json, so warden's Claude Code hooks there run under
// Copilot as well. skip: warden is installed for Copilot itself, whose
// hook answers this call, so this one stays silent (else every call
// would be judged and recorded twice). Otherwise the hook is Copilot's
// only one and answers as harness copilot (Copilot speaks Claude Code's
// protocol to those hooks).
func CopilotTwin(getenv func(string) string) (underCopilot, skip bool) {
	if getenv("COPILOT_CLI") != "1" {
		return false, false
	}
	_, err := os.Stat(CopilotHookFile(getenv))
	return true, err == nil
}
