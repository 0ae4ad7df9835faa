package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/warden-dev/warden/internal/hookwire"
)

// FloorPhase is the round trip with nothing behind it: the same warden
// front, handing its hook to a stand-in in this process that reads the
// request, closes the descriptors and answers "allowed, exit 0" at once.
// Whatever warden costs over this is the keeper's work; this over bare Go
// is the front's start and one unix-socket round trip.
type FloorPhase struct {
	Rounds    int     `json:"rounds"`
	Front     Summary `json:"front"`
	Bare      Summary `json:"bare_go"`
	RatioBare float64 `json:"ratio_front_bare_go"`
}

// floorPhase runs the front against the stand-in and bare Go, rotating
// the order per round like the other phases.
func (b *bench) floorPhase(o options) (*FloorPhase, error) {
	home, err := os.MkdirTemp("", "hook-floor-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(home)
	sock := filepath.Join(home, "run", "hook.sock")
	if len(sock) > hookwire.MaxSocketPath {
		return nil, fmt.Errorf("floor phase: socket path %s is too long", sock)
	}
	if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
		return nil, err
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("floor phase: %w", err)
	}
	defer ln.Close()
	go standIn(ln)

	env := append(slices.Clone(b.env), "WARDEN_HOME="+home) // the last WARDEN_HOME wins
	front := variant{name: "warden front", path: o.warden, args: []string{"hook", "--harness", "claude"}}
	bare := variant{name: "bare Go", path: o.bare}
	saved := b.env
	b.env = env
	defer func() { b.env = saved }()
	var frontMS, bareMS []float64
	for r := 0; r < o.warmup+o.rounds; r++ {
		order := []variant{front, bare}
		if r%2 == 1 {
			order[0], order[1] = bare, front
		}
		for _, v := range order {
			d, err := b.spawn(v)
			if err != nil {
				return nil, errors.Join(fmt.Errorf("floor phase: %s: %w", v.name, err), b.stderrEmpty())
			}
			if r < o.warmup {
				continue
			}
			if v.path == o.warden {
				frontMS = append(frontMS, float64(d.Microseconds())/1000)
			} else {
				bareMS = append(bareMS, float64(d.Microseconds())/1000)
			}
		}
	}
	p := &FloorPhase{Rounds: o.rounds, Front: summarize("warden front", frontMS), Bare: summarize("bare Go", bareMS)}
	p.RatioBare = p.Front.Median / p.Bare.Median
	return p, nil
}

// standIn answers every request at once: Accepted with exit code 0, the
// reply a quick hook gets (hookserve.AcceptGrace), after closing the
// descriptors the front passed.
func standIn(ln *net.UnixListener) {
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			return // closed
		}
		go func(c *net.UnixConn) {
			defer c.Close()
			c.SetDeadline(time.Now().Add(5 * time.Second))
			buf, oob := make([]byte, hookwire.MaxRequest), make([]byte, 256)
			_, oobn, _, _, err := c.ReadMsgUnix(buf, oob)
			if err != nil {
				return
			}
			if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil {
				for _, m := range msgs {
					fds, _ := syscall.ParseUnixRights(&m)
					for _, fd := range fds {
						syscall.Close(fd)
					}
				}
			}
			c.Write([]byte{hookwire.Accepted, 0})
		}(c)
	}
}

func printFloor(w io.Writer, p *FloorPhase) {
	if p == nil {
		return
	}
	fmt.Fprintf(w, "\nthe round trip alone: the warden front and a stand-in keeper that answers at once, %d rounds\n", p.Rounds)
	fmt.Fprintf(w, "  %-26s %9s %9s %9s\n", "ms", "median", "p90", "p99")
	for _, v := range []Summary{p.Front, p.Bare} {
		fmt.Fprintf(w, "  %-26s %9.2f %9.2f %9.2f\n", v.Name, v.Median, v.P90, v.P99)
	}
	fmt.Fprintf(w, "  front / bare Go  %.2f×   (medians): the floor under any keeper work\n", p.RatioBare)
}
