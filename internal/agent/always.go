package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/task"
)

// Approving "always for this task": the call approved now, and every
// call of the same kind (task.CallKey: the exact command, or the tool and
// file) the task's agent makes later is allowed by its PreToolUse hook
// without asking (internal/handlers/agent_always.go). The key is the one
// the hook recorded when it asked about this very call (matched by its
// tool_use_id), so it is made from the call as the agent sent it.

// askedKey is the recorded key of p, or a refusal saying why approving
// always cannot be done (approving once still can).
func (m *Manager) askedKey(ctx context.Context, taskID string, p *PendingCall) (string, error) {
	v, ok, err := m.st.Setting(ctx, task.AskedSetting(taskID))
	if err != nil {
		return "", err
	}
	var asked task.AskedCall
	if !ok || json.Unmarshal([]byte(v), &asked) != nil || asked.Key == "" ||
		asked.ToolUseID != p.ToolUseID || asked.Tool != p.Tool {
		return "", refuse("task %s waits on %s, but warden has no record of that call's key to allow it always; approve it once (warden task approve %s)", taskID, p, taskID)
	}
	return asked.Key, nil
}

// allowAlways adds key to the task's allowances (once).
func (m *Manager) allowAlways(ctx context.Context, taskID, key string, p *PendingCall) error {
	m.allowMu.Lock()
	defer m.allowMu.Unlock()
	v, _, err := m.st.Setting(ctx, task.AllowedSetting(taskID))
	if err != nil {
		return err
	}
	if task.FindAllowance(v, key) != nil {
		return nil
	}
	as := append(task.ParseAllowances(v), task.Allowance{Key: key, Tool: p.Tool, Call: p.Call, At: time.Now().UTC()})
	b, _ := json.Marshal(as)
	if err := m.st.SetSetting(ctx, task.AllowedSetting(taskID), string(b)); err != nil {
		return fmt.Errorf("task %s: the call was approved, but allowing it always was not recorded: %w", taskID, err)
	}
	return nil
}

// Allowances lists what was approved always for task.
func (m *Manager) Allowances(ctx context.Context, taskID string) ([]task.Allowance, error) {
	v, _, err := m.st.Setting(ctx, task.AllowedSetting(taskID))
	return task.ParseAllowances(v), err
}
