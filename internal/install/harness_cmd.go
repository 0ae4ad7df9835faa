package install

import (
	"os"
	"path/filepath"

	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/hookio"
)

// HarnessHookCommand is the command install registers with CLI h for its
// event native. Copilot's camelCase payload does not name its event, so
// the command does.
func HarnessHookCommand(bin string, h harness.Name, native string) string {
	cmd := HomePrefix() + ShellQuote(bin) + " hook --harness " + string(h)
	if h == harness.Copilot {
		cmd += " " + native
	}
	return cmd
}

// timeoutFor is the registered timeout of a hook in seconds: warden's for
// the event (its budget stays inside it).
func timeoutFor(hk harness.Hook) int { return hookio.SpecFor(hk.Event).Timeout }

// CodexHome is Codex's directory: $CODEX_HOME, else ~/.codex.
func CodexHome() string {
	if d := os.Getenv("CODEX_HOME"); d != "" {
		return d
	}
	return filepath.Join(userHome(), ".codex")
}

// GeminiSettings is Gemini CLI's user settings file:
// $GEMINI_CLI_HOME/.gemini/settings.json, else ~/.gemini/settings.json.
func GeminiSettings() string {
	home := os.Getenv("GEMINI_CLI_HOME")
	if home == "" {
		home = userHome()
	}
	return filepath.Join(home, ".gemini", "settings.json")
}

// CopilotHookFile is warden's own hook file in Copilot's hooks directory.
func CopilotHookFile() string { return harness.CopilotHookFile(os.Getenv) }

func userHome() string {
	h, err := os.UserHomeDir()
	if err != nil {
		return "."
	}
	return h
}
