//go:build !unix

package llm

import "os/exec"

func setProcessGroup(*exec.Cmd) {}
