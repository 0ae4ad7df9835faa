//go:build linux

package daemon_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store/keeper"
)

// The store's files removed under a running daemon: no new task is
// acknowledged (a 201 for a row in a removed file is a lost task), the
// daemon logs why and exits non-zero; the next start, finding the store
// missing — and again once a hook has made a new empty one — refuses,
// saying what the old one held and how to go on; --new-store goes on.
func TestStoreRemovedWhileServing(t *testing.T) {
	h := newHome(t)
	d := h.serve()
	db := filepath.Join(h.dir, "warden.db")
	if o, code := h.warden("token", "create", "ci"); code != 0 {
		t.Fatalf("token create: %d %s", code, o)
	}
	if o, code := h.warden("task", "add", "-C", h.dir, "job a"); code != 0 {
		t.Fatalf("task add: %d %s", code, o)
	}
	// The daemon notes what its store holds (run/store.json) within a second.
	h.waitFor("the store's mark", func() bool {
		b, _ := os.ReadFile(filepath.Join(h.dir, "run", "store.json"))
		return strings.Contains(string(b), `"tokens": 2`) && strings.Contains(string(b), `"tasks": 1`)
	})

	for _, p := range []string{db, db + "-wal", db + "-shm"} {
		os.Remove(p)
	}
	// Answered (503 naming the file) or refused (the daemon is leaving):
	// never acknowledged.
	if o, code := h.warden("task", "add", "-C", h.dir, "job b"); code == 0 || strings.Contains(o, "503") && !strings.Contains(o, db) {
		t.Errorf("task add with the store removed: exit %d\n%s", code, o)
	}
	exited := make(chan error, 1)
	go func() { exited <- d.Wait() }()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() == 0 {
			t.Errorf("the daemon exited with %v, want a non-zero exit", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon kept running on a removed store")
	}
	lg, _ := os.ReadFile(filepath.Join(h.dir, "logs", "daemon.log"))
	if !strings.Contains(string(lg), "the file was removed while the daemon ran") || !strings.Contains(string(lg), `"msg":"daemon stopped","err"`) {
		t.Errorf("the daemon's log does not say the store was removed:\n%s", lg)
	}

	start := func(args ...string) (string, int) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, filepath.Join(h.bin, "warden"), append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
		cmd.Env = h.env
		out, _ := cmd.CombinedOutput()
		return string(out), cmd.ProcessState.ExitCode()
	}
	o, code := start()
	for _, w := range []string{"the store " + db + " is missing", "1 tasks and 2 API tokens", "--new-store"} {
		if code == 0 || !strings.Contains(o, w) {
			t.Errorf("serve with the store missing lacks %q: exit %d\n%s", w, code, o)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("the refused start made a store: %v", err)
	}
	if o, code := h.warden("doctor"); code == 0 || !strings.Contains(o, "store identity") || !strings.Contains(o, "is missing") || !strings.Contains(o, "--new-store") {
		t.Errorf("doctor with the store missing: exit %d\n%s", code, o)
	}
	// A hook makes a new, empty store in its place.
	h.hook(filepath.Join(h.bin, "warden"), "s1")
	h.waitFor("the hook's new store", func() bool { _, err := os.Stat(db); return err == nil })
	// The keeper that hook started (detached) is up before the test goes
	// on: one still starting when the test ends would make run/ again
	// while the home is removed, after the clean-up's keeper.Stop found
	// no keeper to stop.
	h.waitFor("the keeper the hook started", func() bool {
		ok, _ := keeper.Running(filepath.Join(h.dir, "locks", "keeper.lock"))
		return ok
	})
	o, code = start()
	if code == 0 || !strings.Contains(o, "is not the one warden serve last ran on") || !strings.Contains(o, "--new-store") {
		t.Errorf("serve on a new store in place of the old: exit %d\n%s", code, o)
	}

	// --new-store goes on; the next plain start is content with it.
	d2 := exec.Command(filepath.Join(h.bin, "warden"), "serve", "--addr", "127.0.0.1:0", "--new-store")
	d2.Env = h.env
	if err := d2.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d2.Process.Signal(syscall.SIGTERM); d2.Wait() })
	h.waitFor("the daemon on the new store", func() bool {
		o, code := h.warden("token", "list")
		return code == 0 && !strings.Contains(o, "ci")
	})
}
