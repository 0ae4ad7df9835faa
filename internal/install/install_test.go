package install

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/hookio"
	"github.com/warden-dev/warden/internal/sibling"
)

func TestInstallFresh(t *testing.T) {
	e := newEnv(t)
	res := e.install(t, e.opts())

	if !res.Changed || !res.BinaryCopied || !res.StoreCreated || res.Backup != "" {
		t.Errorf("result = %+v, want changed, binary copied, store created, no backup", res)
	}
	data := readFile(t, e.userSettings())
	fi, _ := os.Stat(e.userSettings())
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("new settings mode = %v, want 0644", fi.Mode().Perm())
	}
	s, err := ReadSettings(e.userSettings())
	if err != nil {
		t.Fatal(err)
	}
	reg := Registered(s)
	if missing := Missing(reg); len(missing) > 0 {
		t.Errorf("missing events after install: %v", missing)
	}
	for _, ev := range hookio.Installed() {
		hs := reg[string(ev)]
		if len(hs) != 1 {
			t.Fatalf("%s: %d warden handlers, want 1", ev, len(hs))
		}
		if want := hookio.SpecFor(ev).Timeout; hs[0].Timeout != float64(want) {
			t.Errorf("%s timeout = %v, want %d", ev, hs[0].Timeout, want)
		}
		if hs[0].Command != e.bin() || !slices.Equal(hs[0].Args, hookArgs) {
			t.Errorf("%s: %q %q, want exec form %q %q", ev, hs[0].Command, hs[0].Args, e.bin(), hookArgs)
		}
	}
	if got := subtree(t, data, "statusLine"); got != `{"command":"`+e.bin()+` statusline","padding":0,"type":"command"}` {
		t.Errorf("statusLine = %s", got)
	}
	if !strings.HasPrefix(string(data), "{\n  \"hooks\": {\n    \"PreToolUse\": [") || !strings.HasSuffix(string(data), "}\n") {
		t.Errorf("want 2-space indented output ending in a newline, got:\n%.200s", data)
	}

	bin, err := os.Stat(e.bin())
	if err != nil || bin.Mode().Perm() != 0o755 || string(readFile(t, e.bin())) != string(readFile(t, e.source)) {
		t.Errorf("binary not installed as a 0755 copy: %v %v", err, bin)
	}
	if _, err := os.Stat(filepath.Join(e.wardenHome, "warden.db")); err != nil {
		t.Errorf("store not created: %v", err)
	}
	for _, want := range []string{"settings: set the status line to warden's", "restart Claude Code"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, e.out)
		}
	}
}

const otherTool = `{
  "model": "opus",
  "env": {"FOO": "<bar> & baz", "N": 1.50},
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash|Edit",
        "hooks": [
          { "type": "command", "command": "~/.other/guard.py --strict", "timeout": 15 }
        ]
      }
    ],
    "Stop": [
      { "hooks": [ { "type": "prompt", "prompt": "Are you done? $ARGUMENTS" } ] }
    ],
    "CustomFutureEvent": [ { "hooks": [ { "type": "command", "command": "true" } ] } ]
  },
  "permissions": {
    "allow": ["Bash(ls:*)"],
    "deny": []
  }
}
`

