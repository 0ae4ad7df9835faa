package install

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/hookio"
)

// TestInstallPicksTheFormClaudeCodeRuns: exec form from the release that
// added "args" on, shell form before it and when the version is unknown,
// and install says which and why.
func TestInstallPicksTheFormClaudeCodeRuns(t *testing.T) {
	for _, c := range []struct {
		name    string
		version func(context.Context) (string, error)
		want    HookForm
		say     string
	}{
		{"pinned", claudeSays("2.1.330 (Claude Code)"), ExecForm, "hooks: exec form (Claude Code 2.1.330"},
		{"first with args", claudeSays("2.1.139 (Claude Code)"), ExecForm, "hooks: exec form"},
		{"last without", claudeSays("2.1.138 (Claude Code)"), ShellForm, "Claude Code 2.1.138 predates exec form"},
		{"older major", claudeSays("1.0.126 (Claude Code)"), ShellForm, "predates exec form"},
		{"not on PATH", func(context.Context) (string, error) { return "", ErrClaudeNotFound }, ShellForm, "Claude Code's version is unknown: claude is not on PATH"},
		{"unreadable", claudeSays("Claude Code nightly"), ShellForm, `cannot read Claude Code's version from "Claude Code nightly"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			o := e.opts()
			o.ClaudeVersion = c.version
			res := e.install(t, o)
			if res.Form != c.want || !strings.Contains(e.out.String(), c.say) {
				t.Errorf("form %v, output:\n%s\nwant %v and %q", res.Form, e.out, c.want, c.say)
			}
			s, err := ReadSettings(e.userSettings())
			if err != nil {
				t.Fatal(err)
			}
			for ev, hs := range Registered(s) {
				if len(hs) != 1 || hs[0].Exec() != (c.want == ExecForm) {
					t.Errorf("%s: %+v, want one handler in %v", ev, hs, c.want)
				}
			}
			// The status line has no exec form in any release.
			if cmd, _ := statusLineCommand(s); cmd != e.bin()+" statusline" {
				t.Errorf("status line %q", cmd)
			}
		})
	}
}

// oldInstall is what an install before exec form wrote: shell-form
// handlers, beside another tool's hooks.
func oldInstall(bin string) string {
	var b strings.Builder
	b.WriteString("{\n  \"hooks\": {\n    \"PreToolUse\": [\n      { \"matcher\": \"Bash\", \"hooks\": [ { \"type\": \"command\", \"command\": \"~/.other/guard.py --strict\", \"timeout\": 15 } ] }")
	for i, ev := range hookio.Installed() {
		if i > 0 {
			b.WriteString(",\n    \"" + string(ev) + "\": [\n     ")
		} else {
			b.WriteString(",\n     ")
		}
		b.WriteString(` { "hooks": [ { "type": "command", "command": "` + bin + ` hook --harness claude", "timeout": ` + strconv.Itoa(hookio.SpecFor(ev).Timeout) + ` } ] }`)
		b.WriteString("\n    ]")
	}
	b.WriteString("\n  },\n  \"model\": \"opus\"\n}\n")
	return b.String()
}

// TestInstallUpgradesShellFormInPlace: an install in shell form becomes
// exec form on the next install, handler by handler where it stands; the
// other tool's hook and every other key stay byte for byte; a second run
// changes nothing; an older Claude Code gets shell form back.
func TestInstallUpgradesShellFormInPlace(t *testing.T) {
	e := newEnv(t)
	old := oldInstall(e.bin())
	writeFile(t, e.userSettings(), old)
	before, err := ReadSettings(e.userSettings())
	if err != nil {
		t.Fatal(err)
	}
	locs := map[string]string{}
	for ev, hs := range Registered(before) {
		if len(hs) != 1 || hs[0].Exec() {
			t.Fatalf("fixture %s: %+v", ev, hs)
		}
		locs[ev] = hs[0].Loc.String()
	}

	o := e.opts()
	o.NoStatusLine = true
	res := e.install(t, o)
	if !res.Changed || res.Form != ExecForm {
		t.Fatalf("upgrade: %+v\n%s", res, e.out)
	}
	if !strings.Contains(e.out.String(), "update it for ") {
		t.Errorf("summary does not say the handlers were updated:\n%s", e.out)
	}
	after := readFile(t, e.userSettings())
	s, err := ReadSettings(e.userSettings())
	if err != nil {
		t.Fatal(err)
	}
	for ev, hs := range Registered(s) {
		if len(hs) != 1 || !hs[0].Exec() || hs[0].Command != e.bin() || !slices.Equal(hs[0].Args, hookArgs) || hs[0].Loc.String() != locs[ev] {
			t.Errorf("%s: %+v, want exec form at %s", ev, hs, locs[ev])
		}
	}
	if b, a := subtree(t, []byte(old), "model"), subtree(t, after, "model"); a != b {
		t.Errorf("model changed: %s → %s", b, a)
	}
	// The other tool's line is the same bytes in the file.
	if !strings.Contains(string(after), `{ "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/.other/guard.py --strict", "timeout": 15 } ] }`) {
		t.Errorf("the other tool's hook was rewritten:\n%s", after)
	}

	e.out.Reset()
	if res := e.install(t, o); res.Changed {
		t.Errorf("second install changed the settings:\n%s", e.out)
	}

	o.ClaudeVersion = claudeSays("2.1.100 (Claude Code)")
	e.out.Reset()
	if res := e.install(t, o); !res.Changed || res.Form != ShellForm {
		t.Fatalf("downgrade: %+v\n%s", res, e.out)
	}
	if got := readFile(t, e.userSettings()); !equalJSON(t, got, []byte(old)) {
		t.Errorf("shell form again should be the old install's settings:\n%s", got)
	}
}

// TestUninstallRemovesEitherForm: uninstall finds warden's handlers in
// both forms, and leaves the other tool's hooks.
func TestUninstallRemovesEitherForm(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.userSettings(), `{
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "/opt/warden/bin/warden", "args": ["hook", "--harness", "claude"] } ] },
      { "hooks": [ { "type": "command", "command": "/usr/local/bin/warden hook" } ] },
      { "hooks": [ { "type": "command", "command": "/usr/bin/notify-send", "args": ["done"] } ] }
    ]
  }
}
`)
	e.uninstall(t, e.opts())
	got := readFile(t, e.userSettings())
	if strings.Contains(string(got), "warden") || !strings.Contains(string(got), `"args": ["done"]`) {
		t.Errorf("after uninstall:\n%s", got)
	}
}

// TestExecFormProgramChecked: doctor's missing-program check and
// `doctor --fix` read an exec-form handler's program from "command".
func TestExecFormProgramChecked(t *testing.T) {
	e := newEnv(t)
	good := filepath.Join(e.home, "bin", "guard")
	writeFile(t, good, "#!/bin/sh\n")
	if err := os.Chmod(good, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, e.userSettings(), `{
  "hooks": {
    "PreToolUse": [
      { "hooks": [
        { "type": "command", "command": "`+good+`", "args": ["--strict"] },
        { "type": "command", "command": "/gone/guard", "args": ["--strict", "it's"] }
      ] }
    ]
  }
}
`)
	s, err := ReadSettings(e.userSettings())
	if err != nil {
		t.Fatal(err)
	}
	bad := CheckCommands(s, Env{Cwd: e.project})
	if len(bad) != 1 || bad[0].Command != `/gone/guard --strict 'it'\''s'` || !strings.Contains(bad[0].Reason, "/gone/guard does not exist") {
		t.Fatalf("CheckCommands = %+v", bad)
	}
	o := e.opts()
	o.Yes = true
	if n, err := FixBroken(context.Background(), o); err != nil || n != 1 {
		t.Fatalf("FixBroken = %d, %v\n%s", n, err, e.out)
	}
	got := string(readFile(t, e.userSettings()))
	if strings.Contains(got, "/gone/guard") || !strings.Contains(got, good) {
		t.Errorf("after --fix:\n%s", got)
	}
}

// TestRemoveForeignSeesExecForm: another tool's hooks are matched on the
// whole line in either form.
func TestRemoveForeignSeesExecForm(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.userSettings(), `{
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "bash", "args": ["/opt/tool/stop.sh"] } ] },
      { "hooks": [ { "type": "command", "command": "bash /opt/tool/stop.sh" } ] },
      { "hooks": [ { "type": "command", "command": "bash", "args": ["/opt/mine/stop.sh"] } ] }
    ]
  }
}
`)
	o := e.opts()
	o.Yes = true
	removed, err := RemoveForeign(context.Background(), o, "tool", func(ev, cmd string) bool {
		return ev == "Stop" && strings.Contains(cmd, "/opt/tool/")
	})
	if err != nil || len(removed) != 2 || removed[0].Command != "bash /opt/tool/stop.sh" {
		t.Fatalf("removed %+v, %v", removed, err)
	}
	if got := string(readFile(t, e.userSettings())); strings.Contains(got, "/opt/tool/") || !strings.Contains(got, "/opt/mine/") {
		t.Errorf("after:\n%s", got)
	}
}
