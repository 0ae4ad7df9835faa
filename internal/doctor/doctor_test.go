package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/install"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

func (e *testEnv) doctor(t *testing.T) Report {
	t.Helper()
	return Run(context.Background(), Options{
		Cwd:           e.project,
		ClaudeVersion: func(context.Context) (string, error) { return "2.1.330 (Claude Code)", nil },
	})
}

func reportText(r Report) string {
	var b bytes.Buffer
	r.WriteText(&b)
	return b.String()
}

// find returns the checks whose name and detail contain the strings.
func find(r Report, name, detail string) []Check {
	var out []Check
	for _, c := range r.Checks {
		if c.Name == name && strings.Contains(c.Detail, detail) {
			out = append(out, c)
		}
	}
	return out
}

func TestDoctorOKAfterInstall(t *testing.T) {
	e := newEnv(t)
	e.install(t, e.opts())
	r := e.doctor(t)
	if !r.OK {
		t.Fatalf("doctor after install is not ok:\n%s", reportText(r))
	}
	if len(find(r, "settings user", "registered for all")) != 1 || len(find(r, "claude", "2.1.330")) != 1 {
		t.Errorf("expected checks missing:\n%s", reportText(r))
	}
	if !strings.Contains(reportText(r), "\nAll good.") {
		t.Errorf("text report:\n%s", reportText(r))
	}
}

func TestDoctorFindsMissingExecutableAndRegistration(t *testing.T) {
	e := newEnv(t)
	e.install(t, e.opts())
	// Project settings: a typo in another tool's guard, and warden
	// registered for one event only with a millisecond timeout.
	projectSettings := filepath.Join(e.project, ".claude", "settings.json")
	writeFile(t, projectSettings, `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [
        { "type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/gaurd.sh" },
        { "type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/ok.sh" },
        { "type": "command", "command": "`+e.bin()+` hook", "timeout": 60000 }
      ] }
    ]
  }
}`)
	writeFile(t, filepath.Join(e.project, ".claude", "hooks", "ok.sh"), "#!/bin/sh\n")
	os.Chmod(filepath.Join(e.project, ".claude", "hooks", "ok.sh"), 0o755)

	r := e.doctor(t)
	if r.OK {
		t.Fatalf("doctor is ok:\n%s", reportText(r))
	}
	bad := find(r, "hook command", "gaurd.sh")
	if len(bad) != 1 || bad[0].OK || bad[0].Fix == "" {
		t.Fatalf("missing executable not reported as a problem with a fix:\n%s", reportText(r))
	}
	for _, want := range []string{projectSettings, "hooks.PreToolUse[0].hooks[0]", filepath.Join(e.project, ".claude/hooks/gaurd.sh") + " does not exist"} {
		if !strings.Contains(bad[0].Detail, want) {
			t.Errorf("detail %q lacks %q", bad[0].Detail, want)
		}
	}
	if len(find(r, "hook command", "ok.sh")) != 0 {
		t.Errorf("an existing script was reported:\n%s", reportText(r))
	}
	reg := find(r, "settings project", "not registered for PostToolUse")
	if len(reg) != 1 || reg[0].OK || !strings.Contains(reg[0].Fix, "warden install --scope project") {
		t.Fatalf("missing registration not reported:\n%s", reportText(r))
	}
	if !strings.Contains(reg[0].Detail, "looks like milliseconds") {
		t.Errorf("millisecond timeout not reported: %s", reg[0].Detail)
	}

	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		OK     bool `json:"ok"`
		Checks []struct {
			Name, Detail, Fix string
			OK                bool
		} `json:"checks"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil || got.OK || len(got.Checks) != len(r.Checks) {
		t.Errorf("JSON report: %v\n%s", err, b.String())
	}
}

func TestDoctorProblemsWithoutInstall(t *testing.T) {
	e := newEnv(t)
	writeFile(t, filepath.Join(e.project, ".claude", "settings.local.json"), "{\n  \"hooks\": {,}\n}")
	r := e.doctor(t)
	if r.OK {
		t.Fatalf("doctor ok without an install:\n%s", reportText(r))
	}
	for _, c := range []struct{ name, detail string }{
		{"binary", "does not exist"},
		{"registration", "not registered in any settings file"},
		{"store", "no event store"},
		{"settings local", "settings.local.json:2:13: invalid JSON"},
	} {
		got := find(r, c.name, c.detail)
		if len(got) != 1 || got[0].OK || got[0].Fix == "" {
			t.Errorf("want a problem %s %q with a fix:\n%s", c.name, c.detail, reportText(r))
		}
	}
}

func TestDoctorClaudeNotFoundIsANote(t *testing.T) {
	e := newEnv(t)
	e.install(t, e.opts())
	r := Run(context.Background(), Options{
		Cwd:           e.project,
		ClaudeVersion: func(context.Context) (string, error) { return "", install.ErrClaudeNotFound },
	})
	if !r.OK || len(find(r, "claude", "not found on PATH")) != 1 {
		t.Errorf("claude missing should be a note:\n%s", reportText(r))
	}
}

func TestDoctorWardenTwice(t *testing.T) {
	e := newEnv(t)
	e.install(t, e.opts())
	// The same command in the local scope is deduplicated by Claude Code:
	// fine. Another spelling of it runs warden twice: a problem.
	o := e.opts()
	o.Scope = install.Local
	e.install(t, o)
	if r := e.doctor(t); !r.OK {
		t.Fatalf("identical registrations in two scopes reported:\n%s", reportText(r))
	}
	local := filepath.Join(e.project, ".claude", "settings.local.json")
	data := strings.ReplaceAll(string(readFile(t, local)), `["hook","--harness","claude"]`, `["hook"]`)
	writeFile(t, local, data)
	r := e.doctor(t)
	got := find(r, "registration", "warden runs twice for PreToolUse")
	if r.OK || len(got) != 1 || !strings.Contains(got[0].Fix, "warden uninstall --scope local") {
		t.Errorf("double registration not reported:\n%s", reportText(r))
	}
}

func TestDoctorReportsBrokenChainAndLooseKey(t *testing.T) {
	e := newEnv(t)
	e.install(t, e.opts())
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(e.wardenHome, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		st.RecordHook(ctx, &store.Event{Event: "Stop", SessionID: "s"}, nil)
	}
	sqlitetest.Exec(t, st.Path(), "DELETE FROM events WHERE id = 2")
	st.Close()
	key := filepath.Join(e.wardenHome, "keys", "state.key")
	writeFile(t, key, "00")
	os.Chmod(key, 0o644)
	r := Run(ctx, Options{Cwd: e.project, ClaudeVersion: func(context.Context) (string, error) { return "", install.ErrClaudeNotFound }})
	var chain, keyCheck *Check
	for i := range r.Checks {
		switch r.Checks[i].Name {
		case "audit chain":
			chain = &r.Checks[i]
		case "state key":
			keyCheck = &r.Checks[i]
		}
	}
	if r.OK || chain == nil || chain.OK || !strings.Contains(chain.Detail, "row 3") {
		t.Errorf("audit chain check: %+v", chain)
	}
	if keyCheck == nil || keyCheck.OK || !strings.Contains(keyCheck.Fix, "chmod 600") {
		t.Errorf("state key check: %+v", keyCheck)
	}
}