func TestInstallKeepsOtherToolsHooksAndKeys(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.userSettings(), otherTool)
	before := []byte(otherTool)
	e.install(t, e.opts())
	after := readFile(t, e.userSettings())

	for _, path := range []string{"model", "env", "permissions", "hooks.CustomFutureEvent"} {
		if b, a := subtree(t, before, path), subtree(t, after, path); a != b {
			t.Errorf("%s changed:\nbefore %s\nafter  %s", path, b, a)
		}
	}
	// The other tool's groups stay first, as they were; warden's come after.
	for _, ev := range []string{"PreToolUse", "Stop"} {
		var b, a map[string][]any
		b = map[string][]any{ev: decode(t, before)["hooks"].(map[string]any)[ev].([]any)}
		a = map[string][]any{ev: decode(t, after)["hooks"].(map[string]any)[ev].([]any)}
		if len(a[ev]) != 2 {
			t.Fatalf("%s has %d groups, want the other tool's and warden's", ev, len(a[ev]))
		}
		bj, _ := jsonText(b[ev][0])
		aj, _ := jsonText(a[ev][0])
		if aj != bj {
			t.Errorf("%s[0] changed:\nbefore %s\nafter  %s", ev, bj, aj)
		}
	}
	if got, want := topKeys(t, after), []string{"model", "env", "hooks", "permissions", "statusLine"}; !slices.Equal(got, want) {
		t.Errorf("top-level keys = %v, want %v (order kept, statusLine added)", got, want)
	}
	// Untouched values keep their exact text, not just their meaning.
	for _, line := range []string{`"env": {"FOO": "<bar> & baz", "N": 1.50},`, `{ "type": "command", "command": "~/.other/guard.py --strict", "timeout": 15 }`} {
		if !strings.Contains(string(after), line) {
			t.Errorf("lost the exact text %s", line)
		}
	}
	if len(backups(t, e.userSettings())) != 1 {
		t.Errorf("want one backup, got %v", backups(t, e.userSettings()))
	}
	if got := readFile(t, backups(t, e.userSettings())[0]); string(got) != otherTool {
		t.Errorf("backup is not the old file:\n%s", got)
	}
}

func TestInstallTwiceChangesNothing(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.userSettings(), otherTool)
	e.install(t, e.opts())
	first := readFile(t, e.userSettings())
	nBackups := len(backups(t, e.userSettings()))

	e.out.Reset()
	o := e.opts()
	o.Now = nil // a different clock would make a new backup name if one were written
	res := e.install(t, o)
	if res.Changed || res.BinaryCopied || res.StoreCreated || res.Backup != "" {
		t.Errorf("second install did something: %+v", res)
	}
	if got := readFile(t, e.userSettings()); string(got) != string(first) {
		t.Errorf("second install changed the file")
	}
	if n := len(backups(t, e.userSettings())); n != nBackups {
		t.Errorf("second install made a backup (%d, was %d)", n, nBackups)
	}
	if !strings.Contains(e.out.String(), "already installed, nothing to change") {
		t.Errorf("output = %q", e.out)
	}
}

