//go:build unix

package otelexport_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/testenv"
)

// With otel.endpoint set, the keeper a hook starts runs the export beside
// itself: the hooks it then answers reach the collector, each once, and
// the export stops with the keeper.
func TestKeeperRunsTheExport(t *testing.T) {
	dir := testenv.Binaries(t, "warden", "warden-core", "warden-helper")
	rc := &receiver{}
	srv := newServer(t, rc)
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[otel]\nendpoint = \""+srv+"\"\ntraces = true\n"), 0o644)
	lock := filepath.Join(home, "locks", "keeper.lock")
	t.Cleanup(func() { _ = keeper.Stop(lock, 10*time.Second) })
	env := append(testenv.EnvWithout("WARDEN_KEEPER"), "WARDEN_HOME="+home)
	hook := func(command string) {
		cmd := exec.Command(filepath.Join(dir, "warden"), "hook")
		cmd.Env = env
		cmd.Stdin = strings.NewReader(`{"session_id":"k1","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + command + `"}}`)
		if out, code := testenv.RunCombined(t, cmd); code != 0 {
			t.Fatalf("hook: %d %s", code, out)
		}
	}
	hook("ls") // starts the keeper, which starts the export
	testenv.WaitFor(t, 20*time.Second, "the keeper's export to mark its start", func() bool { return settingSet(t, home) })
	hook("git status")
	hook("rm -rf /")
	testenv.WaitFor(t, 20*time.Second, "2 log records", func() bool { rc.mu.Lock(); defer rc.mu.Unlock(); return len(rc.logs) >= 2 })
	if err := keeper.Stop(lock, 15*time.Second); err != nil {
		t.Fatal(err)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.logs) != 2 {
		t.Fatalf("want 2 records, got %d", len(rc.logs))
	}
	if a := attrs(rc.logs[1].Attributes); a["decision"] != "deny" || a["tool_name"] != "Bash" {
		t.Errorf("second record: %v", a)
	}
	// Traces went with them (otel.traces): one per hook, its handlers under it.
	traces := byTrace(rc.spans)
	if len(traces) != 2 {
		t.Fatalf("want 2 traces, got %d", len(traces))
	}
	for _, spans := range traces {
		if spans[0].Name != "hook PreToolUse" || len(spans) < 2 {
			t.Errorf("trace %q with %d spans", spans[0].Name, len(spans))
		}
	}
}
