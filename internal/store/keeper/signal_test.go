//go:build unix

package keeper

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
)

func notifyTerm(t *testing.T) <-chan os.Signal {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM)
	t.Cleanup(func() { signal.Stop(c) })
	return c
}
