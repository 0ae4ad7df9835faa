package otelexport_test

import (
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// The real binaries with otel.traces on: `warden hook` keeps its handlers'
// timings in the record, and `warden-helper otel` sends each hook as one
// trace whose root span carries the event's attributes and whose children
// are the handlers that ran, in order, each inside its hook's time.
func TestHelperExportsHookTraces(t *testing.T) {
	dir := testenv.Binaries(t, "warden", "warden-core", "warden-helper")
	rc := &receiver{}
	srv := newServer(t, rc)
	home, proj := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[otel]\nendpoint = \""+srv+"\"\ntraces = true\n"), 0o644)
	env := append(os.Environ(), "WARDEN_HOME="+home, "WARDEN_KEEPER=off", "CLAUDE_PROJECT_DIR="+proj)
	hook := func(payload string) {
		cmd := exec.Command(filepath.Join(dir, "warden"), "hook", "PreToolUse", "--harness", "claude")
		cmd.Env, cmd.Stdin = env, strings.NewReader(payload)
		if out, code := testenv.RunCombined(t, cmd); code != 0 {
			t.Fatalf("hook: %d %s", code, out)
		}
	}
	cmd := exec.Command(filepath.Join(dir, "warden-helper"), "otel", "--until-stdin-closes")
	cmd.Env = env
	stdin, _ := cmd.StdinPipe()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	testenv.WaitFor(t, 20*time.Second, "the export's start mark", func() bool { return settingSet(t, home) })
	hook(`{"session_id":"s1","cwd":"` + proj + `","tool_name":"Bash","tool_use_id":"toolu_9","tool_input":{"command":"rm -rf ~"}}`)
	hook(`{"session_id":"s1","cwd":"` + proj + `","tool_name":"Read","tool_input":{"file_path":"` + proj + `/a.go"}}`)
	testenv.WaitFor(t, 20*time.Second, "2 log records", func() bool { rc.mu.Lock(); defer rc.mu.Unlock(); return len(rc.logs) >= 2 })
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatalf("warden-helper otel did not stop when its stdin closed:\n%s", out.String())
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	traces := byTrace(rc.spans)
	if len(traces) != 2 {
		t.Fatalf("want 2 traces (one per hook), got %d (%d spans)\n%s", len(traces), len(rc.spans), out.String())
	}
	tools := map[string]bool{}
	for _, spans := range traces {
		root := spans[0]
		a := attrs(root.Attributes)
		tools[a["tool_name"]] = true
		if root.Name != "hook PreToolUse" || len(root.ParentSpanId) != 0 || a["session.id"] != "s1" || a["gen_ai.tool.name"] != a["tool_name"] {
			t.Errorf("root span %q parent %x attributes %v", root.Name, root.ParentSpanId, a)
		}
		var handlers []string
		for _, s := range spans[1:] {
			handlers = append(handlers, strings.TrimPrefix(s.Name, "handler "))
			if hex.EncodeToString(s.ParentSpanId) != hex.EncodeToString(root.SpanId) {
				t.Errorf("%s is not a child of its hook's span", s.Name)
			}
			if s.StartTimeUnixNano < root.StartTimeUnixNano || s.EndTimeUnixNano > root.EndTimeUnixNano || s.EndTimeUnixNano < s.StartTimeUnixNano {
				t.Errorf("%s lies outside its hook's span", s.Name)
			}
			if attrs(s.Attributes)["warden.handler"] == "" {
				t.Errorf("%s has no warden.handler", s.Name)
			}
		}
		if !slices.Contains(handlers, "policy") || len(handlers) < 2 {
			t.Errorf("%s trace's handlers %v, want the policy among the handlers that ran", a["tool_name"], handlers)
		}
		if a["tool_name"] == "Bash" {
			if a["decision"] != "deny" || a["gen_ai.tool.call.id"] != "toolu_9" {
				t.Errorf("Bash root attributes %v", a)
			}
			for _, s := range spans[1:] {
				if s.Name == "handler policy" && attrs(s.Attributes)["warden.handler.verdict"] != "deny" {
					t.Errorf("the policy's span does not carry its deny: %v", attrs(s.Attributes))
				}
			}
		}
	}
	if !tools["Bash"] || !tools["Read"] {
		t.Errorf("traces for %v, want Bash and Read", tools)
	}
}
