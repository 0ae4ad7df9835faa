//go:build !unix

package keeper

import (
	"errors"
	"time"
)

// Without flock there is no safe way to keep one keeper per store; hooks
// just pay the open and close themselves.
func tryLock(string) (func(), error) { return nil, errors.New("keeper: not supported on this system") }

func Running(string) (bool, error) { return true, nil }

// Stop has nothing to stop where no keeper runs.
func Stop(string, time.Duration) error { return nil }
