// Package settle asks the process answering hooks to finish recording the
// hooks it has answered (see hookwire.Settle).
package settle

import (
	"io"
	"net"
	"time"

	"github.com/warden-dev/warden/internal/hookwire"
	"github.com/warden-dev/warden/internal/paths"
)

// Wait asks the process answering hooks for the warden home (the
// keeper, or the daemon in its place) to finish recording the hooks it
// has answered, and returns once it has, when nothing answers on the
// socket (nothing to wait for), or after wait. The keeper answers a hook
// before it records it, so a command that reads the rows hooks just
// wrote (`warden log`, a test after its last hook) settles first.
func Wait(home string, wait time.Duration) {
	conn, err := net.DialTimeout("unix", paths.HookSocketIn(home), wait)
	if err != nil {
		return
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(wait))
	req := &hookwire.Request{Args: []string{hookwire.Settle}, Umask: -1}
	if _, err := conn.Write(req.Encode()); err != nil {
		return
	}
	var reply [2]byte
	_, _ = io.ReadFull(conn, reply[:])
}
