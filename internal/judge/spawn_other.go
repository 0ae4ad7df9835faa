//go:build !unix

package judge

import "os/exec"

func spawnDetached(bin string, args []string) error {
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
