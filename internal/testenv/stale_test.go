package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// A home whose process is gone (a test binary that panicked, timed out or
// was killed never ran its clean-up) is removed by the next sweep; a home
// whose process lives, a folder without the prefix, and a home without an
// owner file younger than orphanAge (an older checkout's tests, maybe
// running) are left.
func TestSweepRemovesOnlyHomesOfGoneProcesses(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	mk := func(name, owner string, age time.Duration) string {
		root := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Join(root, "home", ".config"), 0o700); err != nil {
			t.Fatal(err)
		}
		if owner != "" {
			if err := os.WriteFile(filepath.Join(root, ownerFile), []byte(owner+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chtimes(root, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
		return root
	}
	deadOwner := mk(homePrefix+"dead", strconv.Itoa(gone.Process.Pid), time.Minute)
	liveOwner := mk(homePrefix+"live", strconv.Itoa(os.Getpid()), 48*time.Hour)
	oldOrphan := mk(homePrefix+"oldorphan", "", orphanAge+time.Hour)
	newOrphan := mk(homePrefix+"neworphan", "", time.Hour)
	garbled := mk(homePrefix+"garbled", "not a pid", 48*time.Hour)
	other := mk("someone-elses-dir", strconv.Itoa(gone.Process.Pid), 48*time.Hour)

	sweepStaleHomes(dir, now)

	for root, want := range map[string]bool{deadOwner: false, liveOwner: true, oldOrphan: false, newOrphan: true, garbled: true, other: true} {
		_, err := os.Stat(root)
		if got := err == nil; got != want {
			t.Errorf("%s: exists=%v after the sweep, want %v", filepath.Base(root), got, want)
		}
	}
}

// Isolate records its process as the owner of the home it makes, beside
// the home (the home itself holds only what a new user's would).
func TestIsolateRecordsTheOwner(t *testing.T) {
	root := filepath.Dir(os.Getenv("HOME"))
	b, err := os.ReadFile(filepath.Join(root, ownerFile))
	if err != nil {
		t.Fatal(err)
	}
	if pid, err := strconv.Atoi(string(b[:len(b)-1])); err != nil || pid != os.Getpid() {
		t.Fatalf("owner file holds %q, want this process %d", b, os.Getpid())
	}
}

// A test binary started by a test inherits the go settings its parent
// pinned and does not run `go env` again under the parent's home (which
// may be removed by then: the go command would re-create its counters
// there).
func TestChildTakesPinnedGoSettingsFromItsParent(t *testing.T) {
	for _, k := range goPinned {
		t.Setenv(k, "/pinned/"+k)
	}
	t.Setenv("PATH", t.TempDir()) // no go to run: the values must come from the environment
	keep := pinnedOutside()
	for _, k := range goPinned {
		if keep[k] != "/pinned/"+k {
			t.Errorf("%s = %q, want the inherited value", k, keep[k])
		}
	}
}
