package install

import (
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/harness"
)

// mergeHarness registers warden's hooks for CLI h in s, a file with
// Claude Code's hooks shape ({"hooks":{EVENT:[{"hooks":[handler]}]}}),
// which Codex's hooks.json and Gemini's settings.json share. unit scales
// the timeout (Gemini counts milliseconds).
func mergeHarness(s *Settings, h harness.Name, bin string, unit int) (changed bool, err error) {
	hooks, err := s.hooksObject()
	if err != nil {
		return false, err
	}
	for _, hk := range harness.Hooks(h) {
		if _, _, err := s.eventGroups(hooks, hk.Native); err != nil {
			return false, err
		}
	}
	for _, hk := range harness.Hooks(h) {
		ch, err := mergeEvent(s, hooks, event.Name(hk.Native), Registration{Bin: bin, Line: HarnessHookCommand(bin, h, hk.Native)}, timeoutFor(hk)*unit)
		if err != nil {
			return false, err
		}
		changed = changed || ch
	}
	if changed {
		s.Root.Set("hooks", hooks)
	}
	return changed, nil
}

// planGemini is the change to Gemini CLI's user settings.json.
func planGemini(bin string, install bool) ([]fileChange, error) {
	s, err := ReadSettings(GeminiSettings())
	if err != nil {
		return nil, err
	}
	var changed bool
	what := "register warden's hooks"
	if install {
		changed, err = mergeHarness(s, harness.Gemini, bin, 1000)
	} else {
		what = "remove warden's hooks"
		changed, err = removeHandlers(s, func(_ Location, h *Object) bool { return IsWardenHook(h) })
	}
	if err != nil {
		return nil, err
	}
	if c := jsonChange(s, changed, what); c != nil {
		return []fileChange{*c}, nil
	}
	return nil, nil
}

// planCopilot is the change to warden's own file in Copilot's hooks
// directory: {"version":1,"hooks":{"preToolUse":[{"type":"command",
// "bash":…,"timeoutSec":…}],…}}, written whole, removed whole.
func planCopilot(bin string, install bool) ([]fileChange, error) {
	s, err := ReadSettings(CopilotHookFile())
	if err != nil {
		return nil, err
	}
	if !install {
		if !s.Exists {
			return nil, nil
		}
		return []fileChange{{s: s, remove: true, own: true, what: "remove warden's hook file"}}, nil
	}
	root := &Object{}
	root.Set("version", rawJSON(1))
	hooks := &Object{}
	for _, hk := range harness.Hooks(harness.Copilot) {
		h := &Object{}
		h.Set("type", rawJSON("command"))
		h.Set("bash", rawJSON(HarnessHookCommand(bin, harness.Copilot, hk.Native)))
		h.Set("timeoutSec", rawJSON(timeoutFor(hk)))
		hooks.Set(hk.Native, array{h})
	}
	root.Set("hooks", hooks)
	next := &Settings{Path: s.Path, Root: root, indent: "  ", trailingNewline: true}
	data := next.Encode()
	if s.Exists && string(data) == string(s.Raw) {
		return nil, nil
	}
	return []fileChange{{s: s, data: data, own: true, what: "write warden's hook file"}}, nil
}
