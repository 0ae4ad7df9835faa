//go:build unix

package ship_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/testenv"
)

// Through the binaries, with a reachable PostgreSQL and nothing shipping
// (no keeper): events older than retention_days survive SessionStart's
// retention because they are not shipped; `warden doctor` and
// `warden ship --status` say retention keeps them only for that; after
// `warden ship --once` the next retention run deletes them and doctor is
// content again.
func TestRetentionWaitsForTheShipper(t *testing.T) {
	t.Parallel()
	url := testenv.Postgres(t)
	h := newHome(t, url)
	h.env = append(h.env, "WARDEN_KEEPER=off") // nothing ships but the command
	ctx := context.Background()
	db := filepath.Join(h.dir, ".warden", "warden.db")
	st := sqlitetest.Store(t, db)
	// Past retention_days (60 by default), within the bound on unshipped
	// rows (+ store.unshipped_keep_days, 30), which retention applies too.
	old := time.Now().AddDate(0, 0, -75)
	sqlitetest.RecordAt(t, st, "old", old, 3, nil)
	sessionStart := func() {
		t.Helper()
		if err := st.SetSetting(ctx, store.SettingLastPrune, "0"); err != nil { // retention runs once a day
			t.Fatal(err)
		}
		if out, err := h.runStdin(`{"session_id":"new","cwd":"`+h.proj+`","hook_event_name":"SessionStart","source":"startup"}`,
			"hook", "--harness", "claude"); err != nil {
			t.Fatalf("SessionStart: %v %s", err, out)
		}
	}
	oldEvents := func() int {
		t.Helper()
		evs, err := st.Events(ctx, store.Filter{SessionID: "old"})
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}

	sessionStart()
	if n := oldEvents(); n != 3 {
		t.Fatalf("retention deleted %d of 3 old events not shipped yet", 3-n)
	}
	const kept = "3 event(s) and 0 session state(s) older than the 60-day retention are kept only because they are not shipped yet"
	if chk := h.doctor(t)["shared store"]; chk.Level != "warn" || !strings.Contains(chk.Detail, kept) || !strings.Contains(chk.Fix, "warden ship --once") {
		t.Fatalf("doctor with rows kept past retention: %+v", chk)
	}
	out, err := h.run(nil, "ship", "--status", "--json")
	var rep struct {
		Backlog       int64 `json:"backlog"`
		RetentionDays int   `json:"retention_days"`
		KeptEvents    int64 `json:"kept_past_retention_events"`
	}
	if err != nil || json.Unmarshal(out, &rep) != nil || rep.Backlog != 4 || rep.RetentionDays != 60 || rep.KeptEvents != 3 {
		t.Fatalf("warden ship --status --json: %+v %v\n%s", rep, err, out)
	}

	if out, err := h.run(nil, "ship", "--once"); err != nil || !strings.Contains(string(out), "shipped 4 event(s)") {
		t.Fatalf("warden ship --once: %v\n%s", err, out)
	}
	sessionStart()
	if n := oldEvents(); n != 0 {
		t.Fatalf("%d old events survived retention after they shipped", n)
	}
	if chk := h.doctor(t)["shared store"]; chk.Level != "ok" || strings.Contains(chk.Detail, "retention") {
		t.Fatalf("doctor once shipped and pruned: %+v", chk)
	}
	if n, brk, err := st.VerifyChain(ctx); err != nil || brk != nil || n != 2 {
		t.Fatalf("local chain after retention: %d rows, %+v, %v", n, brk, err)
	}
}

// runStdin runs warden with stdin.
func (h *home) runStdin(stdin string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.front, args...)
	cmd.Env, cmd.Dir, cmd.Stdin = h.env, h.proj, strings.NewReader(stdin)
	return cmd.CombinedOutput()
}
