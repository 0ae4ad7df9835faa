//go:build !unix

package e2e

import "os/exec"

func killGroupOnCancel(cmd *exec.Cmd) {}
