package helper_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/helper/cmds"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/postgres"
	"github.com/warden-dev/warden/internal/testenv"
)

// `warden audit verify --shared` walks the shared store's chain through
// warden-helper: two machines' shipped events verify; a row edited in the
// database is named; no store configured, or one that does not answer, is
// one line naming store.url / WARDEN_DATABASE_URL and the fix; a database
// without warden's schema is named with the fix, and nothing is migrated. --json says
// the same for scripts, and the exit code is 1 whenever the chain is not
// known to be intact.
func TestAuditVerifyShared(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	ctx := context.Background()
	dir := testenv.Binaries(t, "warden", "warden-helper")
	dbURL := testenv.Postgres(t)
	st, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	base := time.Date(2026, 11, 8, 10, 0, 0, 0, time.UTC)
	ship := func(origin string, ids ...int64) {
		var evs []store.Event
		for _, id := range ids {
			evs = append(evs, store.Event{ID: id, Time: base.Add(time.Duration(id) * time.Second), SessionID: origin, Event: "PreToolUse", Tool: "Bash"})
		}
		if _, err := st.ImportEvents(ctx, origin, evs); err != nil {
			t.Fatal(err)
		}
	}
	ship("machine-a", 1, 2, 3) // interleaved, as two shippers would
	ship("machine-b", 1, 2)
	ship("machine-a", 4)
	empty := testenv.Postgres(t) // no schema yet
	down := testenv.UnreachablePostgres(t)

	run := func(env, config string, args ...string) (stdout, stderr string, code int) {
		home := t.TempDir()
		if config != "" {
			if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(filepath.Join(dir, "warden"), append([]string{"audit", "verify", "--shared"}, args...)...)
		cmd.Env = append(os.Environ(), "WARDEN_HOME="+home, "HOME="+t.TempDir(), "WARDEN_DATABASE_URL="+env)
		return testenv.Run(t, cmd)
	}
	asJSON := func(out string) cmds.SharedAudit {
		t.Helper()
		var r cmds.SharedAudit
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("--json printed %q: %v", out, err)
		}
		return r
	}

	out, errs, code := run(dbURL, "")
	if code != 0 || !strings.Contains(out, "shared audit chain intact: 6 rows checked in PostgreSQL ") || !strings.Contains(out, "(from WARDEN_DATABASE_URL)") {
		t.Errorf("intact chain: exit %d\n%s%s", code, out, errs)
	}
	out, _, code = run("", fmt.Sprintf("[store]\nurl = %q\n", dbURL), "--json")
	if r := asJSON(out); code != 0 || !r.OK || r.Checked != 6 || r.Break != nil || r.From != "store.url" || r.Where == "" {
		t.Errorf("intact chain from store.url, --json: exit %d %+v", code, r)
	}

	if _, err := st.Pool().Exec(ctx, "UPDATE events SET reason = 'edited' WHERE id = 4"); err != nil {
		t.Fatal(err)
	}
	out, _, code = run(dbURL, "")
	if code != 1 || !strings.Contains(out, "shared audit chain BROKEN at row 4") {
		t.Errorf("edited row: exit %d\n%s", code, out)
	}
	out, _, code = run(dbURL, "", "--json")
	if r := asJSON(out); code != 1 || r.OK || r.Break == nil || r.Break.ID != 4 || r.Checked != 4 { // the walk counts the row it stopped at, as the local one does
		t.Errorf("edited row, --json: exit %d %+v", code, r)
	}

	for _, c := range []struct {
		name, env string
		want      []string
	}{
		{"none configured", "", []string{"no shared store configured", "store.url", "WARDEN_DATABASE_URL", "postgres://USER:PASSWORD@HOST:5432/DATABASE"}},
		{"down", down, []string{"cannot reach PostgreSQL", "store.url / WARDEN_DATABASE_URL"}},
		{"not migrated", empty, []string{"schema version 0, this warden expects", "run warden serve"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := run(c.env, "")
			if code != 1 || out != "" || strings.Count(strings.TrimSpace(errs), "\n") > 0 || strings.Contains(errs, ":pw@") {
				t.Errorf("exit %d, want 1 and one line on stderr without the password:\n%s%s", code, out, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q: %s", w, errs)
				}
			}
			out, _, code = run(c.env, "", "--json")
			if r := asJSON(out); code != 1 || r.OK || !strings.Contains(r.Error, c.want[1]) {
				t.Errorf("--json: exit %d %+v", code, r)
			}
		})
	}
	probe, err := postgres.Connect(ctx, empty)
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	if v, err := probe.SchemaVersion(ctx); err != nil || v != 0 {
		t.Errorf("the database without a schema has version %d (%v) after the verify; want it left alone", v, err)
	}
}
