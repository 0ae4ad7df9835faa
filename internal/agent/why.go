package agent

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// A failed agent says why where people look (task show, the board, the
// task page), not only in `warden agent logs`: the pane's last lines are
// kept on the agent when it ends in error, the last of them that reads
// like an error goes into its reason, and NextStep says what to do.

// tailLines is how many of the pane's last non-blank lines are kept.
const tailLines = 15

// captureTail returns the last non-blank lines of the agent's pane ("" when
// its window is gone). Lines of box drawing alone (Claude Code's prompt
// frame) say nothing and are left out.
//
// A process that prints and exits at once can be seen dead before tmux
// has drained its terminal into the pane (a loaded machine): the pane
// then shows none or only the first of its lines. So the pane is looked
// at again, a few times over at most tailSettle, until it has text and
// is settled: tmux's remain-on-exit line ("Pane is dead"), which tmux
// writes once the process's output is drained, or the same text twice
// in a row (a process still running, or a tmux that writes no such line).
func (m *Manager) captureTail(ctx context.Context, a *store.Agent) string {
	deadline := time.Now().Add(tailSettle)
	prev := ""
	for {
		out, err := m.cfg.Tmux.Capture(ctx, a.Window, 300)
		if err != nil {
			return ""
		}
		tail := TailOf(out, tailLines)
		settled := tail != "" && (strings.Contains(out, "Pane is dead") || out == prev)
		if settled || !time.Now().Before(deadline) {
			return tail
		}
		prev = out
		select {
		case <-ctx.Done():
			return ""
		case <-time.After(tailSettle / 5):
		}
	}
}

// tailSettle bounds how long an agent's empty pane is waited on for the
// output its process wrote before it exited. 2 s was too short once
// with the machine busy running the whole suite (the pane stayed empty,
// the failure said no why); it is only a deadline: a pane with text
// returns as soon as it is settled.
const tailSettle = 5 * time.Second

// TailOf is the last n lines of out that carry text.
func TailOf(out string, n int) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if strings.TrimFunc(l, frameRune) == "" || strings.HasPrefix(l, "Pane is dead (") {
			continue // frame glyphs alone; tmux's remain-on-exit line
		}
		keep = append(keep, l)
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	return strings.Join(keep, "\n")
}

// frameRune is whitespace or a box-drawing, block or prompt glyph.
func frameRune(r rune) bool {
	return r == ' ' || r == '\t' || r >= 0x2500 && r <= 0x259F || strings.ContainsRune("❯>⎿·─│╭╮╰╯✻✶✢*▎", r)
}

var errorLine = regexp.MustCompile(`(?i)\b(error|unable to|failed|fatal|denied|refused|not found|invalid|exception|panic|timed? ?out)\b`)

// LastErrorLine is the last line of tail that reads like an error, its
// frame glyphs trimmed; "" when none does.
func LastErrorLine(tail string) string {
	lines := strings.Split(tail, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(strings.TrimLeftFunc(lines[i], frameRune))
		if errorLine.MatchString(l) {
			if r := []rune(l); len(r) > 300 {
				l = string(r[:299]) + "…"
			}
			return l
		}
	}
	return ""
}

// nextSteps map what a failure says to what a person does next, first
// match wins.
var nextSteps = []struct {
	re   *regexp.Regexp
	step string
}{
	{regexp.MustCompile(`(?i)unable to connect|ECONNREFUSED|ENOTFOUND|connection (refused|reset|error)|network`),
		"the agent could not reach its model: check the network, a proxy and ANTHROPIC_BASE_URL in the environment warden serve runs with (restart it after a change), then queue the task again (warden task add)"},
	{regexp.MustCompile(`(?i)api key|authenticat|401|403|oauth|log ?in|credential`),
		"the agent could not log in: run claude once and log in (or set ANTHROPIC_API_KEY for warden serve), then queue the task again"},
	{regexp.MustCompile(`(?i)rate.?limit|overloaded|429|529|quota`),
		"the model provider refused for load or quota: wait for the limit to reset (warden pace), then queue the task again"},
	{regexp.MustCompile(`(?i)memory limit|OOM|SIGKILL`),
		"the agent ran out of memory: raise agent.memory_max in ~/.warden/config.toml, then queue the task again"},
	{regexp.MustCompile(`(?i)not installed|not on PATH|command not found|no such file`),
		"the agent's program is missing: install it or set agent.claude / agent.command in ~/.warden/config.toml, restart warden serve, then queue the task again"},
	{regexp.MustCompile(`(?i)criteria not met`),
		"the branch keeps what the agent did: review it (warden task show, git log), then queue a follow-up task for what is missing"},
	{regexp.MustCompile(`(?i)no hook event for`),
		"the agent went quiet: read its output (warden agent logs ID); if it needed longer, raise agent.idle_timeout"},
}

// NextStep says what a person does about an agent that ended in error or
// timed out ("" for any other state).
func NextStep(a *store.Agent) string {
	if a == nil || (State(a.State) != Error && State(a.State) != TimedOut) {
		return ""
	}
	if strings.Contains(a.Reason, "task cancelled") {
		return ""
	}
	for _, n := range nextSteps {
		if n.re.MatchString(a.Reason) {
			return strings.ReplaceAll(n.step, "ID", a.TaskID)
		}
	}
	return "read the agent's output (warden agent logs " + a.TaskID + "), fix the cause, then queue the task again (warden task add)"
}
