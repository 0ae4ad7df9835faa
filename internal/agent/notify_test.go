package agent

import (
	"strings"
	"testing"
	"time"
)

// Every notification type Claude Code 2.1.330 sends for "a person must
// act" makes the agent wait; the others leave it alone; an unknown one is
// a note with the state kept.
func TestNotificationKinds(t *testing.T) {
	for _, typ := range []string{"idle_prompt", "permission_prompt", "agent_needs_input", "elicitation_dialog", "elicitation_url_dialog"} {
		if !WaitingNotification(typ) {
			t.Errorf("%s does not mean waiting", typ)
		}
		to, why := Next(Working, ev("Notification", "", typ, "allow"))
		if to != Waiting || !strings.Contains(why, typ) {
			t.Errorf("working + %s = %s %q, want waiting", typ, to, why)
		}
	}
	for _, typ := range []string{"auth_success", "elicitation_complete", "elicitation_response", "agent_completed"} {
		if to, why := Next(Working, ev("Notification", "", typ, "allow")); to != Working || why != "" {
			t.Errorf("working + %s = %s %q, want working and no note", typ, to, why)
		}
	}
	for _, typ := range []string{"brand_new_kind", ""} {
		to, why := Next(Working, ev("Notification", "", typ, "allow"))
		if to != Working || !strings.Contains(why, "does not know") {
			t.Errorf("working + %q = %s %q, want working with a note", typ, to, why)
		}
	}
	// Waiting already: a second waiting notification is no change.
	if to, why := Next(Waiting, ev("Notification", "", "idle_prompt", "allow")); to != Waiting || why != "" {
		t.Errorf("waiting + idle_prompt = %s %q", to, why)
	}
}

// Through the real hook and store: agent_needs_input puts the agent in
// waiting (it used to stay working until the idle timeout), the unknown
// type is in its history, and the work that follows ends done.
func TestAgentNeedsInputWaitsAndUnknownNotificationIsRecorded(t *testing.T) {
	r := newRig(t, "needsinput", nil)
	r.spawn(t, "t1", "committed", "clean")
	s, changes := r.untilCleaned(t, "t1", 30*time.Second)
	if got := states(s.History); got != "spawning working waiting waiting working done" {
		t.Fatalf("history %q; %+v", got, s.History)
	}
	if !strings.Contains(s.History[2].Reason, "agent_needs_input") || !strings.Contains(s.History[3].Reason, "brand_new_kind") {
		t.Errorf("reasons %+v", s.History)
	}
	var note *Change
	for i := range changes {
		if changes[i].From == changes[i].To {
			note = &changes[i]
		}
	}
	if note == nil || !strings.Contains(note.Reason, "brand_new_kind") {
		t.Errorf("no note among the changes: %+v", changes)
	}
}
