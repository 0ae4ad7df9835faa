//go:build unix

package hookserve

import (
	"os"
	"strconv"
	"strings"
)

// readUmask reads the umask without changing it (/proc/self/status,
// Linux 4.7+): setting it to read it would race with every goroutine
// creating a file. -1 when it cannot be read; then umask is not checked.
func readUmask() int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Umask:"); ok {
			if u, err := strconv.ParseInt(strings.TrimSpace(v), 8, 32); err == nil {
				return int(u)
			}
		}
	}
	return -1
}
