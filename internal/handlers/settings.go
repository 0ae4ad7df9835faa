package handlers

import (
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/store"
)

// SettingsRead lists the settings the handlers of ev read on every call,
// for the hook runtime to load in one query (store.WithSettings): the
// on/off switch always, safemode and the project's breaker around tool
// calls. A handler reading a key not listed still works (one more read).
func SettingsRead(ev event.Name, projectDir string) []string {
	switch ev {
	case event.PreToolUse, event.PostToolUse, event.PostToolUseFailure:
		return []string{store.SettingEnabled, gates.SettingSafemode, gates.BreakerKey(projectDir)}
	}
	return []string{store.SettingEnabled}
}
