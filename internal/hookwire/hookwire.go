// Package hookwire is the protocol between `warden hook` and the keeper
// that answers it (see internal/hook/serve.go and internal/hookclient).
//
// Why it exists: a hook is a new process per event, and the process that
// links SQLite, the policy engine and the shell parser pays ~3 ms of
// start-up (runtime init of those packages, page faults, opening the
// database) before doing any work. The `warden` binary Claude Code runs is
// therefore tiny: it hands its stdin, stdout and stderr file descriptors
// (SCM_RIGHTS), its arguments, working directory and environment to the
// keeper over a unix socket, and exits with the code the keeper sends back.
// The keeper runs exactly the code an in-process hook would, with the
// caller's environment, on the caller's descriptors, so Claude Code cannot
// tell the difference.
//
// One request per connection:
//
//	client → keeper: Magic, then four length-prefixed (uint32, big endian)
//	                 fields: args, cwd, environ, facts; args and environ are
//	                 NUL-joined; facts is "umask,dev,ino" in decimal (the
//	                 client's umask, and the device and inode of its
//	                 working directory, so the keeper can check the path
//	                 still names it). The message carries fds 0, 1, 2 and
//	                 the claim as SCM_RIGHTS.
//	the claim:       the read end of a pipe holding one byte (ClaimByte),
//	                 its write end closed. Whoever reads that byte runs
//	                 the hook: the keeper reads it after it decided to
//	                 take the request and before it touches stdin; a
//	                 client that got no answer in time reads it before it
//	                 runs the hook itself. The other finds the pipe empty
//	                 (EOF: no wait) and leaves the hook alone — the
//	                 keeper declines, the client allows. So a keeper that
//	                 stalls past the client's wait and finds the request
//	                 in its socket afterwards never runs it a second time;
//	                 stdin cannot tell, as the keeper may not have read it
//	                 yet when the client looks.
//	keeper → client: Accepted (the keeper runs the hook; the client must
//	                 not touch stdin) or Declined (the client runs the hook
//	                 itself: stdin is untouched), then after Accepted one
//	                 byte, the exit code. A hook done within the keeper's
//	                 grace (hookserve.AcceptGrace, 100 ms) gets both bytes
//	                 in one write, so the client wakes once; a slower one
//	                 gets Accepted at the grace. A connection that closes
//	                 with no byte at all means the keeper died: the client
//	                 runs the hook itself only if it gets the claim.
//
// A settle request is a request whose only argument is Settle, with no
// descriptors: the keeper answers Accepted and 0 once every hook it had
// answered when the settle came has its row in the store, or after
// SettleWait. Readers in other
// processes send it before reading rows a hook just wrote: the keeper
// answers a hook before recording it.
//
// This package imports only small standard packages (not even fmt): the
// client side must stay as cheap to start as a bare Go program.
package hookwire

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"time"
)

// Magic starts every request; its last digit is the protocol version.
const Magic = "WDNH3"

// Replies.
const (
	Accepted byte = 'A'
	Declined byte = 'D'
)

// ClaimByte is the byte in the claim pipe sent with a request.
const ClaimByte byte = 'C'

// RequestFDs is how many descriptors a hook or status line request
// carries: stdin, stdout, stderr and the claim.
const RequestFDs = 4

// Settle is the argument of a settle request; SettleWait bounds how long
// the keeper waits before it answers one.
const (
	Settle     = "settle"
	SettleWait = 2 * time.Second
)

// MaxRequest caps a request: arguments, a path and an environment.
const MaxRequest = 1 << 20

// Request is what the client sends besides its descriptors.
type Request struct {
	Args    []string
	Cwd     string
	Environ []string
	// Umask is the client's umask; -1 when it did not say.
	Umask int
	// CwdDev and CwdIno identify the client's working directory (stat
	// "."); both 0 when it could not tell.
	CwdDev, CwdIno uint64
}

// Encode returns the request as sent on the wire.
func (r *Request) Encode() []byte {
	facts := strconv.Itoa(r.Umask) + "," + strconv.FormatUint(r.CwdDev, 10) + "," + strconv.FormatUint(r.CwdIno, 10)
	fields := []string{strings.Join(r.Args, "\x00"), r.Cwd, strings.Join(r.Environ, "\x00"), facts}
	n := len(Magic)
	for _, f := range fields {
		n += 4 + len(f)
	}
	b := make([]byte, 0, n)
	b = append(b, Magic...)
	for _, f := range fields {
		n := uint32(len(f))
		b = append(b, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
		b = append(b, f...)
	}
	return b
}

// ErrShort means more bytes are needed to decode the request.
var ErrShort = errors.New("hookwire: request incomplete")

// Decode parses a whole request. It returns ErrShort when b is a prefix of
// a request, and another error when b cannot be one.
func Decode(b []byte) (*Request, error) {
	if len(b) < len(Magic) {
		if string(b) != Magic[:len(b)] {
			return nil, errors.New("hookwire: not a warden hook request")
		}
		return nil, ErrShort
	}
	if string(b[:len(Magic)]) != Magic {
		return nil, errors.New("hookwire: not a warden hook request (want " + strconv.Quote(Magic) + ", a newer or older warden?)")
	}
	b = b[len(Magic):]
	var fields [4]string
	for i := range fields {
		if len(b) < 4 {
			return nil, ErrShort
		}
		n := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
		if n > MaxRequest {
			return nil, errors.New("hookwire: a field of " + strconv.FormatUint(uint64(n), 10) + " bytes is over the limit of " + strconv.Itoa(MaxRequest))
		}
		if uint32(len(b)-4) < n {
			return nil, ErrShort
		}
		fields[i] = string(b[4 : 4+n])
		b = b[4+n:]
	}
	if len(b) != 0 {
		return nil, errors.New("hookwire: " + strconv.Itoa(len(b)) + " bytes after the request")
	}
	r := &Request{Cwd: fields[1], Umask: -1}
	if f := strings.Split(fields[3], ","); len(f) == 3 {
		u, e1 := strconv.Atoi(f[0])
		d, e2 := strconv.ParseUint(f[1], 10, 64)
		i, e3 := strconv.ParseUint(f[2], 10, 64)
		if e1 != nil || e2 != nil || e3 != nil {
			return nil, errors.New("hookwire: malformed facts field " + strconv.Quote(fields[3]))
		}
		r.Umask, r.CwdDev, r.CwdIno = u, d, i
	} else {
		return nil, errors.New("hookwire: malformed facts field " + strconv.Quote(fields[3]))
	}
	if fields[0] != "" {
		r.Args = strings.Split(fields[0], "\x00")
	}
	if fields[2] != "" {
		r.Environ = strings.Split(fields[2], "\x00")
	}
	return r, nil
}

// Getenv looks key up in environ the way os.Getenv does: the first entry
// of a key wins.
func Getenv(environ []string, key string) string {
	for i := range environ {
		if k, v, ok := strings.Cut(environ[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// MaxSocketPath is the longest socket path both sides use: sun_path holds
// 108 bytes on Linux and 104 on the BSDs and macOS, the terminating NUL
// included. A longer path is not served (hooks then run in their own
// process).
const MaxSocketPath = 103

// KeeperOff is the environment switch WARDEN_KEEPER=off (or 0, false, no):
// hooks neither start a keeper nor ask one. The front, the hook runtime,
// install and doctor all read it here.
func KeeperOff() bool {
	switch os.Getenv("WARDEN_KEEPER") {
	case "off", "0", "false", "no":
		return true
	}
	return false
}
