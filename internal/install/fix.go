package install

import (
	"context"
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

// brokenWhat heads the list FixBroken prints for each file.
const brokenWhat = "hook command(s) whose program does not exist"

// FixBroken runs RemoveBroken on every settings scope and, for each file it
// changes, prints the diff, asks (unless o.Yes or not interactive), backs
// up and writes atomically, like install does. A dry run only prints.
func FixBroken(_ context.Context, o Options) (fixed int, err error) {
	env := Env{Cwd: o.Cwd}
	if env.Cwd == "" {
		if o, err = o.withDefaults(); err != nil {
			return 0, err
		}
		env.Cwd = o.Cwd
	}
	_, fixed, err = removeInScopes(o, brokenWhat, func(s *Settings) ([]BadCommand, bool, error) {
		return RemoveBroken(s, env)
	})
	return fixed, err
}