func TestDryRunChangesNothing(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.userSettings(), otherTool)
	o := e.opts()
	o.DryRun = true
	res := e.install(t, o)
	if !res.Changed || res.Diff == "" {
		t.Fatalf("dry run should report the change: %+v", res)
	}
	if got := readFile(t, e.userSettings()); string(got) != otherTool {
		t.Errorf("dry run changed the settings file")
	}
	for _, p := range []string{e.bin(), filepath.Join(e.wardenHome, "warden.db")} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("dry run created %s", p)
		}
	}
	if b := backups(t, e.userSettings()); len(b) != 0 {
		t.Errorf("dry run made backups %v", b)
	}
	out := e.out.String()
	for _, want := range []string{"--- " + e.userSettings(), "+++ " + e.userSettings(), `+            "command": "` + e.bin() + `",`, `+            "args": ["hook","--harness","claude"],`, "dry run: nothing was changed"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestStatusLineWrappedThenRestored(t *testing.T) {
	e := newEnv(t)
	orig := `{
  "statusLine": { "type": "command", "command": "~/.claude/status.sh --theme 'dark mode' \"$USER\"", "padding": 2, "refreshInterval": 5 },
  "theme": "dark"
}
`
	writeFile(t, e.userSettings(), orig)
	e.install(t, e.opts())
	after := readFile(t, e.userSettings())
	sl := decode(t, after)["statusLine"].(map[string]any)
	want := e.bin() + ` statusline --wrap '~/.claude/status.sh --theme '\''dark mode'\'' "$USER"'`
	if sl["command"] != want {
		t.Errorf("wrapped command = %s\nwant               %s", sl["command"], want)
	}
	if sl["padding"] != 2.0 || sl["refreshInterval"] != 5.0 || sl["type"] != "command" {
		t.Errorf("other statusLine fields not kept: %v", sl)
	}
	// What the shell would pass to --wrap is exactly the old command.
	inv, ok := parseWarden(want)
	if inner, _ := inv.wrappedCommand(); !ok || inner != `~/.claude/status.sh --theme 'dark mode' "$USER"` {
		t.Errorf("--wrap argument reads back as %q", inner)
	}

	e.uninstall(t, e.opts())
	if got := readFile(t, e.userSettings()); string(got) != orig {
		t.Errorf("uninstall did not restore the original:\n%s\nwant:\n%s", got, orig)
	}
}

func TestNoStatusLineLeavesItAlone(t *testing.T) {
	e := newEnv(t)
	o := e.opts()
	o.NoStatusLine = true
	e.install(t, o)
	if _, ok := decode(t, readFile(t, e.userSettings()))["statusLine"]; ok {
		t.Error("--no-statusline set a status line")
	}
}

func TestUninstallRemovesExactlyWhatInstallAdded(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.userSettings(), otherTool)
	e.install(t, e.opts())
	e.out.Reset()
	res := e.uninstall(t, e.opts())
	if !res.Changed || res.Backup == "" {
		t.Errorf("uninstall result = %+v", res)
	}
	after := readFile(t, e.userSettings())
	if !equalJSON(t, after, []byte(otherTool)) {
		t.Errorf("after install+uninstall:\n%s\nwant the equivalent of:\n%s", after, otherTool)
	}
	if string(after) != otherTool {
		t.Errorf("not byte-identical (fine in meaning, but the layout should survive):\n%s", after)
	}
	for _, p := range []string{e.bin(), filepath.Join(e.wardenHome, "warden.db")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("uninstall removed %s", p)
		}
	}
	if !strings.Contains(e.out.String(), "rm -r "+e.wardenHome) {
		t.Errorf("uninstall does not say how to delete the rest:\n%s", e.out)
	}

	// A fresh install then uninstall leaves an empty object, not "hooks": {}.
	e2 := newEnv(t)
	e2.install(t, e2.opts())
	e2.uninstall(t, e2.opts())
	if got := decode(t, readFile(t, e2.userSettings())); len(got) != 0 {
		t.Errorf("fresh install+uninstall left %v", got)
	}

	// Nothing of warden's there: nothing to do, no write.
	e2.out.Reset()
	res = e2.uninstall(t, e2.opts())
	if res.Changed || !strings.Contains(e2.out.String(), "nothing to change") {
		t.Errorf("second uninstall: %+v %s", res, e2.out)
	}
}

func TestInstallUpdatesExistingWardenEntryInPlace(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.userSettings(), `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "",
        "hooks": [
          { "type": "command", "command": "echo other" },
          { "type": "command", "command": "WARDEN_DEBUG=1 /old/place/warden hook", "timeout": 5, "statusMessage": "warden" }
        ]
      }
    ],
    "Stop": [
      { "hooks": [ { "type": "command", "command": "/old/place/warden", "args": ["hook"], "timeout": 120 } ] },
      { "hooks": [ { "type": "command", "command": "warden hook --harness claude", "timeout": 120 } ] }
    ]
  }
}
`)
	e.install(t, e.opts())
	s, err := ReadSettings(e.userSettings())
	if err != nil {
		t.Fatal(err)
	}
	reg := Registered(s)
	pre := reg["PreToolUse"]
	if len(pre) != 1 || pre[0].Loc.String() != "hooks.PreToolUse[0].hooks[1]" {
		t.Fatalf("PreToolUse warden handlers = %+v, want the existing one updated in place", pre)
	}
	// The user's own variable has no place in exec form: shell form stays.
	if want := "WARDEN_DEBUG=1 " + HookCommand(e.bin()); pre[0].Command != want || pre[0].Exec() || pre[0].Timeout != 60 {
		t.Errorf("updated handler = %q %q timeout %v, want %q in shell form, 60", pre[0].Command, pre[0].Args, pre[0].Timeout, want)
	}
	if got := subtree(t, readFile(t, e.userSettings()), "hooks.PreToolUse"); !strings.Contains(got, `"statusMessage":"warden"`) || !strings.Contains(got, `"echo other"`) {
		t.Errorf("extra fields or the other handler lost: %s", got)
	}
	stop := reg["Stop"]
	if len(stop) != 1 || stop[0].Command != e.bin() || !slices.Equal(stop[0].Args, hookArgs) {
		t.Errorf("Stop: %+v, want one exec-form handler (old one updated, duplicate dropped)", stop)
	}
}

