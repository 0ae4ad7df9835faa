package doctor

import (
	"context"
	"strings"
	"testing"
)

// TestDoctorChecksTheFormAgainstClaudeCode: exec form on a Claude Code
// that predates it is a problem (no hook would take effect); shell form on
// one that runs exec form is a note; exec form on a new one is fine.
func TestDoctorChecksTheFormAgainstClaudeCode(t *testing.T) {
	e := newEnv(t)
	e.install(t, e.opts())
	doctor := func(version string) Report {
		return Run(context.Background(), Options{Cwd: e.project, ClaudeVersion: claudeSays(version)})
	}
	if r := doctor("2.1.330 (Claude Code)"); len(find(r, "hook form", "exec form")) != 1 {
		t.Errorf("exec form on 2.1.330:\n%s", reportText(r))
	}
	r := doctor("2.1.120 (Claude Code)")
	if got := find(r, "hook form", "Claude Code 2.1.120 ignores"); r.OK || len(got) != 1 || !strings.Contains(got[0].Fix, "warden install") {
		t.Errorf("exec form on 2.1.120 not a problem:\n%s", reportText(r))
	}

	o := e.opts()
	o.ClaudeVersion = claudeSays("2.1.120 (Claude Code)")
	e.install(t, o)
	r = doctor("2.1.330 (Claude Code)")
	if got := find(r, "hook form", "shell form"); !r.OK || len(got) != 1 || got[0].Level != LevelInfo {
		t.Errorf("shell form on 2.1.330:\n%s", reportText(r))
	}
}
