package install

import (
	"encoding/json"
	"fmt"
)

// Location names one hook handler in a settings file.
type Location struct {
	Event   string
	Group   int // index in hooks.<Event>
	Handler int // index in that group's "hooks"; -1 for the group itself
}

func (l Location) String() string {
	if l.Group < 0 {
		return "hooks." + l.Event
	}
	if l.Handler < 0 {
		return fmt.Sprintf("hooks.%s[%d]", l.Event, l.Group)
	}
	return fmt.Sprintf("hooks.%s[%d].hooks[%d]", l.Event, l.Group, l.Handler)
}

// handlerFunc sees one handler and says whether to keep it and whether it
// edited it.
type handlerFunc func(loc Location, h *Object) (keep, changed bool)

// badFunc hears about an entry that is not a {matcher?, hooks: [...]} group
// or a handler object. Such entries are kept exactly as they are.
type badFunc func(loc Location, msg string)

// editGroups runs fn over every handler in one event's matcher groups and
// returns the groups with the edits applied (nil when nothing changed). A
// group emptied by fn is removed (one that was already empty is left
// alone). groupsRaw must be an array.
func editGroups(ev string, groupsRaw json.RawMessage, fn handlerFunc, bad badFunc) (out array, changed bool, err error) {
	groups, err := parseArray(groupsRaw)
	if err != nil {
		return nil, false, err
	}
	kept := array{}
	for gi, graw := range groups {
		loc := Location{Event: ev, Group: gi, Handler: -1}
		g, handlers, ok := parseGroup(graw)
		if !ok {
			if bad != nil {
				bad(loc, "is not a matcher group {\"matcher\"?: string, \"hooks\": [...]}")
			}
			kept = append(kept, graw)
			continue
		}
		keepH := array{}
		groupChanged := false
		for hi, hraw := range handlers {
			loc.Handler = hi
			if kindOf(hraw) != "an object" {
				if bad != nil {
					bad(loc, "is "+kindOf(hraw)+", not a hook handler object")
				}
				keepH = append(keepH, hraw)
				continue
			}
			h, err := parseObject(hraw)
			if err != nil {
				return nil, false, err
			}
			keep, ch := fn(loc, h)
			switch {
			case !keep:
				groupChanged = true
			case ch:
				groupChanged = true
				keepH = append(keepH, h)
			default:
				keepH = append(keepH, hraw)
			}
		}
		if !groupChanged {
			kept = append(kept, graw)
			continue
		}
		changed = true
		if len(keepH) == 0 {
			continue // emptied by fn: the group was only there for what fn removed
		}
		g.Set("hooks", keepH)
		kept = append(kept, g)
	}
	if !changed {
		return nil, false, nil
	}
	return kept, true, nil
}

// parseGroup splits a matcher group into its object and its handlers.
func parseGroup(raw json.RawMessage) (*Object, []json.RawMessage, bool) {
	if kindOf(raw) != "an object" {
		return nil, nil, false
	}
	g, err := parseObject(raw)
	if err != nil {
		return nil, nil, false
	}
	hraw, ok := g.Get("hooks")
	if !ok {
		return nil, nil, false
	}
	handlers, err := parseArray(hraw)
	if err != nil {
		return nil, nil, false
	}
	return g, handlers, true
}

// hooksObject returns the settings' "hooks" object (empty when absent) or
// refuses a file where it is something else.
func (s *Settings) hooksObject() (*Object, error) {
	return s.ObjectAt(s.Root, "hooks", "hooks")
}

// eventGroups returns hooks.<ev>, refusing anything but an array.
func (s *Settings) eventGroups(hooks *Object, ev string) (json.RawMessage, bool, error) {
	raw, ok := hooks.Get(ev)
	if !ok {
		return nil, false, nil
	}
	if kindOf(raw) != "an array" {
		return nil, false, s.shapeError("hooks."+ev, "an array of matcher groups", raw)
	}
	return raw, true, nil
}

// Visit calls fn for every hook handler in the file, in file order, and bad
// for every entry that is not shaped like one. It changes nothing.
func (s *Settings) Visit(fn func(loc Location, h *Object), bad badFunc) error {
	hooks, err := s.hooksObject()
	if err != nil {
		return err
	}
	for _, ev := range hooks.Keys() {
		raw, _ := hooks.Get(ev)
		if kindOf(raw) != "an array" {
			if bad != nil {
				bad(Location{Event: ev, Group: -1, Handler: -1}, "is "+kindOf(raw)+", not an array of matcher groups")
			}
			continue
		}
		_, _, err := editGroups(ev, raw, func(loc Location, h *Object) (bool, bool) {
			fn(loc, h)
			return true, false
		}, bad)
		if err != nil {
			return err
		}
	}
	return nil
}
