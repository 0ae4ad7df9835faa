package agent

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/task"
)

// Quota hold: while the scheduler holds work (task.HoldSetting), an
// agent's hooks — tagged with its task through WARDEN_TASK_ID — make it
// wait after a tool call instead of killing it; once the hold's reset has
// passed it carries on and the task is done.
func TestAgentPausesWhileHeldThenResumes(t *testing.T) {
	r := newRig(t, "paused", nil)
	ctx := context.Background()
	// Long enough that the agent reaches its tool call inside it: its
	// spawn took over 2 s on a loaded CI machine. What is asserted is
	// that it waited and went on after the end, not for how long.
	until := time.Now().Add(8 * time.Second)
	b, _ := json.Marshal(task.Hold{Since: time.Now(), Until: until, Reason: "5-hour window over the safe allowance"})
	if err := r.st.SetSetting(ctx, task.HoldSetting, string(b)); err != nil {
		t.Fatal(err)
	}
	r.spawn(t, "t1")
	s, _ := r.untilCleaned(t, "t1", 40*time.Second)
	if s.State != "done" {
		t.Fatalf("state %s: %s", s.State, s.Reason)
	}
	evs, _ := r.st.Events(ctx, store.Filter{TaskID: "t1", Event: "PostToolUse"})
	if len(evs) != 1 || evs[0].SleptMS <= 0 {
		t.Fatalf("the agent's PostToolUse did not wait for the hold: %+v", evs)
	}
	stop, _ := r.st.Events(ctx, store.Filter{TaskID: "t1", Event: "Stop"})
	if len(stop) != 1 || stop[0].Time.Before(until.Add(-time.Second)) {
		t.Errorf("the agent went on before the hold's end (%v): %+v", until, stop)
	}
}
