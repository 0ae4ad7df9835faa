package agent

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// A person answers a waiting agent's pending call from the CLI (warden
// task approve / deny) without attaching to its window. The agent sits at
// Claude Code's own permission dialog (the policy answered ask), so the
// answer is given to that dialog, in its window: Enter takes its first
// option, "Yes"; Escape is "No, and tell Claude what to do differently",
// after which Claude Code waits at its prompt for exactly that, and the
// reason is typed there as the next message. Claude Code then goes on by
// itself and its hooks move the agent out of waiting. Keys are sent only
// while the agent's record says it waits on a call and the dialog is on
// screen, so they never land in the prompt by mistake.

// Refusal is an answer the agent is in no state to take: no agent, not
// waiting, no pending call, the dialog not on screen. Msg says what to do.
type Refusal struct{ Msg string }

func (r *Refusal) Error() string { return r.Msg }

func refuse(format string, a ...any) error { return &Refusal{Msg: fmt.Sprintf(format, a...)} }

// dialogText is what Claude Code 2.1.330's permission dialog shows.
const dialogText = "Do you want to proceed?"

// Answer approves (or denies, with reason) the pending call of task's
// waiting agent and returns it. always (with approve) also allows every
// later call of the same kind for the task (always.go).
func (m *Manager) Answer(ctx context.Context, task string, approve, always bool, reason string) (*PendingCall, error) {
	a, err := m.st.Agent(ctx, task)
	if err != nil {
		return nil, err
	}
	if a == nil {
		return nil, refuse("task %s has no agent (warden task show %s)", task, task)
	}
	if State(a.State) != Waiting {
		return nil, refuse("task %s's agent is %s, not waiting: there is nothing to answer", task, a.State)
	}
	p := Pending(a)
	if p == nil {
		return nil, refuse("task %s's agent waits (%s), but not on a call warden's policy asked about: answer it in its window (warden agent attach %s)", task, a.Reason, task)
	}
	tm := m.cfg.Tmux
	pane, err := tm.Capture(ctx, a.Window, 60)
	if err != nil {
		return nil, fmt.Errorf("task %s: read its window: %w", task, err)
	}
	if !strings.Contains(pane, dialogText) {
		return nil, refuse("task %s waits on %s, but Claude Code's permission dialog is not on its screen; look at it: warden agent attach %s", task, p, task)
	}
	if approve {
		key := ""
		if always {
			if key, err = m.askedKey(ctx, task, p); err != nil {
				return nil, err
			}
		}
		if err := tm.SendKeys(ctx, a.Window, "Enter"); err != nil {
			return nil, err
		}
		if always {
			return p, m.allowAlways(ctx, task, key, p)
		}
		return p, nil
	}
	if err := tm.SendKeys(ctx, a.Window, "Escape"); err != nil {
		return nil, err
	}
	// Claude Code closes the dialog and opens its prompt for "what to do
	// instead"; type into it only once the dialog is gone.
	deadline := time.Now().Add(10 * time.Second)
	for {
		pane, err := tm.Capture(ctx, a.Window, 60)
		if err == nil && !strings.Contains(pane, dialogText) {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("task %s: the dialog stayed open after Escape; answer in its window: warden agent attach %s", task, task)
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // the prompt takes keys a moment after it is drawn
	msg := "A person denied this call: " + p.String() + ". Do not run it or work around it."
	if reason != "" {
		msg += " Their reason: " + oneLineText(reason)
	}
	if err := tm.SendKeys(ctx, a.Window, "-l", msg); err != nil {
		return nil, err
	}
	return p, m.submit(ctx, task, a.Window, msg, true)
}

// submit presses Enter until the typed message has left the prompt: keys
// typed fast arrive as a paste, and an Enter inside the paste is taken as
// part of it (seen with Claude Code 2.1.330), so the Enter comes after a
// pause and again while the text is still in the input.
//
// waiting: the agent waited at its prompt when the message was typed. Its
// record leaving waiting (its UserPromptSubmit hook) is then proof the
// message was sent, whatever the screen shows: an agent that goes on
// quickly can draw the message in its history, under the same mark, and
// finish and close its window before the screen is read again — keys
// sent then fail, yet the answer was given.
func (m *Manager) submit(ctx context.Context, task, window, msg string, waiting bool) error {
	tm := m.cfg.Tmux
	mark := "❯ " + msg[:min(len(msg), 30)]
	sent := func() bool {
		if !waiting {
			return false
		}
		a, err := m.st.Agent(ctx, task)
		return err == nil && a != nil && State(a.State) != Waiting
	}
	for try := 0; try < 8; try++ { // ~19 s: a loaded machine draws the TUI late; the daemon client waits 30 s
		time.Sleep(400 * time.Millisecond)
		if sent() {
			return nil
		}
		if err := tm.SendKeys(ctx, window, "Enter"); err != nil {
			if sent() {
				return nil
			}
			return err
		}
		for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
			pane, err := tm.Capture(ctx, window, 60)
			if err == nil && (!strings.Contains(pane, mark) || queuedAfter(pane, mark)) || sent() {
				return nil
			}
		}
	}
	if sent() {
		return nil
	}
	last := ""
	if pane, err := tm.Capture(ctx, window, 60); err == nil {
		last = lastLines(pane, 8)
	}
	return fmt.Errorf("the message is typed in the agent's prompt but was not sent; press Enter there: warden agent attach %s\n%s", window, last)
}

// queuedAfter: the pane shows the message under mark queued (Claude
// Code, busy with a turn, keeps a message sent to it as "❯ msg" with
// "⎿ Queued" beneath and hands it over when the turn ends): it is sent.
func queuedAfter(pane, mark string) bool {
	i := strings.LastIndex(pane, mark)
	if i < 0 {
		return false
	}
	rest := pane[i+len(mark):]
	for n := 0; n < 3; n++ { // the message's own line, then the mark's note
		line, more, _ := strings.Cut(rest, "\n")
		if n > 0 && strings.Contains(line, "Queued") {
			return true
		}
		rest = more
	}
	return false
}

func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

// lastLines is the last n non-blank lines of a captured pane, for an
// error that says what the window showed.
func lastLines(pane string, n int) string {
	var out []string
	for _, l := range strings.Split(pane, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out[max(0, len(out)-n):], "\n")
}
