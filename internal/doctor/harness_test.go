package doctor

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/harness"
)

// Doctor says when Codex would skip warden's hook.
func TestDoctorSaysCodexSkipsAnUntrustedHook(t *testing.T) {
	e := newEnv(t)
	o := e.opts()
	o.Harness = harness.Codex
	e.install(t, o)
	check := func() Check {
		for _, c := range Run(t.Context(), Options{Cwd: e.project}).Checks {
			if c.Name == "codex" {
				return c
			}
		}
		t.Fatal("no codex line")
		return Check{}
	}
	if c := check(); c.Level != LevelOK {
		t.Fatalf("after install: %+v", c)
	}
	cfg := filepath.Join(e.home, ".codex", "config.toml")
	writeFile(t, cfg, strings.Replace(string(readFile(t, cfg)), "sha256:", "sha256:0", 1))
	if c := check(); c.Level != LevelError || !strings.Contains(c.Detail, "skips") || !strings.Contains(c.Fix, "install --harness codex") {
		t.Fatalf("after a changed hash: %+v", c)
	}
}
