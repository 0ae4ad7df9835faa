package handlers

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/session"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
)

// A task agent's call the policy asks about is recorded with its key;
// once a person allowed that key always for the task, the same call is
// allowed and another one still asks. Other tasks and a person's own
// sessions are not affected, and a denial stays a denial.
func TestAlwaysForTaskTurnsTheSameAskIntoAllow(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	call := func(cmd, id string) event.Decision {
		t.Setenv("WARDEN_TASK_ID", id)
		c := policyCall(t, event.PreToolUse, &session.State{}, "Bash", map[string]any{"command": cmd})
		c.Store = st
		c.Input.ToolUseID = "toolu_" + cmd
		d, err := runPolicy(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := call("cat .env", "t1"); d.Verdict != event.Ask {
		t.Fatalf("reading .env: %+v, want ask", d)
	}
	v, ok, _ := st.Setting(ctx, task.AskedSetting("t1"))
	var asked task.AskedCall
	if !ok || json.Unmarshal([]byte(v), &asked) != nil || asked.ToolUseID != "toolu_cat .env" || asked.Tool != "Bash" || asked.Key == "" {
		t.Fatalf("asked call recorded: %q %v", v, ok)
	}
	b, _ := json.Marshal([]task.Allowance{{Key: asked.Key, Tool: "Bash", Call: "cat .env", At: time.Now()}})
	if err := st.SetSetting(ctx, task.AllowedSetting("t1"), string(b)); err != nil {
		t.Fatal(err)
	}
	if d := call("cat .env", "t1"); d.Verdict != event.Allow || d.RuleID != "agent:always" {
		t.Errorf("the allowed call again: %+v, want allow by agent:always", d)
	}
	if d := call("cat .env.local", "t1"); d.Verdict != event.Ask {
		t.Errorf("another call: %+v, want ask", d)
	}
	if d := call("cat .env", "t2"); d.Verdict != event.Ask {
		t.Errorf("the same call in another task: %+v, want ask", d)
	}
	if d := call("cat .env", ""); d.Verdict != event.Ask {
		t.Errorf("the same call outside agents: %+v, want ask", d)
	}
	// A denial is not an ask: an allowance for its key changes nothing.
	call("rm -rf /", "t1")
	b, _ = json.Marshal([]task.Allowance{{Key: task.CallKey("Bash", json.RawMessage(`{"command":"rm -rf /"}`)), Tool: "Bash"}})
	st.SetSetting(ctx, task.AllowedSetting("t1"), string(b))
	if d := call("rm -rf /", "t1"); d.Verdict != event.Deny {
		t.Errorf("a denied call with an allowance: %+v, want deny", d)
	}
}
