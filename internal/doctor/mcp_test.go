package doctor

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/install"
)

// doctor checks the registration: fine without one, a problem when the
// warden it names is gone or has no warden-helper beside it.
func TestDoctorChecksMCPRegistration(t *testing.T) {
	e := newEnv(t)
	os.MkdirAll(e.project, 0o755)
	if c := find(e.doctor(t), "mcp server", "not registered"); len(c) != 1 || !c[0].OK {
		t.Errorf("no registration: %+v", c)
	}
	bin := filepath.Join(t.TempDir(), "warden")
	os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
	if _, err := install.InitMCP(e.project, bin, false, time.Now()); err != nil {
		t.Fatal(err)
	}
	if c := find(e.doctor(t), "mcp server", "warden-helper is missing"); len(c) != 1 || c[0].OK {
		t.Errorf("without warden-helper: %+v", e.doctor(t).Checks)
	}
	os.WriteFile(filepath.Join(filepath.Dir(bin), "warden-helper"), []byte("#!/bin/sh\n"), 0o755)
	if c := find(e.doctor(t), "mcp server", "registered in"); len(c) != 1 || !c[0].OK {
		t.Errorf("complete: %+v", e.doctor(t).Checks)
	}
	os.Remove(bin)
	if c := find(e.doctor(t), "mcp server", "does not exist"); len(c) != 1 || c[0].OK {
		t.Errorf("binary gone: %+v", e.doctor(t).Checks)
	}
}