func TestInstallKeepsIndentAndFollowsSymlink(t *testing.T) {
	e := newEnv(t)
	real := filepath.Join(e.home, "dotfiles", "claude-settings.json")
	writeFile(t, real, "{\n    \"model\": \"opus\"\n}\n")
	if err := os.Chmod(real, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(e.claudeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, e.userSettings()); err != nil {
		t.Skip("no symlinks here:", err)
	}
	e.install(t, e.opts())
	if fi, err := os.Lstat(e.userSettings()); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the settings symlink was replaced by a file")
	}
	data := readFile(t, real)
	if !strings.Contains(string(data), "\n    \"hooks\": {\n        \"PreToolUse\": [") {
		t.Errorf("4-space indent not kept:\n%.300s", data)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want the original 0600", fi.Mode().Perm())
	}
}

func TestInstallAsksOnATerminal(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.userSettings(), otherTool)
	o := e.opts()
	o.Interactive = true
	o.Stdin = strings.NewReader("n\n")
	if _, err := Install(context.Background(), o); !errors.Is(err, ErrAborted) {
		t.Fatalf("answer n: err = %v, want ErrAborted", err)
	}
	if got := readFile(t, e.userSettings()); string(got) != otherTool || len(backups(t, e.userSettings())) != 0 {
		t.Error("declined install changed something")
	}
	if _, err := os.Stat(e.bin()); err == nil {
		t.Error("declined install copied the binary")
	}
	if !strings.Contains(e.out.String(), "Apply? [y/N]") {
		t.Errorf("no question asked:\n%s", e.out)
	}
	o.Stdin = strings.NewReader("y\n")
	e.install(t, o)
	if string(readFile(t, e.userSettings())) == otherTool {
		t.Error("answer y did not apply")
	}
}

func TestInstallProjectAndLocalScopes(t *testing.T) {
	e := newEnv(t)
	for sc, file := range map[Scope]string{Project: "settings.json", Local: "settings.local.json"} {
		o := e.opts()
		o.Scope = sc
		res := e.install(t, o)
		if want := filepath.Join(e.project, ".claude", file); res.Settings != want {
			t.Errorf("%s scope wrote %s, want %s", sc, res.Settings, want)
		}
	}
	if _, err := os.Stat(e.userSettings()); err == nil {
		t.Error("project/local install wrote the user settings")
	}
}

func TestInstallFromTheInstalledBinary(t *testing.T) {
	e := newEnv(t)
	e.install(t, e.opts())
	o := e.opts()
	o.Source = e.bin() // `~/.warden/bin/warden install` run again
	if res := e.install(t, o); res.BinaryCopied {
		t.Error("copied the binary onto itself")
	}
}

func TestInstallUpgradesTheBinary(t *testing.T) {
	e := newEnv(t)
	e.install(t, e.opts())
	writeFile(t, e.source, "#!/bin/sh\necho newer warden\n")
	res := e.install(t, e.opts())
	if !res.BinaryCopied || res.Changed {
		t.Errorf("upgrade: %+v, want only the binary copied", res)
	}
	if string(readFile(t, e.bin())) != "#!/bin/sh\necho newer warden\n" {
		t.Error("binary not replaced")
	}
}

// editWhileAsking writes the settings file while the user "reads the diff",
// then answers yes.
type editWhileAsking struct{ path string }

func (r editWhileAsking) Read(p []byte) (int, error) {
	os.WriteFile(r.path, []byte(`{"model":"sonnet"}`), 0o644)
	return copy(p, "y\n"), io.EOF
}

func TestInstallDoesNotLoseAConcurrentEdit(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.userSettings(), otherTool)
	o := e.opts()
	o.Interactive = true
	o.Stdin = editWhileAsking{e.userSettings()}
	_, err := Install(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "changed while warden was preparing its edit") {
		t.Fatalf("err = %v", err)
	}
	if got := readFile(t, e.userSettings()); string(got) != `{"model":"sonnet"}` {
		t.Errorf("the concurrent edit was overwritten: %s", got)
	}
}

