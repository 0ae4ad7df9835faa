//go:build unix

package ship_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/ship"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/testenv"
)

// A shared store that refuses the password never takes a row. Through the
// binaries (`warden ship` running as the keeper runs it, default
// retention_days 60 and store.unshipped_keep_days 30): the failure is
// told apart as permanent (the shipper's log, `warden ship --status`,
// doctor name store.url and say retrying will not mend it, and the keeper
// will not stay for the backlog); rows older than 90 days go although
// never shipped, on record with their count and ids, while those between
// 60 and 90 days stay; the local chain still verifies. With the password
// fixed, what is left ships and the permanent mark clears.
func TestWrongPasswordIsBoundedAndOnRecord(t *testing.T) {
	t.Parallel()
	srv := testenv.NewPostgres(t)
	if err := srv.RequirePassword("right-pw"); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(srv.URL("postgres"))
	u.User = url.UserPassword("postgres", "wrong-pw")
	wrong := u.String()
	u.User = url.UserPassword("postgres", "right-pw")
	right := u.String()

	h := newHome(t, wrong)
	h.env = append(h.env, "WARDEN_KEEPER=off") // only the shipper below ships
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(h.dir, ".warden", "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	record := func(sess string, at time.Time, n int) { sqlitetest.RecordAt(t, st, sess, at, n, nil) }
	now := time.Now()
	record("ancient", now.AddDate(0, 0, -120), 3) // past 60 + 30 days: goes
	record("old", now.AddDate(0, 0, -75), 2)      // past retention only: stays, unshipped
	record("new", now, 1)

	// The shipper as the keeper runs it: warden-helper, until its stdin
	// closes.
	var log bytes.Buffer
	sh := exec.Command(filepath.Join(filepath.Dir(h.front), "warden-helper"), "ship", "--until-stdin-closes")
	sh.Env, sh.Dir, sh.Stdout, sh.Stderr = h.env, h.proj, &log, &log
	stdin, err := sh.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sh.Process.Kill(); sh.Wait() })
	var rep ship.Report
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		out, _ := h.run(nil, "ship", "--status", "--json")
		rep = ship.Report{}
		// The report's reads are not one snapshot: one taken while the
		// pruning commits can list the drop with the backlog from before
		// it. Wait for a report taken after.
		if json.Unmarshal(out, &rep) == nil && rep.Permanent && rep.Retrying != "" && len(rep.Dropped) == 1 && rep.Backlog <= 3 {
			break
		}
		if time.Now().After(deadline) {
			stdin.Close()
			sh.Wait()
			t.Fatalf("no permanent failure and pruning on record: %+v\nshipper log:\n%s", rep, log.String())
		}
	}
	d := rep.Dropped[0]
	if d.Events != 3 || d.FirstID != 1 || d.LastID != 3 || d.Sessions != 0 || !strings.Contains(d.Reason, "refused the login") ||
		!strings.Contains(d.Reason, "store.unshipped_keep_days (30 days)") {
		t.Errorf("the pruning on record: %+v", d)
	}
	if !strings.Contains(rep.Retrying, "fix the user or password in store.url / WARDEN_DATABASE_URL") || strings.Contains(rep.Retrying, "wrong-pw") {
		t.Errorf("the failure on record: %q", rep.Retrying)
	}
	if rep.Backlog != 3 || rep.KeptEvents != 2 {
		t.Errorf("after the bound: backlog %d, kept past retention %d; want 3 (2 old + 1 new) and 2", rep.Backlog, rep.KeptEvents)
	}
	for sess, want := range map[string]int{"ancient": 0, "old": 2, "new": 1} {
		evs, err := st.Events(ctx, store.Filter{SessionID: sess})
		if err != nil || len(evs) != want {
			t.Errorf("session %s: %d events (%v), want %d", sess, len(evs), err, want)
		}
	}
	if n, brk, err := st.VerifyChain(ctx); err != nil || brk != nil || n != 3 {
		t.Errorf("local chain after the bound: %d rows, %+v, %v", n, brk, err)
	}
	out, _ := h.run(nil, "ship", "--status")
	for _, w := range []string{"retrying will not mend this", "3 event(s) (ids 1–3", "never shipped were pruned"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("warden ship --status lacks %q:\n%s", w, out)
		}
	}
	checks := h.doctor(t)
	if c := checks["shared store"]; c.Level != "warn" || !strings.Contains(c.Fix, "retrying will not mend this") || !strings.Contains(c.Fix, "(90 days)") {
		t.Errorf("doctor's shared store line: %+v", c)
	}
	if c := checks["unshipped rows pruned"]; c.Level != "warn" || !strings.Contains(c.Detail, "ids 1–3") || !strings.Contains(c.Fix, "store.unshipped_keep_days") {
		t.Errorf("doctor's pruning line: %+v", c)
	}
	pin, err := st.Pin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stuck, err := pin.ShipStuck(ctx); err != nil || !stuck {
		t.Errorf("the keeper would stay for a backlog that cannot drain: stuck=%v %v", stuck, err)
	}
	stdin.Close()
	if err := sh.Wait(); err != nil { // the log is read only after this
		t.Errorf("the shipper on stdin's close: %v\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), "retrying will not help") {
		t.Errorf("the shipper's log does not call the failure permanent:\n%s", log.String())
	}

	// The password fixed: the rest ships and the mark clears.
	if out, err := h.run([]string{"WARDEN_DATABASE_URL=" + right}, "ship", "--once"); err != nil || !strings.Contains(string(out), "shipped 3 event(s)") {
		t.Fatalf("warden ship --once with the right password: %v\n%s", err, out)
	}
	if stuck, err := pin.ShipStuck(ctx); err != nil || stuck {
		t.Errorf("still marked permanent after shipping: %v %v", stuck, err)
	}
	pin.Close()
}
