//go:build unix && !linux

package hook

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// fionread is FIONREAD of the BSDs and macOS, _IOR('f', 127, int); x/sys
// does not export it there.
const fionread = 0x4004667f

// waitDrained waits until nothing is left to read in the pipe r.
func waitDrained(r *os.File, within time.Duration) bool {
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		n, err := unix.IoctlGetInt(int(r.Fd()), fionread)
		if err != nil {
			return false
		}
		if n == 0 {
			return true
		}
	}
	return false
}
