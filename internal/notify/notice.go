// Package notify sends the notices `warden serve` gives when a task's
// agent starts waiting for a person: a JSON POST to each configured
// webhook and a Telegram message with Approve / Deny / Always buttons to
// each allowed chat. Delivery runs on a goroutine of its own behind a
// bounded queue, with a deadline and bounded retries per delivery, so a
// slow or dead receiver never holds an agent, a hook or the poll loop.
package notify

import (
	"fmt"
	"strings"
	"time"
)

// Notice is one agent that waits: what it waits on and where to answer.
// It is also the JSON body of a webhook notice.
type Notice struct {
	Event   string `json:"event"` // "task.waiting"
	Task    string `json:"task"`
	Title   string `json:"title"` // the prompt's first line, clipped
	Project string `json:"project,omitempty"`
	// Tool, Call: the pending call (Call is the command or path, redacted
	// by the hook); empty when the agent waits on something else (an
	// idle prompt, an MCP dialog) and Reason says what.
	Tool string `json:"tool,omitempty"`
	Call string `json:"call,omitempty"`
	// Rule and Explanation: which policy rule asked, and why.
	Rule        string    `json:"rule,omitempty"`
	Explanation string    `json:"explanation,omitempty"`
	Reason      string    `json:"reason,omitempty"` // the agent state's reason
	Link        string    `json:"link,omitempty"`   // the task's dashboard page
	At          time.Time `json:"at"`
	// Answer names the commands that answer it where no button reaches.
	Answer []string `json:"answer"`
}

// EventWaiting is Notice.Event for an agent that starts waiting.
const EventWaiting = "task.waiting"

// Title is the first line of a prompt, at most 80 characters.
func Title(prompt string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > 80 {
		line = string(r[:79]) + "…"
	}
	return line
}

// AnswerCommands are the CLI lines that answer task id's pending call.
func AnswerCommands(id string) []string {
	return []string{"warden task approve " + id, "warden task deny " + id + " --reason '…'"}
}

// Text is the notice as a message for a person (Telegram, plain text).
func (n Notice) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "warden: task %s waits for you\n%s\n", n.Task, n.Title)
	if n.Tool != "" {
		b.WriteString("\n" + n.Tool)
		if n.Call != "" {
			b.WriteString(": " + clip(n.Call, 1500))
		}
		b.WriteString("\n")
	}
	switch {
	case n.Rule != "":
		fmt.Fprintf(&b, "policy %s: %s\n", n.Rule, n.Explanation)
	case n.Explanation != "":
		b.WriteString("policy: " + n.Explanation + "\n")
	case n.Reason != "":
		b.WriteString(n.Reason + "\n")
	}
	if n.Link != "" {
		b.WriteString("\n" + n.Link + "\n")
	}
	return b.String()
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
