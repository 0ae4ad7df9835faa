package install

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/hookio"
)

// WardenHook is one warden handler found in a settings file.
type WardenHook struct {
	Loc Location
	// Command is the handler's "command": the whole line in shell form,
	// the program in exec form.
	Command string
	// Args are the arguments in exec form; nil in shell form.
	Args []string
	// Timeout is the registered timeout in seconds; 0 when absent or not a
	// number (Claude Code then applies its 600 s default).
	Timeout float64
}

// Registered returns warden's hook handlers by event name.
func Registered(s *Settings) map[string][]WardenHook {
	out := map[string][]WardenHook{}
	_ = s.Visit(func(loc Location, h *Object) {
		if !IsWardenHook(h) {
			return
		}
		wh := WardenHook{Loc: loc}
		if raw, ok := h.Get("command"); ok {
			wh.Command, _ = stringValue(raw)
		}
		wh.Args, _ = handlerArgs(h)
		if raw, ok := h.Get("timeout"); ok {
			_ = json.Unmarshal(raw, &wh.Timeout)
		}
		out[loc.Event] = append(out[loc.Event], wh)
	}, nil)
	return out
}

// Exec reports whether the handler is in exec form.
func (h WardenHook) Exec() bool { return h.Args != nil }

// Line is the handler as one shell line (see handlerLine).
func (h WardenHook) Line() string {
	if !h.Exec() {
		return h.Command
	}
	words := []string{ShellQuote(h.Command)}
	for _, a := range h.Args {
		words = append(words, ShellQuote(a))
	}
	return strings.Join(words, " ")
}

// key tells handlers apart as Claude Code does: the same line in the two
// forms is two handlers.
func (h WardenHook) Key() string {
	if !h.Exec() {
		return "shell\x00" + h.Command
	}
	return "exec\x00" + h.Command + "\x00" + strings.Join(h.Args, "\x00")
}

// Missing lists the events install registers that s does not.
func Missing(reg map[string][]WardenHook) []event.Name {
	var out []event.Name
	for _, ev := range hookio.Installed() {
		if len(reg[string(ev)]) == 0 {
			out = append(out, ev)
		}
	}
	return out
}

// TimeoutProblem says what is wrong with a registered timeout, or "".
// warden sizes its own deadline from hookio's timeout, so a shorter one
// lets Claude Code kill it mid-decision (which fails open silently); a
// value in milliseconds leaves the hook effectively uncapped.
func TimeoutProblem(ev string, t float64) string {
	want := hookio.SpecFor(event.Name(ev)).Timeout
	switch {
	case t == 0:
		return fmt.Sprintf("%s has no timeout (Claude Code would wait up to 600 s; warden expects %d)", ev, want)
	case t < 0:
		return fmt.Sprintf("%s has a negative timeout %g", ev, t)
	case t >= 1000:
		return fmt.Sprintf("%s timeout %g looks like milliseconds (Claude Code reads seconds; warden expects %d)", ev, t, want)
	case t < float64(want):
		return fmt.Sprintf("%s timeout %g s is shorter than warden's budget of %d s (Claude Code would cut decisions off)", ev, t, want)
	}
	return ""
}
