//go:build !unix

package e2e

import (
	"errors"
	"os/exec"
)

func lockFile(path string) (func(), error) {
	return nil, errors.New("the e2e suite needs a unix system (flock)")
}

func killGroupOnCancel(cmd *exec.Cmd) {}
