package handlers

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/session"
)

func policyCall(t *testing.T, ev event.Name, st *session.State, tool string, input map[string]any) *pipeline.Call {
	t.Helper()
	t.Setenv("WARDEN_HOME", t.TempDir())
	proj := t.TempDir()
	ti, _ := json.Marshal(input)
	raw, _ := json.Marshal(map[string]any{"session_id": "s", "hook_event_name": ev, "cwd": proj,
		"tool_name": tool, "tool_input": json.RawMessage(ti)})
	in, err := event.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	return &pipeline.Call{Event: ev, Input: in, State: st, Config: config.Defaults(), ProjectDir: proj, Enabled: true}
}

func TestPolicyHandlerDenies(t *testing.T) {
	c := policyCall(t, event.PreToolUse, &session.State{}, "Bash", map[string]any{"command": "bash -c 'rm -rf /'"})
	d, err := runPolicy(context.Background(), c)
	if err != nil || d.Verdict != event.Deny || d.RuleID != "core.shell:rm-root" || d.Mode != "deny" || d.Reason == "" {
		t.Fatalf("got %+v, %v", d, err)
	}
}

func TestPolicyHandlerQuietOnBenign(t *testing.T) {
	c := policyCall(t, event.PreToolUse, &session.State{}, "Bash", map[string]any{"command": "go test ./... && git status"})
	if d, _ := runPolicy(context.Background(), c); !d.IsZero() {
		t.Fatalf("benign call: %+v", d)
	}
}

// A sensitive project file asks once per session per file.
func TestPolicyHandlerAskOnceSameFile(t *testing.T) {
	st := &session.State{}
	c := policyCall(t, event.PreToolUse, st, "Bash", map[string]any{"command": "echo x >> go.sum"})
	if d, _ := runPolicy(context.Background(), c); d.Verdict != event.Ask {
		t.Fatalf("first: %+v", d)
	}
	if d, _ := runPolicy(context.Background(), c); d.Verdict == event.Ask {
		t.Fatalf("second ask for the same file in the same session: %+v", d)
	}
}

// At PermissionRequest only denials count: the ask already happened.
func TestPolicyHandlerPermissionRequest(t *testing.T) {
	c := policyCall(t, event.PermissionRequest, &session.State{}, "Bash", map[string]any{"command": "sudo apt-get install jq"})
	if d, _ := runPolicy(context.Background(), c); !d.IsZero() {
		t.Fatalf("ask rule at PermissionRequest: %+v", d)
	}
	c = policyCall(t, event.PermissionRequest, &session.State{}, "Bash", map[string]any{"command": "rm -rf ~"})
	if d, _ := runPolicy(context.Background(), c); d.Verdict != event.Deny {
		t.Fatalf("deny rule at PermissionRequest: %+v", d)
	}
}

// A project config may raise a mode but never lower it.
func TestPolicyHandlerModes(t *testing.T) {
	c := policyCall(t, event.PreToolUse, &session.State{}, "Bash", map[string]any{"command": "kill %1"})
	if d, _ := runPolicy(context.Background(), c); d.Verdict != event.Audit {
		t.Fatalf("default: %+v", d)
	}
	c.Config.Policy.Raise = []string{"risky.routine=ask"}
	if d, _ := runPolicy(context.Background(), c); d.Verdict != event.Ask {
		t.Fatalf("raised: %+v", d)
	}
	c.Config.Policy.Raise = []string{"core.shell:rm-root=audit"}
	c.Input.ToolInput, _ = json.Marshal(map[string]any{"command": "rm -rf /"})
	if d, _ := runPolicy(context.Background(), c); d.Verdict != event.Deny {
		t.Fatalf("raise tried to lower: %+v", d)
	}
}
