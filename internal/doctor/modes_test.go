package doctor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Doctor says when warden's home or its files can be read by other users
// (a home made by hand with 0755, a config written with the umask), and
// its fix, run as given, makes the check pass.
func TestDoctorFindsLooseModes(t *testing.T) {
	e := newEnv(t)
	e.install(t, e.opts())
	if r := e.doctor(t); len(find(r, "modes", "yours alone")) != 1 {
		t.Fatalf("after install, modes not ok:\n%s", reportText(r))
	}
	cfg := filepath.Join(e.wardenHome, "config.toml")
	if err := os.WriteFile(cfg, []byte("retention_days = 30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(e.wardenHome, 0o755); err != nil {
		t.Fatal(err)
	}
	r := e.doctor(t)
	got := find(r, "modes", "other users can read")
	if len(got) != 1 || got[0].Level != LevelWarn || !strings.Contains(got[0].Detail, e.wardenHome+" is 0755") ||
		!strings.Contains(got[0].Detail, cfg+" is 0644") {
		t.Fatalf("loose modes not reported:\n%s", reportText(r))
	}
	if out, err := exec.Command("sh", "-c", got[0].Fix).CombinedOutput(); err != nil {
		t.Fatalf("fix %q: %v\n%s", got[0].Fix, err, out)
	}
	if r := e.doctor(t); len(find(r, "modes", "yours alone")) != 1 {
		t.Errorf("after the fix:\n%s", reportText(r))
	}
}
