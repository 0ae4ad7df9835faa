//go:build unix

package hookserve

import (
	"net"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/hookwire"
)

// AcceptGrace is how long a taken request may run before the server tells
// its client it took it. A hook done by then gets Accepted and its exit
// code in one write, so the client wakes once, not twice: on a small VM a
// process woken mid-hook costs the hook a context switch on its CPU and
// itself a wake-up of 0.1–0.5 ms. Slower requests (a judge, a pacing
// sleep) get Accepted at AcceptGrace, well inside the client's wait for
// it (internal/hookclient: 2 s), and their code when done.
const AcceptGrace = 100 * time.Millisecond

// reply sends a taken request's answer: Accepted (at AcceptGrace, or with
// the code) and the exit code, each exactly once, whichever goroutine
// gets there first.
type reply struct {
	conn     *net.UnixConn
	mu       sync.Mutex
	accepted bool // Accepted was sent
	answered bool // the exit code was sent
	timer    *time.Timer
}

// newReply starts the clock: at grace, unless answered, Accepted goes out
// and slow runs (in that timer's goroutine) for as long as it likes.
func newReply(conn *net.UnixConn, grace time.Duration, slow func()) *reply {
	r := &reply{conn: conn}
	r.timer = time.AfterFunc(grace, func() {
		if r.accept() {
			slow()
		}
	})
	return r
}

// accept sends Accepted alone: the request is taking a while. false when
// it was answered already.
func (r *reply) accept() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.accepted || r.answered {
		return false
	}
	r.accepted = true
	r.conn.Write([]byte{hookwire.Accepted})
	return true
}

// code sends the exit code (with Accepted in the same write when that is
// not out yet); later calls do nothing.
func (r *reply) code(c int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.answered {
		return
	}
	r.answered = true
	r.timer.Stop()
	if r.accepted {
		r.conn.Write([]byte{byte(c)})
		return
	}
	r.accepted = true
	r.conn.Write([]byte{hookwire.Accepted, byte(c)})
}
