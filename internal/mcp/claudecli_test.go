package mcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// With the claude-cli provider (a fake `claude` script first on PATH),
// confirm judges in one turn from the diff: the prompt reaches claude -p
// on stdin and its verdict is read from the JSON result.
func TestConfirmThroughClaudeCLI(t *testing.T) {
	bin := t.TempDir()
	seen := filepath.Join(bin, "prompt.txt")
	script := `#!/bin/sh
cat > ` + seen + `
printf '%s\n' '{"type":"result","subtype":"success","is_error":false,"result":"DECLINED\n- main.go:3: main no longer prints","total_cost_usd":0.001,"usage":{"input_tokens":50,"output_tokens":9}}'
`
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	e := newEnv(t, nil)
	e.cfg.LLM.Provider = "claude-cli"
	write(t, e.dir, "main.go", "package main\n\nfunc main() {}\n")
	gitOut(t, e.dir, "add", "main.go")
	cs := e.connect(t, Options{LookPath: exec.LookPath})
	var out ConfirmOut
	call(t, cs, "confirm", map[string]any{"skip_check": true}, &out)
	if out.Verdict != Declined || out.Judge.Provider != "claude-cli" || out.Judge.Turns != 1 ||
		len(out.Reasons) != 1 || out.Reasons[0].File != "main.go" || out.Reasons[0].Line != 3 {
		t.Fatalf("got %+v", out)
	}
	p, _ := os.ReadFile(seen)
	if !strings.Contains(string(p), "code-quality gate") || !strings.Contains(string(p), "-\tprintln(\"hello\")") {
		t.Errorf("claude -p got %q", p)
	}
}
