package hook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

func toolCount(t *testing.T, home, sid string) int {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(home, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sess, err := st.Session(context.Background(), sid)
	if err != nil || sess == nil {
		t.Fatalf("session %s: %v", sid, err)
	}
	var s struct {
		ToolCount int `json:"tool_count"`
	}
	json.Unmarshal(sess.State, &s)
	return s.ToolCount
}

func preToolUse(t *testing.T) {
	t.Helper()
	runHook(t, strings.NewReader(payload("PreToolUse", `"tool_name":"Bash","tool_input":{"command":"ls"}`)))
}

func TestEditedSessionStateIsResetAndReported(t *testing.T) {
	home, _ := env(t)
	for i := 0; i < 3; i++ {
		preToolUse(t)
	}
	if n := toolCount(t, home, "sess-1"); n != 3 {
		t.Fatalf("tool count %d", n)
	}
	// An agent edits the store directly to change its state.
	st, _ := sqlite.Open(context.Background(), filepath.Join(home, "warden.db"))
	sqlitetest.Exec(t, st.Path(), `UPDATE sessions SET state = '{"tool_count":0}' WHERE id = 'sess-1'`)
	st.Close()
	_, errs, code := runHook(t, strings.NewReader(payload("PreToolUse", `"tool_name":"Bash","tool_input":{"command":"ls"}`)))
	if code != 0 || !strings.Contains(errs, "tamper") {
		t.Fatalf("tampering not reported: code %d, %q", code, errs)
	}
	if n := toolCount(t, home, "sess-1"); n != 1 {
		t.Errorf("state must restart from defaults (1 call since), got %d", n)
	}
	evs := events(t, home)
	if last := evs[len(evs)-1]; !strings.Contains(last.Error, "tamper") {
		t.Errorf("tamper not in the record: %+v", last)
	}
	// The next SessionStart, in any session, tells the user, once.
	out, _, _ := runHook(t, strings.NewReader(strings.Replace(payload("SessionStart", `"source":"startup"`), "sess-1", "sess-2", 1)))
	if !strings.Contains(out, "tampering detected") || !strings.Contains(out, "sess-1") {
		t.Errorf("SessionStart notice: %q", out)
	}
	out, _, _ = runHook(t, strings.NewReader(strings.Replace(payload("SessionStart", `"source":"startup"`), "sess-1", "sess-3", 1)))
	if strings.Contains(out, "tampering") {
		t.Errorf("notice shown twice: %q", out)
	}
}

func TestReplacedKeyResetsState(t *testing.T) {
	home, _ := env(t)
	preToolUse(t)
	preToolUse(t)
	if err := os.Remove(filepath.Join(home, "keys", "state.key")); err != nil {
		t.Fatal(err)
	}
	_, errs, _ := runHook(t, strings.NewReader(payload("PreToolUse", `"tool_name":"Bash","tool_input":{"command":"ls"}`)))
	if !strings.Contains(errs, "tamper") {
		t.Errorf("deleting the key must be detected: %q", errs)
	}
	if n := toolCount(t, home, "sess-1"); n != 1 {
		t.Errorf("state not reset: %d", n)
	}
	fi, err := os.Stat(filepath.Join(home, "keys", "state.key"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("new key: %v %v", fi, err)
	}
}

func TestLooseKeyIsRefused(t *testing.T) {
	home, _ := env(t)
	preToolUse(t)
	key := filepath.Join(home, "keys", "state.key")
	os.Chmod(key, 0o644)
	_, errs, code := runHook(t, strings.NewReader(payload("PreToolUse", `"tool_name":"Bash","tool_input":{"command":"ls"}`)))
	if code != 0 || !strings.Contains(errs, "chmod 600") {
		t.Errorf("a world-readable key must be refused with the fix: %q", errs)
	}
}
