package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/testenv"
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

// A denial's reason is typed at the prompt and sent; an agent that then
// goes on at once keeps the message on screen in its history (under the
// prompt's mark) and finishes, closing its window, before the screen is
// read again. The answer was given: its record left waiting (its
// UserPromptSubmit hook), and Answer says so rather than fail — a CLI
// told "failed" retries, and finds nothing left to answer.
func TestDenialSentThoughTheAgentFinishedAtOnce(t *testing.T) {
	r := newRig(t, "dialog", nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.spawn(t, "t1")
	// The daemon's loop: hook events move the agent's record.
	polled := make(chan struct{})
	go func() {
		defer close(polled)
		for ctx.Err() == nil {
			r.m.Poll(ctx)
			time.Sleep(100 * time.Millisecond)
		}
	}()
	stopPolling := func() { cancel(); <-polled }
	testenv.WaitFor(t, 30*time.Second, "the agent to wait on cat .env", func() bool {
		a, _ := r.st.Agent(ctx, "t1")
		return a != nil && Pending(a) != nil
	})
	var p *PendingCall
	var err error
	testenv.WaitFor(t, 30*time.Second, "the dialog on screen", func() bool {
		p, err = r.m.Answer(ctx, "t1", false, false, "secrets stay out of this task")
		var ref *Refusal
		return !errors.As(err, &ref)
	})
	if err != nil || p == nil || p.Call != "cat .env" {
		t.Fatalf("Answer: %+v, %v", p, err)
	}
	b, _ := os.ReadFile(filepath.Join(r.home, "told.txt"))
	if !strings.Contains(string(b), "A person denied this call: Bash `cat .env`") || !strings.Contains(string(b), "Their reason: secrets stay out of this task") {
		t.Errorf("the agent was told %q", b)
	}
	stopPolling()
	r.untilCleaned(t, "t1", 30*time.Second)
}
