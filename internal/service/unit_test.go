package service

import (
	"context"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/testenv"
)

func spec(t *testing.T) Spec {
	bin := filepath.Join(t.TempDir(), "my bin", "warden")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
	return Spec{Binary: bin, Env: map[string]string{"WARDEN_HOME": "/home/a b/.warden", "PATH": "/usr/bin:/bin:/opt/50%"}, LogDir: "/home/a b/.warden/logs"}
}

// The systemd unit: the quoted binary with `serve`, the environment with
// spaces and % escaped, Restart=always; it passes systemd-analyze verify.
func TestSystemdUnit(t *testing.T) {
	s := spec(t)
	b, err := Render(Systemd, s)
	if err != nil {
		t.Fatal(err)
	}
	unit := string(b)
	for _, w := range []string{
		"ExecStart=\"" + s.Binary + "\" serve\n",
		"Environment=\"PATH=/usr/bin:/bin:/opt/50%%\"\n",
		"Environment=\"WARDEN_HOME=/home/a b/.warden\"\n",
		"Restart=always\n", "WantedBy=default.target\n", "[Unit]\n", "[Service]\n", "[Install]\n",
	} {
		if !strings.Contains(unit, w) {
			t.Errorf("unit lacks %q:\n%s", w, unit)
		}
	}
	sa := testenv.RequireCommand(t, "systemd-analyze", "systemd")
	path := filepath.Join(t.TempDir(), UnitName)
	os.WriteFile(path, b, 0o644)
	out, err := exec.Command(sa, "verify", path).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "" {
		t.Errorf("systemd-analyze verify: %v\n%s\n%s", err, out, unit)
	}
	// verify can fail: a unit without ExecStart's program is refused.
	bad := strings.Replace(unit, s.Binary, "/nonexistent/warden", 1)
	os.WriteFile(path, []byte(bad), 0o644)
	if out, err := exec.Command(sa, "verify", path).CombinedOutput(); err == nil {
		t.Errorf("systemd-analyze accepted a missing binary:\n%s", out)
	}
}

// The launchd agent: a well-formed property list with the label, the
// arguments, KeepAlive and RunAtLoad true, the environment escaped.
func TestLaunchdAgent(t *testing.T) {
	s := spec(t)
	s.Env["X"] = `<&">`
	b, err := Render(Launchd, s)
	if err != nil {
		t.Fatal(err)
	}
	// Decode the plist's dict into key → value.
	dec := xml.NewDecoder(strings.NewReader(string(b)))
	dec.Strict = true
	var keys, vals []string
	var path []string
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed XML: %v\n%s", err, b)
			}
			break
		}
		switch v := tok.(type) {
		case xml.StartElement:
			path = append(path, v.Name.Local)
			if v.Name.Local == "true" {
				vals = append(vals, keys[len(keys)-1]+"=true")
			}
		case xml.EndElement:
			path = path[:len(path)-1]
		case xml.CharData:
			if len(path) == 0 {
				continue
			}
			switch path[len(path)-1] {
			case "key":
				keys = append(keys, string(v))
			case "string":
				vals = append(vals, keys[len(keys)-1]+"="+string(v))
			}
		}
	}
	got := strings.Join(vals, "\n")
	for _, w := range []string{"Label=" + Label, "ProgramArguments=" + s.Binary, "ProgramArguments=serve", "KeepAlive=true", "RunAtLoad=true",
		"X=<&\">", "WARDEN_HOME=/home/a b/.warden", "StandardErrorPath=/home/a b/.warden/logs/daemon.stderr.log"} {
		if !strings.Contains(got, w) {
			t.Errorf("plist lacks %s; decoded:\n%s", w, got)
		}
	}
	if plutil, err := exec.LookPath("plutil"); err == nil {
		path := filepath.Join(t.TempDir(), Label+".plist")
		os.WriteFile(path, b, 0o644)
		if out, err := exec.Command(plutil, "-lint", path).CombinedOutput(); err != nil {
			t.Errorf("plutil -lint: %v %s", err, out)
		}
	}
}

func TestRenderRefusesBadInput(t *testing.T) {
	if _, err := Render("upstart", spec(t)); err == nil || !strings.Contains(err.Error(), "use systemd or launchd") {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := Render(Systemd, Spec{Binary: "warden"}); err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Errorf("relative binary: %v", err)
	}
}

// Install writes the file (not twice when unchanged) and runs the service
// manager's commands in order; uninstall stops and removes it.
func TestInstallAndUninstallRunTheManager(t *testing.T) {
	ctx := context.Background()
	for _, format := range []string{Systemd, Launchd} {
		home := t.TempDir()
		var calls []string
		tgt := Target{Format: format, Path: PathFor(format, home, ""), Run: func(_ context.Context, name string, args ...string) ([]byte, error) {
			calls = append(calls, name+" "+strings.Join(args, " "))
			return []byte("active\n"), nil
		}}
		content, _ := Render(format, spec(t))
		changed, err := Install(ctx, tgt, content)
		if err != nil || !changed {
			t.Fatalf("%s install: %v %v", format, changed, err)
		}
		if b, _ := os.ReadFile(tgt.Path); string(b) != string(content) {
			t.Errorf("%s: file differs", format)
		}
		changed, _ = Install(ctx, tgt, content)
		if changed {
			t.Errorf("%s: unchanged content reported as changed", format)
		}
		installed, state := Status(ctx, tgt)
		removed, err := Uninstall(ctx, tgt)
		if _, serr := os.Stat(tgt.Path); !removed || err != nil || !os.IsNotExist(serr) {
			t.Errorf("%s uninstall: %v %v, file %v", format, removed, err, serr)
		}
		if removed, _ := Uninstall(ctx, tgt); removed {
			t.Errorf("%s: second uninstall removed something", format)
		}
		joined := strings.Join(calls, "\n")
		want := map[string][]string{
			Systemd: {"systemctl --user daemon-reload", "systemctl --user reenable --now warden.service", "systemctl --user restart warden.service", "systemctl --user enable --now warden.service", "systemctl --user is-active warden.service", "systemctl --user disable --now warden.service"},
			Launchd: {"launchctl bootstrap gui/", "launchctl bootout gui/"},
		}[format]
		for _, w := range want {
			if !strings.Contains(joined, w) {
				t.Errorf("%s: no %q among\n%s", format, w, joined)
			}
		}
		if !installed || state == "" {
			t.Errorf("%s status: %v %q", format, installed, state)
		}
	}
	if got := PathFor(Systemd, "/home/u", ""); got != "/home/u/.config/systemd/user/warden.service" {
		t.Errorf("systemd path %s", got)
	}
	if got := PathFor(Launchd, "/Users/u", ""); got != "/Users/u/Library/LaunchAgents/dev.warden.serve.plist" {
		t.Errorf("launchd path %s", got)
	}
}
