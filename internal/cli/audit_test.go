package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

func TestAuditVerifyAndExport(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	ctx := context.Background()
	st, err := sqlite.Open(ctx, paths.DB())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		st.RecordHook(ctx, &store.Event{SessionID: "s", Event: "PreToolUse", Decision: "deny", Rule: "r"}, nil)
	}
	out, _, code := runCLI(t, "audit", "verify")
	if code != 0 || !strings.Contains(out, "intact: 5 rows") {
		t.Fatalf("verify intact: %d %q", code, out)
	}
	file := filepath.Join(t.TempDir(), "audit.jsonl")
	if _, errs, code := runCLI(t, "audit", "export", "-o", file); code != 0 || !strings.Contains(errs, "exported 5") {
		t.Fatalf("export: %d %q", code, errs)
	}
	b, _ := os.ReadFile(file)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var e store.Event
	if len(lines) != 5 || json.Unmarshal([]byte(lines[1]), &e) != nil || e.Hash == "" || e.PrevHash == "" {
		t.Fatalf("export content: %s", b)
	}
	if _, _, code := runCLI(t, "audit", "export", "-o", file); code == 0 {
		t.Error("export overwrote an existing file")
	}

	// An agent deletes the row that recorded its denied call.
	sqlitetest.Exec(t, st.Path(), "DELETE FROM events WHERE id = 3")
	st.Close()
	out, _, code = runCLI(t, "audit", "verify", "--json")
	var res struct {
		OK    bool
		Break *store.ChainBreak
	}
	if code != 1 || json.Unmarshal([]byte(out), &res) != nil || res.OK || res.Break == nil || res.Break.ID != 4 {
		t.Errorf("verify after deletion: code %d, %s", code, out)
	}
}
