package install

import (
	"encoding/json"
	"strings"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/hookio"
)

// Registration is what install puts into a settings file.
type Registration struct {
	// Bin is the absolute path of the installed binary.
	Bin string
	// Events are registered with their hookio timeouts.
	Events []event.Name
	// StatusLine: set (or wrap) the status line too.
	StatusLine bool
	// Form is how the hook handlers are written (hookform.go); the zero
	// value is shell form, which every Claude Code release runs.
	Form HookForm
	// Line, when set, is the exact shell-form command of the handler (the
	// other CLIs' hooks: `warden hook --harness codex`); Form is ignored.
	Line string
}

// shellLine is the handler's command line in shell form.
func (r Registration) shellLine() string {
	if r.Line != "" {
		return r.Line
	}
	return HookCommand(r.Bin)
}

// Merge adds the registration to s.Root and reports whether anything
// changed. Other tools' hooks and every other key stay as they were; a
// warden handler already present for an event is updated in place (and a
// second one dropped) rather than added again, so running it twice is a
// no-op.
func Merge(s *Settings, r Registration) (changed bool, err error) {
	hooks, err := s.hooksObject()
	if err != nil {
		return false, err
	}
	// Check every event's shape first so a refusal leaves Root untouched.
	for _, ev := range r.Events {
		if _, _, err := s.eventGroups(hooks, string(ev)); err != nil {
			return false, err
		}
	}
	if r.StatusLine {
		if raw, ok := s.Root.Get("statusLine"); ok && kindOf(raw) != "an object" && kindOf(raw) != "null" {
			return false, s.shapeError("statusLine", "an object", raw)
		}
	}

	for _, ev := range r.Events {
		ch, err := mergeEvent(s, hooks, ev, r, hookio.SpecFor(ev).Timeout)
		if err != nil {
			return false, err
		}
		changed = changed || ch
	}
	if changed {
		s.Root.Set("hooks", hooks)
	}
	if r.StatusLine {
		ch, err := wrapStatusLine(s, r.Bin)
		if err != nil {
			return false, err
		}
		changed = changed || ch
	}
	return changed, nil
}

// mergeEvent makes hooks.<ev> hold exactly one warden handler.
func mergeEvent(s *Settings, hooks *Object, ev event.Name, r Registration, timeout int) (bool, error) {
	raw, ok, err := s.eventGroups(hooks, string(ev))
	if err != nil {
		return false, err
	}
	if !ok {
		hooks.Set(string(ev), array{newGroup(r, timeout)})
		return true, nil
	}
	found := false
	out, changed, err := editGroups(string(ev), raw, func(_ Location, h *Object) (bool, bool) {
		if !IsWardenHook(h) {
			return true, false
		}
		if found { // a duplicate would run warden twice per event
			return false, true
		}
		found = true
		return true, updateHandler(h, r, timeout)
	}, nil)
	if err != nil {
		return false, err
	}
	if !found {
		if out == nil { // unchanged so far: start from the groups as read
			groups, err := parseArray(raw)
			if err != nil {
				return false, err
			}
			for _, g := range groups {
				out = append(out, g)
			}
		}
		out, changed = append(out, newGroup(r, timeout)), true
	}
	if changed {
		hooks.Set(string(ev), out)
	}
	return changed, nil
}

// newGroup is a matcher group without a matcher (all values) holding one
// warden handler.
func newGroup(r Registration, timeout int) *Object {
	h := &Object{}
	h.Set("type", rawJSON("command"))
	if r.Form == ExecForm && r.Line == "" {
		h.Set("command", rawJSON(r.Bin))
		h.Set("args", rawJSON(hookArgs))
	} else {
		h.Set("command", rawJSON(r.shellLine()))
	}
	h.Set("timeout", rawJSON(timeout))
	g := &Object{}
	g.Set("hooks", array{h})
	return g
}

// updateHandler brings an existing warden handler up to date in r's form,
// keeping any extra fields (statusMessage, …) the user added. A shell-form
// handler whose line sets variables of the user's own (NAME=value before
// the program) stays in shell form with them: exec form has no place for
// them.
func updateHandler(h *Object, r Registration, timeout int) (changed bool) {
	set := func(key string, val json.RawMessage) {
		if old, ok := h.Get(key); !ok || !sameJSON(old, val) {
			h.Set(key, val)
			changed = true
		}
	}
	set("type", rawJSON("command"))
	prefix := ""
	if _, exec := handlerArgs(h); !exec {
		oldCmd, _ := h.Get("command")
		line, _ := stringValue(oldCmd)
		if inv, ok := parseWarden(line); ok {
			prefix = withoutHomeAssignment(line[:inv.progStart])
		}
	}
	if r.Form == ExecForm && r.Line == "" && strings.TrimSpace(prefix) == "" {
		changed = setExecForm(h, r.Bin) || changed
	} else {
		if h.Delete("args") {
			changed = true
		}
		set("command", rawJSON(prefix+r.shellLine()))
	}
	set("timeout", rawJSON(timeout))
	return changed
}

// sameJSON compares two values by meaning (1 == 1.0, key order aside).
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// Unmerge removes what Merge added: every warden hook handler (then any
// matcher group, event key and "hooks" object left empty by that) and
// warden's status line (restoring a wrapped command).
func Unmerge(s *Settings) (changed bool, err error) {
	changed, err = removeHandlers(s, func(_ Location, h *Object) bool { return IsWardenHook(h) })
	if err != nil {
		return false, err
	}
	if unwrapStatusLine(s) {
		changed = true
	}
	return changed, nil
}

// removeHandlers removes every hook handler drop selects, then any matcher
// group, event key and "hooks" object left empty by that. Events whose
// entries are malformed are left exactly as they are.
func removeHandlers(s *Settings, drop func(Location, *Object) bool) (changed bool, err error) {
	hooks, err := s.hooksObject()
	if err != nil {
		return false, err
	}
	for _, ev := range hooks.Keys() {
		raw, _, err := s.eventGroups(hooks, ev)
		if err != nil {
			continue // not ours to fix
		}
		out, ch, err := editGroups(ev, raw, func(loc Location, h *Object) (bool, bool) {
			return !drop(loc, h), false
		}, nil)
		if err != nil {
			return false, err
		}
		if !ch {
			continue
		}
		changed = true
		if len(out) == 0 {
			hooks.Delete(ev)
		} else {
			hooks.Set(ev, out)
		}
	}
	if changed {
		if hooks.Len() == 0 {
			s.Root.Delete("hooks")
		} else {
			s.Root.Set("hooks", hooks)
		}
	}
	return changed, nil
}
