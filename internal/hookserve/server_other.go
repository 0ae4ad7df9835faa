//go:build !unix

package hookserve

import (
	"errors"
	"net"
)

var errNoUnix = errors.New("the hook server answers over a unix socket with descriptor passing; on this system hooks run in their own process")

// Listen is unix-only.
func Listen(string) (*net.UnixListener, error) { return nil, errNoUnix }

// Serve is unix-only.
func (s *Server) Serve(*net.UnixListener) error { return errNoUnix }

func readUmask() int { return -1 }
