package hook

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/ship"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

// Retention runs at SessionStart. With a shared store configured the local
// store is the only copy of what the shipper has not sent yet, so rows
// older than retention_days stay until they are shipped, and go at the
// first prune after; with none configured, retention deletes them as it
// always did.
func TestRetentionKeepsWhatIsNotShippedYet(t *testing.T) {
	for _, shared := range []bool{true, false} {
		name := map[bool]string{true: "shared store", false: "local only"}[shared]
		t.Run(name, func(t *testing.T) {
			home, _ := env(t)
			url := ""
			if shared {
				// Never dialled: hooks do not ship, they only must know
				// that something does.
				url = "postgres://warden@127.0.0.1:1/warden"
			}
			t.Setenv("WARDEN_DATABASE_URL", url)
			ctx := context.Background()
			db := filepath.Join(home, "warden.db")
			st, err := sqlite.Open(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			// Past retention_days (60 by default), within the bound on
			// unshipped rows (+ store.unshipped_keep_days, 30).
			old := time.Now().AddDate(0, 0, -75)
			sqlitetest.RecordAt(t, st, "old", old, 4, []byte("{}"))
			sqlitetest.Exec(t, db, "UPDATE sessions SET updated_us = ? WHERE id = 'old'", old.UnixMicro())

			sessionStart := func() {
				t.Helper()
				if _, errs, code := runHook(t, strings.NewReader(payload("SessionStart", `"source":"startup"`)), "--harness", "claude"); code != 0 || errs != "" {
					t.Fatalf("SessionStart: exit %d, %s", code, errs)
				}
			}
			oldRows := func() (events int, session bool) {
				t.Helper()
				evs, err := st.Events(ctx, store.Filter{SessionID: "old"})
				if err != nil {
					t.Fatal(err)
				}
				s, err := st.Session(ctx, "old")
				if err != nil {
					t.Fatal(err)
				}
				return len(evs), s != nil
			}
			sessionStart()
			n, sess := oldRows()
			if !shared {
				if n != 0 || sess {
					t.Fatalf("no shared store: %d old events and session %v survived retention", n, sess)
				}
				checkChain(t, st, 1)
				return
			}
			if n != 4 || !sess {
				t.Fatalf("not shipped yet: retention left %d of 4 old events, session kept %v", n, sess)
			}

			// Ship everything to a shared store (a SQLite file stands in for
			// PostgreSQL: the marks are what retention reads), then prune
			// again: the old rows go, the newest rows stay.
			sh, err := ship.New(ship.Options{Spool: st, Dial: func(ctx context.Context) (ship.Target, error) {
				return sqlite.Open(ctx, filepath.Join(t.TempDir(), "shared.db"))
			}})
			if err != nil {
				t.Fatal(err)
			}
			if shipped, err := sh.Drain(ctx); err != nil || shipped != 5 {
				t.Fatalf("shipped %d events (%v), want the 4 old and the SessionStart", shipped, err)
			}
			sh.Close()
			if err := st.SetSetting(ctx, store.SettingLastPrune, "0"); err != nil { // prune at most once a day
				t.Fatal(err)
			}
			sessionStart()
			if n, sess := oldRows(); n != 0 || sess {
				t.Fatalf("shipped: %d old events and session %v survived retention", n, sess)
			}
			checkChain(t, st, 2)
		})
	}
}

// checkChain verifies the local audit chain holds want rows after
// retention and is unbroken from its anchor.
func checkChain(t *testing.T, st *sqlite.Store, want int64) {
	t.Helper()
	n, brk, err := st.VerifyChain(context.Background())
	if err != nil || brk != nil || n != want {
		t.Fatalf("audit chain after retention: %d rows (want %d), break %+v, %v", n, want, brk, err)
	}
}

// With a shared store configured but nothing shipping (the keeper off, no
// `warden serve`), retention still bounds the local store: rows older than
// retention_days + store.unshipped_keep_days (60 + 30 by default) go, on
// record; younger unshipped rows stay; the chain still verifies.
func TestRetentionBoundsWhatNeverShips(t *testing.T) {
	home, _ := env(t)
	t.Setenv("WARDEN_DATABASE_URL", "postgres://warden@127.0.0.1:1/warden") // never dialled
	ctx := context.Background()
	db := filepath.Join(home, "warden.db")
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, s := range []struct {
		id   string
		days int
	}{{"ancient", 100}, {"old", 75}} {
		then := time.Now().AddDate(0, 0, -s.days)
		sqlitetest.RecordAt(t, st, s.id, then, 3, []byte("{}"))
		sqlitetest.Exec(t, db, "UPDATE sessions SET updated_us = ? WHERE id = ?", then.UnixMicro(), s.id)
	}
	if _, errs, code := runHook(t, strings.NewReader(payload("SessionStart", `"source":"startup"`)), "--harness", "claude"); code != 0 || errs != "" {
		t.Fatalf("SessionStart: exit %d, %s", code, errs)
	}
	count := func(id string) int {
		t.Helper()
		evs, err := st.Events(ctx, store.Filter{SessionID: id})
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}
	if n := count("ancient"); n != 0 {
		t.Errorf("%d unshipped events past the bound survived", n)
	}
	if n := count("old"); n != 3 {
		t.Errorf("unshipped events within the bound: %d of 3 left", n)
	}
	drops, err := st.Drops(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(drops) != 1 || drops[0].Events != 3 || drops[0].Sessions != 1 || !strings.Contains(drops[0].Reason, "store.unshipped_keep_days") {
		t.Fatalf("drops on record: %+v", drops)
	}
	checkChain(t, st, 4) // the 3 old rows and the SessionStart
}
