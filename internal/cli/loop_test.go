package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

func TestLoopCommands(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Chdir(t.TempDir())
	if _, stderr, code := runCLI(t, "loop", "start", "task"); code == 0 || !strings.Contains(stderr, "--criteria or --check") {
		t.Errorf("a loop without criteria: exit %d, %q", code, stderr)
	}
	out, stderr, code := runCLI(t, "loop", "start", "ship it", "--criteria", "tests pass", "--check", "true", "--max", "3")
	if code != 0 || !strings.Contains(out, "at most 3 iterations") {
		t.Fatalf("start: exit %d\n%s%s", code, out, stderr)
	}
	if _, stderr, code := runCLI(t, "loop", "start", "again", "--check", "true"); code == 0 || !strings.Contains(stderr, "already active") {
		t.Errorf("a second start: exit %d, %q", code, stderr)
	}
	out, _, _ = runCLI(t, "loop", "status", "--json")
	var l struct {
		Task, Status string
		Max          int
		Checks       []string
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil || l.Task != "ship it" || l.Status != "active" || l.Max != 3 || len(l.Checks) != 1 {
		t.Errorf("status --json: %v %+v\n%s", err, l, out)
	}
	if out, _, _ := runCLI(t, "loop", "stop"); !strings.Contains(out, "stopped by the user") {
		t.Errorf("stop: %s", out)
	}
	if out, _, _ := runCLI(t, "loop", "start", "next", "--check", "true"); !strings.Contains(out, "loop started") {
		t.Errorf("start after stop: %s", out)
	}
}

func TestStatsCommand(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	ctx := context.Background()
	st, err := sqlite.Open(ctx, paths.DB())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, e := range []store.Event{
		{Time: now, SessionID: "s", Event: "PreToolUse", Tool: "Bash", Decision: "deny", Rule: "core.git:push-force", Cwd: "/p"},
		{Time: now, SessionID: "s", Event: "PreToolUse", Tool: "Write", ToolUseID: "t1", Decision: "ask", Rule: "core.paths:env", Cwd: "/p"},
		{Time: now, SessionID: "s", Event: "PostToolUse", Tool: "Write", ToolUseID: "t1", Cwd: "/p"},
		{Time: now, SessionID: "s", Event: "PostToolUseFailure", Tool: "Bash", Decision: "warn", Rule: "gates:breaker", Cwd: "/q"},
	} {
		e := e
		if err := st.RecordHook(ctx, &e, nil); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	out, stderr, code := runCLI(t, "stats", "--json", "--since", "1d")
	var r struct {
		Totals map[string]float64
	}
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("stats --json: exit %d\n%s%s", code, out, stderr)
	}
	if r.Totals["denied"] != 1 || r.Totals["asked"] != 1 || r.Totals["overridden"] != 1 || r.Totals["breaker_trips"] != 1 {
		t.Errorf("totals %v", r.Totals)
	}
	out, _, _ = runCLI(t, "stats", "--project", "/q")
	if !strings.Contains(out, "blocks 0") || !strings.Contains(out, "breaker trips 1") {
		t.Errorf("stats --project /q:\n%s", out)
	}
	out, _, _ = runCLI(t, "stats")
	if !strings.Contains(out, "core.git:push-force") || !strings.Contains(out, "overridden") {
		t.Errorf("stats text:\n%s", out)
	}
}
