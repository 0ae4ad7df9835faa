package agent

import (
	"testing"

	"github.com/warden-dev/warden/internal/store"
)

func ev(name, tool, detail, decision string) *store.Event {
	return &store.Event{Event: name, Tool: tool, Detail: detail, Decision: decision}
}

func TestNextState(t *testing.T) {
	cases := []struct {
		from State
		e    *store.Event
		to   State
	}{
		{Spawning, ev("SessionStart", "", "startup", "allow"), Spawning},
		{Spawning, ev("UserPromptSubmit", "", "", "allow"), Spawning}, // the first prompt is not work yet
		{Spawning, ev("PreToolUse", "Bash", "", "allow"), Working},
		{Spawning, ev("PreToolUse", "Bash", "", "deny"), Working}, // a denied call is still the agent working
		{Working, ev("Notification", "", "idle_prompt", "allow"), Waiting},
		{Working, ev("Notification", "", "permission_prompt", "allow"), Waiting},
		{Working, ev("Notification", "", "auth_success", "allow"), Working},
		{Working, ev("PermissionRequest", "Bash", "", "allow"), Waiting},
		{Working, ev("PreToolUse", "Bash", "cat .env", "ask"), Waiting}, // the policy asks a person
		{Waiting, ev("PermissionRequest", "Bash", "", "allow"), Waiting},
		{Waiting, ev("UserPromptSubmit", "", "", "allow"), Working},
		{Waiting, ev("PostToolUse", "Bash", "", "allow"), Working},
		{Working, ev("Stop", "", "", "allow"), StopAllowed},
		{Working, ev("Stop", "", "", "warn"), StopAllowed},
		{Working, ev("Stop", "", "", "deny"), Working}, // blocked: it goes on
		{Working, ev("StopFailure", "", "rate_limit", "allow"), Error},
		{Working, ev("SessionEnd", "", "other", "allow"), Error},
		{Done, ev("SessionEnd", "", "other", "allow"), Done},
		{Error, ev("PreToolUse", "Bash", "", "allow"), Error},
		{TimedOut, ev("PreToolUse", "Bash", "", "allow"), TimedOut},
	}
	for _, c := range cases {
		got, why := Next(c.from, c.e)
		if got != c.to {
			t.Errorf("%s + %s(%s %s %s) = %s, want %s", c.from, c.e.Event, c.e.Tool, c.e.Detail, c.e.Decision, got, c.to)
		}
		if got != c.from && why == "" {
			t.Errorf("%s -> %s without a reason", c.from, got)
		}
		if got == c.from && why != "" && c.e.Event != "Notification" {
			t.Errorf("%s + %s: a note %q where nothing changed", c.from, c.e.Event, why)
		}
	}
}

func TestCheckCriteriaRun(t *testing.T) {
	dir := t.TempDir()
	if unmet := CheckCriteria(t.Context(), dir, "", []string{"run: test 1 -eq 1", "the greeting is friendly"}); unmet != "" {
		t.Errorf("unmet %q", unmet)
	}
	if unmet := CheckCriteria(t.Context(), dir, "", []string{"run: echo boom; exit 4"}); unmet == "" {
		t.Error("a failing command met its criterion")
	}
}
