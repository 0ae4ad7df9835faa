package daemon

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/server"
)

// writeTaskStory prints `warden task show`: the task, its transitions and
// the scheduler's decisions about it, merged in time order.
func writeTaskStory(w io.Writer, d *server.TaskDetail) {
	t := d.Task
	fmt.Fprintf(w, "task %s: %s\n", t.ID, strings.ToUpper(string(t.Status)))
	fmt.Fprintf(w, "project:  %s\n", t.Project)
	fmt.Fprintf(w, "priority: %d   attempts: %d   source: %s\n", t.Priority, t.Attempts, t.Source)
	if t.System != "" || t.Owner != "" {
		fmt.Fprintf(w, "system:   %s   claimed by: %s\n", orDash(t.System), orDash(t.Owner))
	}
	if t.Agent != "" || t.AgentRef != "" || t.AgentState != "" {
		fmt.Fprintf(w, "agent:    %s %s %s\n", t.Agent, t.AgentState, t.AgentRef)
	}
	if t.AgentNote != "" && !t.Status.Final() {
		fmt.Fprintf(w, "why:      %s\n", t.AgentNote)
	}
	fmt.Fprintf(w, "prompt:   %s\n", clip(oneLine(t.Prompt), 200))
	if len(t.Criteria) > 0 {
		fmt.Fprintf(w, "done when: %s\n", strings.Join(t.Criteria, "; "))
	}
	if len(t.Allow)+len(t.Deny) > 0 {
		fmt.Fprintf(w, "operations: allow %s   deny %s\n", listOrNone(t.Allow), listOrNone(t.Deny))
	}
	if t.Result != "" {
		fmt.Fprintf(w, "result:   %s\n", clip(oneLine(t.Result), 400))
	}
	if t.Error != "" {
		fmt.Fprintf(w, "error:    %s\n", t.Error)
	}
	type line struct {
		at   time.Time
		text string
	}
	var lines []line
	for _, h := range d.History {
		from := string(h.From)
		if from == "" {
			from = "·"
		}
		lines = append(lines, line{h.Time, fmt.Sprintf("%-9s → %-9s %s", from, h.To, h.Reason)})
	}
	for _, dc := range d.Decisions {
		lines = append(lines, line{dc.Time, fmt.Sprintf("scheduler %-9s %s", dc.Action+":", dc.Reason)})
	}
	// Stable merge by time: transitions and decisions of one moment keep
	// their order (the transition first).
	for i := 1; i < len(lines); i++ {
		for j := i; j > 0 && lines[j].at.Before(lines[j-1].at); j-- {
			lines[j], lines[j-1] = lines[j-1], lines[j]
		}
	}
	fmt.Fprintln(w, "\nstory:")
	for _, l := range lines {
		fmt.Fprintf(w, "  %s  %s\n", l.at.Local().Format("2006-01-02 15:04:05"), l.text)
	}
}

func orDash(s string) string {
	if s == "" {
		return "any"
	}
	return s
}

func listOrNone(v []string) string {
	if len(v) == 0 {
		return "-"
	}
	return strings.Join(v, ",")
}
