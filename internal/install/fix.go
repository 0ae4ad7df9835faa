package install

import (
	"context"
	"fmt"
)

// RemoveBroken removes from s every hook handler whose program certainly
// does not exist (not the "unsure" ones that use variables unset here), then
// any matcher group, event key and "hooks" object that leaves empty. Such a
// handler fails on every event and silently disables whatever it guarded;
// removing it makes that visible in the diff instead.
func RemoveBroken(s *Settings, env Env) (removed []BadCommand, changed bool, err error) {
	changed, err = removeHandlers(s, func(loc Location, h *Object) bool {
		cmd, reason, unsure := env.checkHandler(h)
		if reason == "" || unsure {
			return false
		}
		removed = append(removed, BadCommand{File: s.Path, Where: loc.String(), Command: cmd, Reason: reason})
		return true
	})
	if err != nil {
		return nil, false, err
	}
	return removed, changed, nil
}

// FixBroken runs RemoveBroken on every settings scope and, for each file it
// changes, prints the diff, asks (unless o.Yes or not interactive), backs
// up and writes atomically, like install does. A dry run only prints.
func FixBroken(_ context.Context, o Options) (fixed int, err error) {
	o, err = o.withDefaults()
	if err != nil {
		return 0, err
	}
	env := Env{Cwd: o.Cwd}
	seen := map[string]bool{}
	for _, sc := range Scopes {
		path := SettingsPath(sc, o.Cwd)
		if seen[path] {
			continue
		}
		seen[path] = true
		s, err := ReadSettings(path)
		if err != nil {
			return fixed, err
		}
		if !s.Exists {
			continue
		}
		removed, changed, err := RemoveBroken(s, env)
		if err != nil {
			return fixed, err
		}
		if !changed {
			continue
		}
		w := o.Stdout
		fmt.Fprintf(w, "%s: %d hook command(s) whose program does not exist:\n", path, len(removed))
		for _, b := range removed {
			fmt.Fprintf(w, "  %s: %q: %s\n", b.Where, b.Command, b.Reason)
		}
		data := s.Encode()
		fmt.Fprint(w, Diff(s.Path, s.Exists, s.Raw, data))
		if o.DryRun {
			fmt.Fprintln(w, "dry run: nothing was changed")
			continue
		}
		if err := o.confirm(); err != nil {
			return fixed, err
		}
		if err := checkWritable(s); err != nil {
			return fixed, fmt.Errorf("%w; nothing was changed", err)
		}
		backupPath, err := apply(s, data, o)
		if err != nil {
			return fixed, err
		}
		fmt.Fprintf(w, "✓ removed them (backup: %s)\n", backupPath)
		fixed += len(removed)
	}
	return fixed, nil
}
