package agent

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A person's follow-up to a task's agent (warden task reply). While the
// agent runs, the text is typed into Claude Code's prompt in its window —
// literally (tmux send-keys -l: no key names, and control characters are
// dropped first, so no text can press Escape, Ctrl-C or Enter by itself)
// — and submitted; Claude Code takes it when its current step is done.
// An agent that waits on a call warden's policy asked about gets no
// reply: typed into the permission dialog, text would choose an option,
// so the person answers the call first (approve, or deny with a reason,
// which the agent reads). A finished task's follow-up is a new run on
// the same branch (followup.go).

// MaxReply bounds a reply's bytes.
const MaxReply = 8 << 10

// CleanReply is a reply as it can be given to an agent: valid UTF-8,
// control characters dropped (newlines and tabs kept when multiline),
// spaces at the ends trimmed. Empty or too long is an error naming the
// fix.
func CleanReply(s string, multiline bool) (string, error) {
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("the reply is not valid UTF-8")
	}
	if len(s) > MaxReply {
		return "", fmt.Errorf("the reply is %d bytes; the limit is %d", len(s), MaxReply)
	}
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t' || r == '\r':
			if multiline && r != '\r' {
				return r
			}
			return ' '
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			return -1
		}
		return r
	}, s)
	if !multiline {
		s = strings.Join(strings.Fields(s), " ")
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "", fmt.Errorf("the reply is empty: say what the agent should do")
	}
	return s, nil
}

// Reply types text into the prompt of task's running agent and submits
// it. Refusals (*Refusal) say why it cannot be given and what to do.
func (m *Manager) Reply(ctx context.Context, task, text string) error {
	msg, err := CleanReply(text, false)
	if err != nil {
		return refuse("%s", err.Error())
	}
	a, err := m.st.Agent(ctx, task)
	if err != nil {
		return err
	}
	switch {
	case a == nil:
		return refuse("task %s has no agent here (warden task show %s)", task, task)
	case State(a.State).Final():
		return refuse("task %s's agent has ended (%s): a reply to a finished task starts a follow-up run (warden task reply, through the daemon)", task, a.State)
	case a.Mode != ModeInteractive:
		return refuse("task %s's agent runs in %s mode, with no prompt to type a reply into; reply once it has finished (a follow-up run)", task, a.Mode)
	}
	if p := Pending(a); p != nil {
		return refuse("task %s waits on %s: answer that first — warden task approve %s, or warden task deny %s --reason \"…\" (the agent reads the reason)", task, p, task, task)
	}
	tm := m.cfg.Tmux
	w, err := tm.Window(ctx, a.Window)
	if err != nil {
		return fmt.Errorf("task %s: find its window: %w", task, err)
	}
	if w == nil || w.Dead {
		return refuse("task %s's agent window is gone or its process exited; it ends in a moment, then a reply starts a follow-up run", task)
	}
	pane, err := tm.Capture(ctx, a.Window, 60)
	if err != nil {
		return fmt.Errorf("task %s: read its window: %w", task, err)
	}
	if strings.Contains(pane, dialogText) {
		return refuse("task %s's agent shows a dialog (Do you want to proceed?), which would take the reply's keys as answers; answer it in its window: warden agent attach %s", task, task)
	}
	// "--": a reply that starts with '-' is text, not a tmux flag.
	if err := tm.SendKeys(ctx, a.Window, "-l", "--", msg); err != nil {
		return err
	}
	return m.submit(ctx, task, a.Window, msg, State(a.State) == Waiting)
}
