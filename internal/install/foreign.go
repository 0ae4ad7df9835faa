package install

import (
	"context"
	"fmt"
)

// RemoveForeign removes another tool's hook handlers — those match selects
// by event and command — from every settings scope, with install's care:
// for each file it changes it prints the diff, asks (unless o.Yes or not
// interactive), backs up and writes atomically; groups, event keys and a
// "hooks" object left empty go too, everything else stays byte for byte
// in meaning. A dry run only prints. Used by `warden import pace-maker
// --remove-hooks`.
func RemoveForeign(_ context.Context, o Options, tool string, match func(event, command string) bool) (removed []BadCommand, err error) {
	o, err = o.withDefaults()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, sc := range Scopes {
		path := SettingsPath(sc, o.Cwd)
		if seen[path] {
			continue
		}
		seen[path] = true
		s, err := ReadSettings(path)
		if err != nil {
			return removed, err
		}
		if !s.Exists {
			continue
		}
		var here []BadCommand
		changed, err := removeHandlers(s, func(loc Location, h *Object) bool {
			raw, _ := h.Get("command")
			cmd, _ := stringValue(raw)
			if cmd == "" || !match(loc.Event, cmd) {
				return false
			}
			here = append(here, BadCommand{File: s.Path, Where: loc.String(), Command: cmd, Reason: tool + "'s hook"})
			return true
		})
		if err != nil {
			return removed, err
		}
		if !changed {
			continue
		}
		w := o.Stdout
		fmt.Fprintf(w, "%s: %d %s hook command(s):\n", path, len(here), tool)
		for _, b := range here {
			fmt.Fprintf(w, "  %s: %s\n", b.Where, b.Command)
		}
		data := s.Encode()
		fmt.Fprint(w, Diff(s.Path, s.Exists, s.Raw, data))
		if o.DryRun {
			fmt.Fprintln(w, "dry run: nothing was changed")
			removed = append(removed, here...)
			continue
		}
		if err := o.confirm(); err != nil {
			return removed, err
		}
		if err := checkWritable(s); err != nil {
			return removed, fmt.Errorf("%w; nothing was changed", err)
		}
		backupPath, err := apply(s, data, o)
		if err != nil {
			return removed, err
		}
		fmt.Fprintf(w, "✓ removed them (backup: %s)\n", backupPath)
		removed = append(removed, here...)
	}
	return removed, nil
}
