package install

import (
	"context"
	"fmt"
)

// RemoveForeign removes another tool's hook handlers — those match selects
// by event and command — from every settings scope, with install's care
// (removeInScopes). Used by `warden import pace-maker --remove-hooks`.
func RemoveForeign(_ context.Context, o Options, tool string, match func(event, command string) bool) (removed []BadCommand, err error) {
	removed, _, err = removeInScopes(o, tool+" hook command(s)", func(s *Settings) ([]BadCommand, bool, error) {
		var here []BadCommand
		changed, err := removeHandlers(s, func(loc Location, h *Object) bool {
			cmd := handlerLine(h) // either form: the program and its arguments
			if cmd == "" || !match(loc.Event, cmd) {
				return false
			}
			here = append(here, BadCommand{File: s.Path, Where: loc.String(), Command: cmd, Reason: tool + "'s hook"})
			return true
		})
		return here, changed, err
	})
	return removed, err
}

// removeInScopes runs remove on the settings file of every scope (each
// file once) and, for each file it changes, prints what goes and the diff,
// asks (unless o.Yes or not interactive), backs up and writes atomically;
// groups, event keys and a "hooks" object left empty go too (removeHandlers).
// A dry run only prints. It returns everything remove selected and how
// many of those were actually removed.
func removeInScopes(o Options, what string, remove func(*Settings) ([]BadCommand, bool, error)) (found []BadCommand, applied int, err error) {
	o, err = o.withDefaults()
	if err != nil {
		return nil, 0, err
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
			return found, applied, err
		}
		if !s.Exists {
			continue
		}
		here, changed, err := remove(s)
		if err != nil {
			return found, applied, err
		}
		if !changed {
			continue
		}
		found = append(found, here...)
		w := o.Stdout
		fmt.Fprintf(w, "%s: %d %s:\n", path, len(here), what)
		for _, b := range here {
			fmt.Fprintf(w, "  %s: %q: %s\n", b.Where, b.Command, b.Reason)
		}
		data := s.Encode()
		fmt.Fprint(w, Diff(s.Path, s.Exists, s.Raw, data))
		if o.DryRun {
			fmt.Fprintln(w, "dry run: nothing was changed")
			continue
		}
		if err := o.confirm(); err != nil {
			return found, applied, err
		}
		if err := checkWritable(s); err != nil {
			return found, applied, fmt.Errorf("%w; nothing was changed", err)
		}
		backupPath, err := apply(s, data, o)
		if err != nil {
			return found, applied, err
		}
		fmt.Fprintf(w, "✓ removed them (backup: %s)\n", backupPath)
		applied += len(here)
	}
	return found, applied, nil
}
