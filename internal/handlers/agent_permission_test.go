package handlers

import (
	"context"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/hookio"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/session"
)

// For a task agent every PreToolUse is answered out loud — allow, deny
// or ask as the policy says — so Claude Code shows no dialog of its own;
// a person's session hears silence on an allowed call, as before.
func TestAgentPermissionAnswersOutLoud(t *testing.T) {
	out := func(cmd string) string {
		c := policyCall(t, event.PreToolUse, &session.State{}, "Bash", map[string]any{"command": cmd})
		d, _ := pipeline.Run(context.Background(), []pipeline.Handler{policyHandler(), agentPermissionHandler()}, c)
		return string(hookio.Render(event.PreToolUse, d).Stdout)
	}
	commit := "echo hi > hello.txt && git add hello.txt && git commit -m hello"
	if got := out(commit); got != "" {
		t.Errorf("a person's session: %s", got)
	}
	t.Setenv(event.TaskIDEnv, "t1")
	for cmd, want := range map[string]string{
		commit:                            `"permissionDecision":"allow"`,
		"git push origin main":            `"permissionDecision":"deny"`,
		"cat .env":                        `"permissionDecision":"ask"`,
		"go test ./... && git status -sb": `"permissionDecision":"allow"`,
	} {
		if got := out(cmd); !strings.Contains(got, want) {
			t.Errorf("agent %q: %s, want %s", cmd, got, want)
		}
	}
}
