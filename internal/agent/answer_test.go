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

// TestQueuedAfter: a message sent while Claude Code is busy stays on
// screen as "❯ msg" with "⎿ Queued" beneath (as the real CLI draws it);
// that message is sent. Typed text still in the prompt is not.
func TestQueuedAfter(t *testing.T) {
	mark := "❯ REPLY-MARK: keep the commit m"
	queued := "❯ REPLY-MARK: keep the commit message short          \n  ⎿  Queued · ctrl+x ctrl+s to send now\n* Sock-hopping… (29s · ↓ 98 tokens)\n────\n❯ Press up to edit queued messages\n"
	typed := "* Sock-hopping… (29s)\n────\n❯ REPLY-MARK: keep the commit message short\n────\n  [Opus] ctx 2%\n"
	wrapped := "❯ REPLY-MARK: keep the commit message short and say why the\n  change was made\n  ⎿  Queued · ctrl+x ctrl+s to send now\n"
	if !queuedAfter(queued, mark) || !queuedAfter(wrapped, mark) {
		t.Error("a queued message must count as sent")
	}
	if queuedAfter(typed, mark) || queuedAfter("nothing here\n", mark) {
		t.Error("a message still typed in the prompt is not sent")
	}
}
