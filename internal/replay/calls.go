package replay

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/policy"
	"github.com/warden-dev/warden/internal/store"
)

// omittedKey marks a recorded input that was over record.tool_input_max_kb
// (internal/hook writes it).
const omittedKey = "warden_input_omitted"

// Reasons a recorded call cannot be evaluated again.
const (
	SkipNoInput  = "input not recorded (recorded with record.tool_inputs = false, or before warden kept tool inputs)"
	SkipTooLarge = "input larger than record.tool_input_max_kb when recorded"
	SkipBadInput = "recorded input is not a tool call warden can read"
	SkipFailed   = "the hook failed before deciding (its error is in the record)"
)

// Replayable reports whether a recorded event is a tool call the policy
// judged: PreToolUse and PermissionRequest with a tool.
func Replayable(ev *store.Event) bool {
	return (ev.Event == string(event.PreToolUse) || ev.Event == string(event.PermissionRequest)) && ev.Tool != ""
}

// CallOf rebuilds the call a recorded event was judged on, from its
// recorded input (the whole payload with capture = true, otherwise the
// call record.tool_inputs keeps). skip says why it cannot be ("" when it
// can). project is the session's project directory, home the user's.
func CallOf(ev *store.Event, home, project string) (c policy.Call, skip string) {
	if ev.Error != "" && ev.Decision == string(event.Allow) {
		return c, SkipFailed
	}
	if len(ev.Raw) == 0 {
		return c, SkipNoInput
	}
	var p struct {
		Event   string          `json:"hook_event_name"`
		Tool    string          `json:"tool_name"`
		Input   json.RawMessage `json:"tool_input"`
		Cwd     string          `json:"cwd"`
		Omitted int             `json:"warden_input_omitted"`
	}
	if err := json.Unmarshal(ev.Raw, &p); err != nil {
		return c, SkipBadInput
	}
	if p.Omitted > 0 {
		return c, SkipTooLarge
	}
	if p.Tool == "" || len(p.Input) == 0 {
		return c, SkipBadInput
	}
	cwd := p.Cwd
	if cwd == "" {
		cwd = ev.Cwd
	}
	if project == "" {
		project = cwd
	}
	return policy.Call{Event: ev.Event, Tool: p.Tool, Input: p.Input, Cwd: cwd, Home: home, Project: project}, ""
}

// Summary is a call in one line for examples: the command, the file, or
// the input clipped.
func Summary(c policy.Call) string {
	var m map[string]any
	_ = json.Unmarshal(c.Input, &m)
	for _, k := range []string{"command", "file_path", "notebook_path", "url", "pattern"} {
		if s, ok := m[k].(string); ok && s != "" {
			return clip(c.Tool+": "+s, 200)
		}
	}
	return clip(c.Tool+": "+string(c.Input), 200)
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Outcome is one judgement of a call: a decision and the rule that made it.
type Outcome struct {
	Decision string `json:"decision"` // allow, audit, warn, ask, deny
	Rule     string `json:"rule,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

func (o Outcome) String() string {
	if o.Rule == "" {
		return o.Decision
	}
	return fmt.Sprintf("%s by %s", o.Decision, o.Rule)
}

// Judge evaluates f with eng as the policy handler would decide: at
// PermissionRequest only denials count (the ask happened at PreToolUse).
// Asks a rule makes once per session count every time: replay keeps no
// session state.
func Judge(eng *policy.Engine, f *policy.Facts) Outcome {
	res := eng.Evaluate(ctxNoGit, f)
	var top *policy.Hit
	for i := range res.Hits {
		h := &res.Hits[i]
		if f.Event == string(event.PermissionRequest) && h.Mode != policy.Deny {
			continue
		}
		if top == nil || h.Mode.Rank() > top.Mode.Rank() {
			top = h
		}
	}
	if top == nil || top.Mode == policy.Off || top.Mode == "" {
		return Outcome{Decision: string(event.Allow)}
	}
	return Outcome{Decision: string(top.Mode), Rule: top.ID, Reason: top.Reason}
}
