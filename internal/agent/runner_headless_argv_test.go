package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/task"
)

// argvClaude records its arguments, one a line, and what it read on
// stdin.
const argvClaude = `#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done > "$ARGV_LOG"
cat > "$ARGV_LOG.stdin"
printf '{"type":"result","is_error":false,"result":"ok"}\n'
`

// TestHeadlessPromptNeverBecomesAnOption: a prompt comes from webhooks
// and the API; on claude's command line "--dangerously-skip-permissions"
// as a prompt would be that option (and any prompt is readable in ps).
// The prompt goes on stdin; argv holds only warden's own arguments.
func TestHeadlessPromptNeverBecomesAnOption(t *testing.T) {
	dir := t.TempDir()
	agent := filepath.Join(dir, "claude")
	if err := os.WriteFile(agent, []byte(argvClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "argv")
	h := &Headless{Command: agent, Args: []string{"--output-format", "json"}, Env: []string{"ARGV_LOG=" + log, "PATH=/usr/bin:/bin"}, Dir: filepath.Join(dir, "out")}
	const prompt = "--dangerously-skip-permissions"
	run, err := h.Start(context.Background(), &task.Task{ID: "targv", Project: dir, Prompt: prompt})
	if err != nil {
		t.Fatal(err)
	}
	<-run.Done()
	if o := run.Outcome(); o.Status != task.Done {
		t.Fatalf("run: %+v", o)
	}
	argv, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Fields(string(argv)), []string{"-p", "--output-format", "json"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("argv %q; want %q (the prompt on stdin)", got, want)
	}
	if in, _ := os.ReadFile(log + ".stdin"); string(in) != prompt {
		t.Errorf("stdin %q; want the prompt %q", in, prompt)
	}
}
