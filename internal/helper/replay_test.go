package helper_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/replay"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/testenv"
)

// `warden replay --shared` and `warden policy test --from-history --shared`
// evaluate the calls every machine shipped to the shared store, read
// through warden-helper (warden-core never links pgx).
func TestReplayShared(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three binaries")
	}
	ctx := context.Background()
	dir := testenv.Binaries(t, "warden", "warden-core", "warden-helper")
	dbURL := testenv.Postgres(t)
	st, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := testenv.Now()
	call := func(id int64, session, command string) store.Event {
		raw, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]string{"command": command}, "cwd": "/work/proj"})
		return store.Event{ID: id, Time: now.Add(-time.Duration(10-id) * time.Minute), SessionID: session, Event: "PreToolUse",
			Tool: "Bash", Cwd: "/work/proj", Decision: "allow", Raw: raw}
	}
	if _, err := st.ImportEvents(ctx, "machine-a", []store.Event{call(1, "a1", "curl -s https://example.com"), call(2, "a1", "ls")}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ImportEvents(ctx, "machine-b", []store.Event{call(1, "b1", "wget https://example.com/x")}); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	cand := filepath.Join(t.TempDir(), "cand.toml")
	os.WriteFile(cand, []byte("[[rule]]\nid = \"team.net:download\"\nmode = \"deny\"\ncommands = [\"curl\", \"wget\"]\n"), 0o644)
	run := func(args ...string) (string, string, int) {
		cmd := exec.Command(filepath.Join(dir, "warden"), args...)
		cmd.Env = append(os.Environ(), "WARDEN_HOME="+home, "HOME="+t.TempDir(), "WARDEN_DATABASE_URL="+dbURL)
		cmd.Dir = t.TempDir()
		return testenv.Run(t, cmd)
	}
	out, errs, code := run("replay", "--shared", "--policy", cand, "--json", "--fail-on", "deny-increase")
	var r replay.Report
	if json.Unmarshal([]byte(out), &r) != nil || code != 1 {
		t.Fatalf("replay --shared: exit %d (want 1: two calls newly denied)\n%s%s", code, out, errs)
	}
	if r.Calls != 3 || r.Replayed != 3 || r.DenyIncrease != 2 || len(r.Changes) != 1 || r.Changes[0].Rule != "team.net:download" {
		t.Errorf("report: %+v", r)
	}
	// Ids are the shared store's: its chain numbers every machine's rows.
	out, errs, code = run("policy", "test", "--from-history", "--shared", "--id", "1", "--id", "3", "-o", "-")
	if code != 0 || strings.Count(out, "[[case]]") != 2 || !strings.Contains(out, `command = "wget https://example.com/x"`) ||
		!strings.Contains(out, `command = "curl -s https://example.com"`) {
		t.Errorf("from-history --shared --id 1 --id 3: exit %d\n%s%s", code, out, errs)
	}
	_, errs, code = run("replay", "--shared", "--since", "all")
	if code != 0 {
		t.Errorf("replay --shared against the record: exit %d %s", code, errs)
	}
}
