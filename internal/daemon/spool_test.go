package daemon

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/store/ship"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/testenv"
)

// The daemon's spool ships its local store to the shared one and reports
// through /health/db's check: the backlog while it waits, then nothing.
func TestDaemonSpoolShipsAndReports(t *testing.T) {
	url := testenv.Postgres(t)
	ctx := context.Background()
	st := sqlitetest.Store(t, filepath.Join(t.TempDir(), "warden.db"))
	for i := 0; i < 12; i++ {
		if err := st.RecordHook(ctx, &store.Event{SessionID: "s", Event: "PreToolUse", Tool: "Bash"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if check, stop := startSpool(st, "", config.Defaults(), slog.New(slog.DiscardHandler)); check != nil {
		stop()
		t.Fatal("a spool without a shared store")
	}
	var log bytes.Buffer
	check, stop := startSpool(st, url, config.Defaults(), slog.New(slog.NewTextHandler(&log, nil)))
	defer stop()
	var last ship.Report
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		d, err := check(ctx)
		last = d.(ship.Report)
		if err == nil && last.Reachable && last.Backlog == 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the spool never drained: %+v, %v\n%s", last, err, log.String())
		}
	}
	stop()
	pg, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if n, brk, err := pg.VerifyChain(ctx); err != nil || brk != nil || n != 12 {
		t.Fatalf("shared store: %d rows, %+v, %v", n, brk, err)
	}
}
