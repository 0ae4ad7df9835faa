package agent

import (
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/store"
)

func TestTailAndLastErrorLine(t *testing.T) {
	pane := "Welcome\n╭──────╮\n│ > hi │\n╰──────╯\n  ⎿  API Error: Unable to connect to Anthropic services\n  Retrying…\n\n❯ \n────\n"
	tail := TailOf(pane, 15)
	if strings.Contains(tail, "╭") || strings.Contains(tail, "❯") || !strings.HasPrefix(tail, "Welcome") {
		t.Errorf("tail %q", tail)
	}
	if got := LastErrorLine(tail); got != "API Error: Unable to connect to Anthropic services" {
		t.Errorf("last error %q", got)
	}
	if got := LastErrorLine("all good\ndone"); got != "" {
		t.Errorf("no error line, got %q", got)
	}
	if got := TailOf("a\nb\nc\nd", 2); got != "c\nd" {
		t.Errorf("last two %q", got)
	}
}

func TestNextStep(t *testing.T) {
	for reason, want := range map[string]string{
		"the agent process exited with status 1; last error: Unable to connect to Anthropic services": "check the network",
		"StopFailure: authentication_failed":                                "log in",
		"stopped with criteria not met: committed: no commit on the branch": "review it",
		"no hook event for 30m0s (agent_idle_timeout 30m0s)":                "warden agent logs t1",
		"the agent process exited with status 2 before the task was done":   "warden agent logs t1",
	} {
		got := NextStep(&store.Agent{TaskID: "t1", State: "error", Reason: reason})
		if !strings.Contains(got, want) {
			t.Errorf("%q: next %q, want %q in it", reason, got, want)
		}
	}
	if got := NextStep(&store.Agent{State: "done", Reason: "x"}); got != "" {
		t.Errorf("done agent has a next step %q", got)
	}
	if got := NextStep(&store.Agent{State: "error", Reason: "task cancelled"}); got != "" {
		t.Errorf("cancelled agent has a next step %q", got)
	}
}
