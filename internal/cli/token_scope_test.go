package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

// token create --scope/--expires stores both, list shows them; a token
// made without --scope gets tasks; a bad scope or expiry is refused and
// stores nothing.
func TestTokenCreateScopeExpiry(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	out, errs, code := runCLI(t, "token", "create", "--json", "--scope", "read", "--expires", "30d", "grafana")
	var made struct {
		ID, Token, Scope string
		Expires          *time.Time
	}
	if code != 0 || json.Unmarshal([]byte(out), &made) != nil || made.Scope != "read" || made.Expires == nil {
		t.Fatalf("create: %d %s %s", code, out, errs)
	}
	st := sqlitetest.Store(t, paths.DB())
	got, err := st.TokenByHash(context.Background(), store.HashAPIToken(made.Token))
	if err != nil || got == nil || got.Scope != "read" || got.Expires == nil || !got.Expires.Equal(got.Created.AddDate(0, 0, 30)) {
		t.Fatalf("stored %+v %v; want scope read expiring 30 days after creation", got, err)
	}
	if out, _, code := runCLI(t, "token", "create", "phone"); code != 0 || !strings.Contains(out, "scope tasks, never expiring") {
		t.Errorf("default scope: %d %s", code, out)
	}
	out, _, _ = runCLI(t, "token", "list")
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || !strings.Contains(lines[0], "SCOPE") || !strings.Contains(lines[0], "EXPIRES") ||
		!strings.Contains(lines[1], "grafana") || !strings.Contains(lines[1], " read ") || !strings.Contains(lines[1], got.Expires.Local().Format("2006-01-02")) ||
		!strings.Contains(lines[2], "phone") || !strings.Contains(lines[2], " tasks ") {
		t.Errorf("list:\n%s", out)
	}
	for _, bad := range [][]string{{"--scope", "root"}, {"--scope", "webhook:github"}, {"--expires", "soon"}, {"--expires", "0d"}} {
		args := append([]string{"token", "create"}, append(bad, "x")...)
		if _, errs, code := runCLI(t, args...); code == 0 || !strings.Contains(errs, bad[0]) {
			t.Errorf("%v: %d %s", bad, code, errs)
		}
	}
	if all, _ := st.Tokens(context.Background()); len(all) != 2 {
		t.Errorf("%d tokens stored; refused creates stored some", len(all))
	}
}
