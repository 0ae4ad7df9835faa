package install

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The installed warden lives in ~/.warden/bin, which is on nobody's PATH:
// after `make install` the README's next command (`warden doctor`) would
// answer "command not found". Install links it from a directory that is
// already on PATH (~/.local/bin, ~/bin) when there is one, and otherwise
// prints the one line to add; doctor checks the result.

// LinkDirs are the per-user directories install may link warden from, in
// order of preference, relative to the home directory. Only one that is
// already on PATH is used: install never edits shell start-up files.
var LinkDirs = []string{".local/bin", "bin"}

// PathState says how `warden` resolves on PATH.
type PathState struct {
	// Resolved is what `warden` runs ("" when nothing).
	Resolved string
	// Ours: Resolved is bin (directly or through links).
	Ours bool
	// LinkDir is a per-user directory on PATH where a link to bin can go
	// ("" when none is on PATH).
	LinkDir string
}

// LookPathState inspects PATH for bin.
func LookPathState(bin string) PathState {
	var st PathState
	if p, err := exec.LookPath("warden"); err == nil {
		st.Resolved = p
		st.Ours = sameFile(p, bin)
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return st
	}
	for _, rel := range LinkDirs {
		d := filepath.Join(home, rel)
		if onPath(d) {
			st.LinkDir = d
			break
		}
	}
	return st
}

// onPath reports whether dir is one of PATH's entries.
func onPath(dir string) bool {
	for _, e := range filepath.SplitList(os.Getenv("PATH")) {
		if e != "" && filepath.Clean(e) == filepath.Clean(dir) {
			return true
		}
	}
	return false
}

func sameFile(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// PathLine is the line to add to a shell start-up file so that `warden`
// runs the installed binary.
func PathLine(bin string) string {
	dir := filepath.Dir(bin)
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, dir); err == nil && !strings.HasPrefix(rel, "..") {
			dir = "$HOME/" + filepath.ToSlash(rel)
		}
	}
	return `export PATH="` + dir + `:$PATH"`
}

// StartupFile names the shell start-up file for $SHELL, for the hint.
func StartupFile() string {
	switch filepath.Base(os.Getenv("SHELL")) {
	case "zsh":
		return "~/.zshrc"
	case "fish":
		return "~/.config/fish/config.fish (fish: fish_add_path instead of export)"
	}
	return "~/.bashrc (or ~/.profile)"
}

// linkAction is what install does to put warden on PATH.
type linkAction struct {
	// Link is the symlink to create ("" when none is needed or possible).
	Link string
	// Note is one line for the summary: already on PATH, linked, or the
	// line to add.
	Note string
}

// planLink decides how `warden` becomes runnable after installing bin.
func planLink(bin string) linkAction {
	st := LookPathState(bin)
	switch {
	case st.Ours:
		return linkAction{Note: "`warden` on PATH runs " + bin}
	case onPath(filepath.Dir(bin)):
		return linkAction{Note: filepath.Dir(bin) + " is on PATH"}
	case st.LinkDir != "":
		link := filepath.Join(st.LinkDir, "warden")
		if fi, err := os.Lstat(link); err == nil && fi.Mode()&fs.ModeSymlink == 0 {
			return linkAction{Note: link + " exists and is not warden's link, so it was left alone; " +
				"run warden as " + bin + ", or add to " + StartupFile() + ": " + PathLine(bin)}
		}
		note := "link " + link + " -> " + bin + " (" + st.LinkDir + " is on PATH)"
		if st.Resolved != "" && filepath.Dir(st.Resolved) != st.LinkDir {
			note += "; note: " + st.Resolved + " comes first on PATH and shadows it"
		}
		return linkAction{Link: link, Note: note}
	}
	note := "`warden` is not on PATH; add this line to " + StartupFile() + " and open a new shell:\n    " + PathLine(bin)
	if st.Resolved != "" {
		note = "`warden` on PATH is " + st.Resolved + ", not the installed " + bin + "; to run the installed one, add to " +
			StartupFile() + ":\n    " + PathLine(bin)
	}
	return linkAction{Note: note}
}

// makeLink points link at bin, replacing an older link of warden's.
func makeLink(link, bin string) error {
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		return NewFSError("create", filepath.Dir(link), err)
	}
	if cur, err := os.Readlink(link); err == nil && cur == bin {
		return nil
	}
	tmp := link + ".warden-tmp"
	_ = os.Remove(tmp)
	if err := os.Symlink(bin, tmp); err != nil {
		return NewFSError("create the link", link, err)
	}
	if err := os.Rename(tmp, link); err != nil {
		_ = os.Remove(tmp)
		return NewFSError("create the link", link, err)
	}
	return nil
}

// removeLink deletes the links install made to bin from the per-user
// directories (uninstall); anything else there is left alone.
func removeLink(bin string) (removed []string) {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return nil
	}
	for _, rel := range LinkDirs {
		link := filepath.Join(home, rel, "warden")
		if cur, err := os.Readlink(link); err == nil && cur == bin {
			if err := os.Remove(link); err == nil || errors.Is(err, fs.ErrNotExist) {
				removed = append(removed, link)
			}
		}
	}
	return removed
}
