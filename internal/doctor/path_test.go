package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/install"
)

// Another file named warden in ~/.local/bin is not ours to replace.
func TestInstallLeavesSomeoneElsesWardenAlone(t *testing.T) {
	e := newEnv(t)
	local := filepath.Join(e.home, ".local", "bin")
	t.Setenv("PATH", local+string(os.PathListSeparator)+"/usr/bin:/bin")
	writeFile(t, filepath.Join(local, "warden"), "#!/bin/sh\necho other\n")
	os.Chmod(filepath.Join(local, "warden"), 0o755)
	e.install(t, e.opts())
	if got := readFile(t, filepath.Join(local, "warden")); !strings.Contains(string(got), "echo other") {
		t.Errorf("install replaced another warden: %s", got)
	}
	if !strings.Contains(e.out.String(), "is not warden's link, so it was left alone") {
		t.Errorf("install does not say why it left it:\n%s", e.out)
	}
	r := e.doctor(t)
	if c := find(r, "on PATH", "not the installed"); len(c) != 1 || c[0].Level != LevelWarn || !r.OK {
		t.Errorf("doctor should warn (and still pass): %+v\n%s", c, reportText(r))
	}
}

// A fresh install with ~/.local/bin on PATH links warden there, so the
// README's next command (`warden doctor`) is found by the shell; doctor
// says so, and uninstall removes the link again.
func TestInstallLinksWardenFromADirectoryOnPath(t *testing.T) {
	e := newEnv(t)
	local := filepath.Join(e.home, ".local", "bin")
	t.Setenv("PATH", local+string(os.PathListSeparator)+"/usr/bin:/bin")
	e.install(t, e.opts())

	link := filepath.Join(local, "warden")
	if got, err := os.Readlink(link); err != nil || got != e.bin() {
		t.Fatalf("link %s = %q, %v; want -> %s\n%s", link, got, err, e.bin(), e.out)
	}
	if !strings.Contains(e.out.String(), "✓ linked "+link+" -> "+e.bin()) {
		t.Errorf("install does not say it linked warden:\n%s", e.out)
	}
	r := e.doctor(t)
	if c := find(r, "on PATH", e.bin()); len(c) != 1 || c[0].Level != LevelOK {
		t.Errorf("doctor's PATH check: %+v\n%s", c, reportText(r))
	}

	// Installing again: nothing to do, and the link stays.
	e.out.Reset()
	e.install(t, e.opts())
	if !strings.Contains(e.out.String(), "already installed") {
		t.Errorf("second install:\n%s", e.out)
	}

	o := e.opts()
	e.uninstall(t, o)
	if _, err := os.Lstat(link); !os.IsNotExist(err) {
		t.Errorf("uninstall left the link %s (%v)", link, err)
	}
}

// With no per-user directory on PATH, install prints the exact line to add
// and doctor warns with the same line, marked WARN, without failing.
func TestInstallPrintsThePathLineWhenNothingIsOnPath(t *testing.T) {
	e := newEnv(t)
	t.Setenv("PATH", "/usr/bin:/bin")
	t.Setenv("SHELL", "/bin/zsh")
	e.install(t, e.opts())
	line := `export PATH="$HOME/.warden/bin:$PATH"`
	if !strings.Contains(e.out.String(), "add this line to ~/.zshrc and open a new shell:\n    "+line) {
		t.Errorf("install output lacks the PATH line:\n%s", e.out)
	}
	for _, rel := range install.LinkDirs {
		if _, err := os.Lstat(filepath.Join(e.home, rel, "warden")); !os.IsNotExist(err) {
			t.Errorf("install created %s though it is not on PATH", rel)
		}
	}
	r := e.doctor(t)
	c := find(r, "on PATH", "not on PATH")
	if len(c) != 1 || c[0].Level != LevelWarn || !strings.Contains(c[0].Fix, line) || !r.OK {
		t.Errorf("doctor's PATH check: %+v", c)
	}
	text := reportText(r)
	if !strings.Contains(text, "WARN  on PATH") || !strings.Contains(text, "fix: add to ~/.zshrc: "+line) {
		t.Errorf("text report does not mark the warning:\n%s", text)
	}
	// The line works: with it, `warden` resolves to the installed binary.
	t.Setenv("PATH", filepath.Dir(e.bin())+":/usr/bin:/bin")
	if r := e.doctor(t); len(find(r, "on PATH", "runs "+e.bin())) != 1 {
		t.Errorf("after adding the line doctor still complains:\n%s", reportText(r))
	}
}
