package cli

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/hook"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/replay"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

// recordCalls runs the real hook for each command in a project, so the
// store holds what hooks record.
func recordCalls(t *testing.T, proj string, calls ...string) {
	t.Helper()
	for i, c := range calls {
		in := fmt.Sprintf(`{"session_id":"sess-r","cwd":%q,"hook_event_name":"PreToolUse","tool_use_id":"t%d",%s}`, proj, i, c)
		var out, errb strings.Builder
		if code := hook.Main([]string{"PreToolUse"}, strings.NewReader(in), &out, &errb); code != 0 {
			t.Fatalf("hook %s: exit %d %s", c, code, errb.String())
		}
	}
}

func bash(cmd string) string {
	b, _ := json.Marshal(map[string]any{"tool_name": "Bash", "tool_input": map[string]string{"command": cmd}})
	return strings.Trim(string(b), "{}")
}

// storeDigest is the store's files' bytes, hashed: a replay must leave it
// exactly as it was.
func storeDigest(t *testing.T) string {
	t.Helper()
	h := sha256.New()
	m, _ := filepath.Glob(paths.DB() + "*")
	for _, f := range m {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s %d\n", filepath.Base(f), len(b))
		h.Write(b)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestReplayCommand(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	proj := t.TempDir()
	t.Setenv("CLAUDE_PROJECT_DIR", proj)
	recordCalls(t, proj, bash("curl -fsSL https://example.com/data.json"), bash("rm -rf ~"), bash("go test ./..."),
		`"tool_name":"Write","tool_input":{"file_path":"`+proj+`/main.go","content":"package main\n"}`)
	cand := filepath.Join(t.TempDir(), "cand.toml")
	os.WriteFile(cand, []byte("[[rule]]\nid = \"team.net:curl\"\nmode = \"ask\"\ncommands = [\"curl\"]\n\n[[rule]]\nid = \"team.go:test\"\nmode = \"deny\"\ncommands = [\"go\"]\nargs_regex = \"^test\"\n"), 0o644)
	digest := storeDigest(t)
	rows := len(sqlitetest.Events(t, paths.DB()))

	// The current rules against the record: nothing changed since.
	out, errs, code := runCLI(t, "replay", "--json")
	var r replay.Report
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("replay: code %d %s %s", code, out, errs)
	}
	if r.Calls != 4 || r.Replayed != 4 || r.Changed != 0 || r.Against != "recorded" {
		t.Errorf("current against recorded: %+v", r)
	}

	out, errs, code = runCLI(t, "replay", "--policy", cand, "--json", "--fail-on", "any-change")
	r = replay.Report{}
	if code != 1 || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("candidate with --fail-on any-change: code %d (want 1) %s %s", code, out, errs)
	}
	got := map[string]string{}
	for _, c := range r.Changes {
		got[c.Rule] = fmt.Sprintf("%s→%s %d", c.From, c.To, c.Count)
	}
	if got["team.net:curl"] != "allow→ask 1" || got["team.go:test"] != "allow→deny 1" || r.DenyIncrease != 1 || len(r.Changes) != 2 {
		t.Errorf("changes %v, deny increase %d", got, r.DenyIncrease)
	}

	out, _, code = runCLI(t, "replay", "--policy", cand, "--fail-on", "deny-increase")
	if code != 1 || !strings.Contains(out, "team.go:test: allow → deny, 1 calls") || !strings.Contains(out, "go test ./...") {
		t.Errorf("text report (code %d):\n%s", code, out)
	}
	if _, _, code := runCLI(t, "replay", "--policy", cand, "--tool", "Write", "--fail-on", "deny-increase"); code != 0 {
		t.Errorf("--tool Write has no newly denied call, exit %d", code)
	}
	if _, errs, code := runCLI(t, "replay", "--fail-on", "sometimes"); code == 0 || !strings.Contains(errs, "deny-increase") {
		t.Errorf("bad --fail-on: %d %s", code, errs)
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("[[rule]]\nid = \"nope\"\n"), 0o644)
	if _, errs, code := runCLI(t, "replay", "--policy", bad); code == 0 || !strings.Contains(errs, "bad.toml") {
		t.Errorf("a candidate that does not load must fail naming the file: %d %s", code, errs)
	}

	if storeDigest(t) != digest || len(sqlitetest.Events(t, paths.DB())) != rows {
		t.Errorf("replay changed the store")
	}
}
