package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
	"github.com/warden-dev/warden/internal/testenv"
)

// A token is shown once, kept only as its hash, listed without it, and
// revoked by name; bad names and unknown tokens are refused.
func TestTokenCreateListRevoke(t *testing.T) {
	t.Setenv("WARDEN_HOME", t.TempDir())
	out, _, code := runCLI(t, "token", "create", "--json", "grafana")
	var made struct{ ID, Name, Token string }
	if code != 0 || json.Unmarshal([]byte(out), &made) != nil || !strings.HasPrefix(made.Token, store.APITokenPrefix) {
		t.Fatalf("create: %d %s", code, out)
	}
	st := sqlitetest.Store(t, paths.DB())
	got, err := st.TokenByHash(context.Background(), store.HashAPIToken(made.Token))
	if err != nil || got == nil || got.Name != "grafana" {
		t.Fatalf("stored token %+v %v", got, err)
	}
	b, _ := os.ReadFile(paths.DB())
	if strings.Contains(string(b), made.Token) {
		t.Error("the token itself is in the store file")
	}
	out, _, _ = runCLI(t, "token", "list")
	if !strings.Contains(out, "grafana") || !strings.Contains(out, "active") || strings.Contains(out, made.Token) {
		t.Errorf("list:\n%s", out)
	}
	if _, errs, code := runCLI(t, "token", "create", "bad/name"); code == 0 || !strings.Contains(errs, "use 1–64 letters") {
		t.Errorf("bad name: %d %s", code, errs)
	}
	if out, _, code := runCLI(t, "token", "revoke", "grafana"); code != 0 || !strings.Contains(out, "revoked 1") {
		t.Errorf("revoke: %d %s", code, out)
	}
	if got, _ := st.TokenByHash(context.Background(), store.HashAPIToken(made.Token)); got != nil {
		t.Error("a revoked token still answers")
	}
	if _, errs, code := runCLI(t, "token", "revoke", "grafana"); code == 0 || !strings.Contains(errs, "no active token") {
		t.Errorf("second revoke: %d %s", code, errs)
	}
}

// logs daemon prints the last lines, and -f follows appends across a
// rotation.
func TestTailDaemonLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "daemon.log")
	os.WriteFile(path, []byte("l1\nl2\nl3\n"), 0o600)
	var b strings.Builder
	if err := tailLog(context.Background(), &b, path, 2, false); err != nil || b.String() != "l2\nl3\n" {
		t.Fatalf("tail: %v %q", err, b.String())
	}
	if err := tailLog(context.Background(), &b, path+".none", 2, false); err == nil || !strings.Contains(err.Error(), "warden serve") {
		t.Errorf("missing log: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	followed := &testenv.Buffer{}
	done := make(chan error, 1)
	go func() { done <- tailLog(ctx, followed, path, 1, true) }()
	waitText(t, followed, "l3\n")
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("l4\n")
	f.Close()
	waitText(t, followed, "l3\nl4\n")
	os.Rename(path, path+".1") // rotated: a new file from its start
	os.WriteFile(path, []byte("n1\n"), 0o600)
	waitText(t, followed, "l3\nl4\nn1\n")
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
}

func waitText(t *testing.T, l *testenv.Buffer, want string) {
	t.Helper()
	testenv.WaitFor(t, 10*time.Second, fmt.Sprintf("%q to be followed", want),
		func() bool { return l.String() == want },
		func() string { return fmt.Sprintf("followed %q", l.String()) })
}
