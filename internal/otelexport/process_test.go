package otelexport_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// The real binaries: hooks recorded by `warden hook` while `warden-helper
// otel` runs (as the keeper starts it, with otel.endpoint in the config)
// reach an OTLP receiver once each, with their tool and decision; closing
// its stdin stops it.
func TestHelperExportsRecordedHooks(t *testing.T) {
	dir := testenv.Binaries(t, "warden", "warden-core", "warden-helper")
	rc := &receiver{}
	srv := newServer(t, rc)
	home, proj := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[otel]\nendpoint = \""+srv+"\"\n"), 0o644)
	env := append(os.Environ(), "WARDEN_HOME="+home, "WARDEN_KEEPER=off", "CLAUDE_PROJECT_DIR="+proj)
	hook := func(payload string) {
		cmd := exec.Command(filepath.Join(dir, "warden"), "hook", "PreToolUse", "--harness", "claude")
		cmd.Env, cmd.Stdin = env, strings.NewReader(payload)
		if out, code := testenv.RunCombined(t, cmd); code != 0 {
			t.Fatalf("hook: %d %s", code, out)
		}
	}
	hook(`{"session_id":"s0","cwd":"` + proj + `","tool_name":"Bash","tool_input":{"command":"ls"}}`) // before: not sent

	cmd := exec.Command(filepath.Join(dir, "warden-helper"), "otel", "--until-stdin-closes")
	cmd.Env = env
	stdin, _ := cmd.StdinPipe()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// The first pass marks where the export starts.
	testenv.WaitFor(t, 20*time.Second, "the export's start mark", func() bool { return settingSet(t, home) })
	hook(`{"session_id":"s1","cwd":"` + proj + `","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}`)
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
	if len(rc.logs) != 2 {
		t.Fatalf("want 2 records (each hook once, none from before), got %d\n%s", len(rc.logs), out.String())
	}
	a0, a1 := attrs(rc.logs[0].Attributes), attrs(rc.logs[1].Attributes)
	if a0["session.id"] != "s1" || a0["tool_name"] != "Bash" || a0["decision"] != "deny" || a0["warden.rule"] == "" || a1["tool_name"] != "Read" {
		t.Errorf("records: %v / %v", a0, a1)
	}
	found := false
	for _, m := range rc.metrics {
		found = found || m.Name == "warden.hook.decisions"
	}
	if !found {
		t.Errorf("no warden.hook.decisions metric sent at shutdown")
	}
}
