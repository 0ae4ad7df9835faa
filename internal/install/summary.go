package install

import (
	"fmt"
	"strings"

	"github.com/warden-dev/warden/internal/hookio"
)

// registrationSnapshot is what a settings file registered for warden before
// an edit, so the edit can be told in a few lines instead of its diff.
type registrationSnapshot struct {
	hooks      map[string][]WardenHook
	statusLine string // the status line command ("" when none)
	hadStatus  bool
}

func snapshotRegistration(s *Settings) registrationSnapshot {
	cmd, ok := statusLineCommand(s)
	return registrationSnapshot{hooks: Registered(s), statusLine: cmd, hadStatus: ok}
}

// statusLineCommand is the status line's command, if it has one.
func statusLineCommand(s *Settings) (string, bool) {
	raw, ok := s.Root.Get("statusLine")
	if !ok || kindOf(raw) != "an object" {
		return "", false
	}
	sl, err := parseObject(raw)
	if err != nil {
		return "", false
	}
	c, _ := sl.Get("command")
	cmd, _ := stringValue(c)
	return cmd, true
}

// summary describes the change from b to s (after Merge or Unmerge) in
// lines: hook events added, updated or removed, and what happened to the
// status line.
func (b registrationSnapshot) summary(s *Settings) []string {
	after := Registered(s)
	var added, updated, removed int
	for _, ev := range hookio.Installed() {
		was, now := b.hooks[string(ev)], after[string(ev)]
		switch {
		case len(was) == 0 && len(now) > 0:
			added++
		case len(was) > 0 && len(now) == 0:
			removed++
		case len(now) > 0 && !sameHooks(was, now):
			updated++
		}
	}
	var out []string
	var parts []string
	if added > 0 {
		parts = append(parts, fmt.Sprintf("add warden's hook for %d events", added))
	}
	if updated > 0 {
		parts = append(parts, fmt.Sprintf("update it for %d", updated))
	}
	if removed > 0 {
		parts = append(parts, fmt.Sprintf("remove warden's hook from %d events", removed))
	}
	if len(parts) > 0 {
		line := strings.Join(parts, ", ")
		if added+updated > 0 && s.Exists {
			line += " (each with its own timeout); other tools' hooks and every other key are kept"
		}
		out = append(out, line)
	}
	cmd, has := statusLineCommand(s)
	switch {
	case cmd == b.statusLine && has == b.hadStatus:
	case !has && b.hadStatus:
		out = append(out, "remove warden's status line")
	case !b.hadStatus || b.statusLine == "":
		out = append(out, "set the status line to warden's")
	default:
		if inv, ok := parseWarden(b.statusLine); ok && inv.sub() == "statusline" {
			if old, ok := parseWarden(cmd); !ok || old.sub() != "statusline" {
				out = append(out, fmt.Sprintf("restore the status line it wrapped: %q", cmd))
			} else {
				out = append(out, "point the status line at the installed binary")
			}
		} else {
			out = append(out, fmt.Sprintf("wrap the existing status line %q (it still runs first; uninstall restores it)", b.statusLine))
		}
	}
	return out
}

func sameHooks(a, b []WardenHook) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key() != b[i].Key() || a[i].Timeout != b[i].Timeout {
			return false
		}
	}
	return true
}