func TestNonDefaultWardenHomeIsPinnedInCommands(t *testing.T) {
	e := newEnv(t)
	custom := filepath.Join(t.TempDir(), "elsewhere")
	t.Setenv("WARDEN_HOME", custom)
	e.install(t, e.opts())
	b, _ := os.ReadFile(e.userSettings())
	if !strings.Contains(string(b), "WARDEN_HOME="+custom+" ") {
		t.Fatalf("a non-default WARDEN_HOME must be pinned in the hook command:\n%s", b)
	}
	// Still idempotent and still recognised as warden's own.
	e.out.Reset()
	if res := e.install(t, e.opts()); res.Changed {
		t.Errorf("second install changed the file:\n%s", e.out)
	}
	e.uninstall(t, e.opts())
	b, _ = os.ReadFile(e.userSettings())
	if strings.Contains(string(b), "WARDEN_HOME") {
		t.Errorf("uninstall left warden's entries:\n%s", b)
	}
}

func TestDefaultWardenHomeIsNotPinned(t *testing.T) {
	e := newEnv(t) // WARDEN_HOME = $HOME/.warden, the default
	e.install(t, e.opts())
	b, _ := os.ReadFile(e.userSettings())
	if strings.Contains(string(b), "WARDEN_HOME=") {
		t.Errorf("default home pinned needlessly:\n%s", b)
	}
}

func TestHelperBinaryInstalledBeside(t *testing.T) {
	e := newEnv(t)
	helper := filepath.Join(filepath.Dir(e.source), sibling.Helper)
	writeFile(t, helper, "#!/bin/sh\necho helper\n")
	os.Chmod(helper, 0o755)
	res := e.install(t, e.opts())
	if !res.HelpersCopied {
		t.Fatal("helper not copied")
	}
	got, err := os.ReadFile(filepath.Join(e.wardenHome, "bin", sibling.Helper))
	if err != nil || string(got) != "#!/bin/sh\necho helper\n" {
		t.Fatalf("installed helper: %q %v", got, err)
	}
	e.out.Reset()
	if res := e.install(t, e.opts()); res.HelpersCopied || res.Changed {
		t.Errorf("second install copied again:\n%s", e.out)
	}
}

// An upgrade from the six binaries earlier versions shipped leaves the
// three of today in ~/.warden/bin and nothing stale beside them: the
// binaries whose commands warden-helper runs now are removed (a dry run
// only says so), and nothing else in the directory is touched.
func TestUpgradeRemovesRetiredBinaries(t *testing.T) {
	e := newEnv(t)
	helper := filepath.Join(filepath.Dir(e.source), sibling.Helper)
	writeFile(t, helper, "#!/bin/sh\necho helper\n")
	os.Chmod(helper, 0o755)
	bin := filepath.Join(e.wardenHome, "bin")
	old := append([]string{sibling.Front, sibling.Core, sibling.Helper, "mine"}, sibling.Retired...)
	for _, name := range old {
		writeFile(t, filepath.Join(bin, name), "#!/bin/sh\necho old\n")
		os.Chmod(filepath.Join(bin, name), 0o755)
	}
	o := e.opts()
	o.DryRun = true
	e.install(t, o)
	for _, name := range sibling.Retired {
		if !strings.Contains(e.out.String(), "binary: remove "+filepath.Join(bin, name)) {
			t.Errorf("dry run does not say it removes %s:\n%s", name, e.out)
		}
		if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
			t.Errorf("dry run removed %s", name)
		}
	}
	e.out.Reset()
	e.install(t, e.opts())
	entries, err := os.ReadDir(bin)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range entries {
		names = append(names, d.Name())
	}
	want := []string{"mine", sibling.Front, sibling.Core, sibling.Helper}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("%s after the upgrade: %v, want %v\n%s", bin, names, want, e.out)
	}
	for _, name := range sibling.All {
		if b, _ := os.ReadFile(filepath.Join(bin, name)); strings.Contains(string(b), "echo old") {
			t.Errorf("%s is still the old binary", name)
		}
	}
	e.out.Reset()
	if res := e.install(t, e.opts()); res.Changed || strings.Contains(e.out.String(), "remove") {
		t.Errorf("a second install changed something:\n%s", e.out)
	}
}
