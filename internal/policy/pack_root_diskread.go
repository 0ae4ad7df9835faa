package policy

import (
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Reading a disk as root is not writing it: dd from a block device into
// /dev/null (a read test) or a bounded read into stdout, hdparm -t, a
// read-only badblocks scan. An image into a file is judged by
// rootQueryFp11 (a removable disk into scratch or the project) and the
// zones (callfacts: dd copying into a file overwrites it, it does not
// empty it); dd onto a device is core.shell:dd-device's.

// rootDiskRead: c (sudo, doas) runs a command that only reads a disk.
func rootDiskRead(e *Env, c *Cmd) bool {
	if c.Name != "sudo" && c.Name != "doas" {
		return false
	}
	in := innerCmd(e, c)
	if in == nil || in.Payload != "" {
		return false
	}
	if in.Name != "dd" {
		return callfacts.DiskReadTest(in)
	}
	src, dst := "", ""
	for _, a := range in.Args {
		if v, ok := strings.CutPrefix(a, "if="); ok {
			src = v
		} else if v, ok := strings.CutPrefix(a, "of="); ok {
			dst = v
		}
	}
	// into /dev/null: a read test keeps nothing; to stdout, a bounded
	// read (count=: a boot sector into xxd). An image into a file is
	// rootQueryFp11's: the first disk holds the machine's secrets.
	return devicePrefix.MatchString(src) && (dst == "/dev/null" || dst == "" && slices.ContainsFunc(in.Args, func(a string) bool { return strings.HasPrefix(a, "count=") }))
}
