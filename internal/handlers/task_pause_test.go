package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/hook"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/task"
)

// While the daemon holds work (the hold setting its scheduler writes), a
// PostToolUse of one of its agents (WARDEN_TASK_ID set) waits until the
// hold's end and says why; a session that is not a task, and an agent
// after the hold, do not wait.
func TestTaskAgentPausesWhileQuotaHolds(t *testing.T) {
	_, st := pacingEnv(t, "")
	until := time.Now().Add(2 * time.Second).UTC()
	b, _ := json.Marshal(task.Hold{Since: time.Now(), Until: until, Reason: "5-hour window at 96.0% (≥ 95%)"})
	if err := st.SetSetting(context.Background(), task.HoldSetting, string(b)); err != nil {
		t.Fatal(err)
	}
	run := func() (string, time.Duration) {
		var out, errb bytes.Buffer
		start := time.Now()
		if code := hook.Main([]string{"--harness", "claude"}, strings.NewReader(postToolUse), &out, &errb); code != 0 || errb.Len() != 0 {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
		return out.String(), time.Since(start)
	}
	// Not a task's session: no wait.
	if out, el := run(); out != "" || el > time.Second {
		t.Errorf("a plain session waited %v: %q", el, out)
	}
	t.Setenv(task.EnvTaskID, "t-agent-1")
	out, el := run()
	if el < 1200*time.Millisecond || el > 4*time.Second {
		t.Errorf("the agent's hook took %v, want about 2 s (until the hold ends)", el)
	}
	for _, w := range []string{"task t-agent-1 is paused", "5-hour window at 96.0%", "the hold lasts until " + until.Format(time.RFC3339)} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q: %s", w, out)
		}
	}
	evs, _ := st.Events(context.Background(), store.Filter{Event: "PostToolUse"})
	if len(evs) != 2 || evs[1].SleptMS < 1000 {
		t.Errorf("events %+v", evs)
	}
	// The hold is over: no wait.
	if out, el := run(); out != "" || el > time.Second {
		t.Errorf("after the hold the agent waited %v: %q", el, out)
	}
}
