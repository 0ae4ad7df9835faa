//go:build !unix

package keeper

import (
	"errors"
	"time"
)

// Without flock there is no safe way to keep one keeper per store; hooks
// just pay the open and close themselves.
var errUnsupported = errors.New("keeper: not supported on this system")

func tryLock(string, string) (func(), error) { return nil, errUnsupported }

// Running says it cannot tell, so Ensure never starts one and doctor says
// why.
func Running(string) (bool, error) { return false, errUnsupported }

// Stop has nothing to stop where no keeper runs.
func Stop(string, time.Duration) error { return nil }

// Holder cannot tell without a lock.
func Holder(string) (int, string, error) { return 0, "", errUnsupported }
