package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/paths"
)

// The shared store's URL set in the installing shell reaches the service
// (it ran on SQLite without a word before); the unit file holding it is
// 0600 and a dry run does not print it.
func TestServiceInstallCarriesTheSharedStoreURL(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("WARDEN_HOME", filepath.Join(home, ".warden"))
	const url = "postgres://warden:s3cret@db.internal:5432/warden"
	t.Setenv("WARDEN_DATABASE_URL", url)
	if err := os.MkdirAll(filepath.Dir(paths.Bin()), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(paths.Bin(), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}

	out, errs, code := runCLI(t, "service", "install", "--format", "systemd", "--dry-run")
	if code != 0 || strings.Contains(out, "s3cret") || !strings.Contains(out, "WARDEN_DATABASE_URL=") {
		t.Fatalf("dry run: code %d\n%s\n%s", code, out, errs)
	}

	out, errs, code = runCLI(t, "service", "install", "--format", "systemd", "--no-start")
	if code != 0 || !strings.Contains(out, "shared store from WARDEN_DATABASE_URL") {
		t.Fatalf("install: code %d\n%s\n%s", code, out, errs)
	}
	unit := filepath.Join(home, ".config", "systemd", "user", "warden.service")
	b, err := os.ReadFile(unit)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "WARDEN_DATABASE_URL="+url) {
		t.Errorf("the unit does not carry the URL:\n%s", b)
	}
	if fi, _ := os.Stat(unit); fi.Mode().Perm() != 0o600 {
		t.Errorf("unit mode %v, want 0600", fi.Mode().Perm())
	}
}
