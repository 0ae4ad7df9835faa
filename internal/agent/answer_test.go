package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// Keys go to an agent's window only while it waits on a pending call and
// Claude Code's dialog is on screen; otherwise Answer says why and what
// to do instead.
func TestAnswerRefusals(t *testing.T) {
	r := newRig(t, "idle", nil)
	ctx := context.Background()
	if _, err := r.m.Answer(ctx, "nosuch", true, false, ""); err == nil || !strings.Contains(err.Error(), "has no agent") {
		t.Errorf("unknown task: %v", err)
	}
	a := r.spawn(t, "t1")
	if _, err := r.m.Answer(ctx, "t1", true, false, ""); err == nil || !strings.Contains(err.Error(), "not waiting") {
		t.Errorf("spawning agent: %v", err)
	}
	a.State, a.Reason = string(Waiting), "Notification idle_prompt: it waits for a person"
	if err := r.st.UpdateAgent(ctx, a, &store.AgentState{State: a.State, Reason: a.Reason}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.m.Answer(ctx, "t1", false, false, "no"); err == nil || !strings.Contains(err.Error(), "warden agent attach t1") {
		t.Errorf("waiting without a pending call: %v", err)
	}
	a.Pending = encodePending(PendingCall{Tool: "Bash", Call: "cat .env", Rule: "core.secrets:read-secret", At: time.Now()})
	if err := r.st.UpdateAgent(ctx, a, nil); err != nil {
		t.Fatal(err)
	}
	// The fake agent sleeps: no dialog on its screen, so no keys.
	if _, err := r.m.Answer(ctx, "t1", true, false, ""); err == nil || !strings.Contains(err.Error(), "dialog is not on its screen") {
		t.Errorf("no dialog: %v", err)
	}
	r.m.Kill(ctx, "t1", "test over")
}
