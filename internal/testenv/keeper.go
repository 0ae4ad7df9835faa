package testenv

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Keeper is `warden-core keeper` started as a test's child, not detached,
// so the test owns it and sees its log.
type Keeper struct {
	Process *os.Process
	// Exited is closed once the keeper has exited and been reaped.
	Exited <-chan struct{}
	log    Buffer
}

// Log is what the keeper wrote to stderr so far.
func (k *Keeper) Log() string { return k.log.String() }

// StartKeeper runs `core keeper args…` with env, whose WARDEN_HOME must be
// wardenHome, and waits until the keeper answers on wardenHome's hook
// socket. At cleanup it is stopped (SIGTERM) and reaped, and its log shown
// when the test failed.
func StartKeeper(t testing.TB, core, wardenHome string, env []string, args ...string) *Keeper {
	t.Helper()
	cmd := exec.Command(core, append([]string{"keeper"}, args...)...)
	cmd.Env = env
	exited := make(chan struct{})
	k := &Keeper{Exited: exited}
	cmd.Stderr = &k.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	k.Process = cmd.Process
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		k.Process.Signal(syscall.SIGTERM)
		<-exited
		if t.Failed() {
			t.Logf("keeper log:\n%s", k.Log())
		}
	})
	sock := filepath.Join(wardenHome, "run", "hook.sock")
	WaitFor(t, 10*time.Second, "the keeper to answer on "+sock, func() bool {
		c, err := net.Dial("unix", sock)
		if err == nil {
			c.Close()
		}
		return err == nil
	}, func() string { return "its log:\n" + k.Log() })
	return k
}
