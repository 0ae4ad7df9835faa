package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// What a command run as root only reads, beyond rootQuery's list: a
// dry run of a system tool (logrotate -d: debug mode rotates nothing), a
// packet capture bounded by a count or a timeout into a file under /tmp
// or the project, and a removable device's image copied into such a file
// (dd if=/dev/sdb of=backups/card.img reads the card; the first disk,
// holding the machine's data and secrets, is judged as ever). Writing to
// a device, or to a file outside scratch and the project, is judged as
// ever.

// timeoutCommand is the command timeout runs: its options and the
// duration skipped; nil when there is none.
func timeoutCommand(args []string) []string {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if args[i] == "-s" || args[i] == "--signal" || args[i] == "-k" || args[i] == "--kill-after" {
			i++
		}
		i++
	}
	if i+1 >= len(args) {
		return nil
	}
	return args[i+1:]
}

// scratchOrProjectFile: p is a relative path inside the working tree or a
// file under /tmp: what root writes there replaces no system file.
func scratchOrProjectFile(p string) bool {
	p = strings.Trim(p, `"'`)
	if p == "" || strings.Contains(p, "..") || strings.Contains(p, "$") {
		return false
	}
	if strings.HasPrefix(p, "/tmp/") || strings.HasPrefix(p, "/var/tmp/") {
		return true
	}
	return !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "-")
}

// rootQueryFp11: what name run as root with args only reads; bounded
// when timeout runs it.
func rootQueryFp11(name string, args []string, bounded bool) string {
	has := func(flags ...string) bool { return callfacts.HasArg(args, flags...) }
	switch name {
	case "logrotate":
		if has("-d", "--debug") {
			return "logrotate -d only shows what it would rotate"
		}
	case "tcpdump":
		// a capture bounded by a count or a timeout: a sample, not a
		// standing tap on every interface (an unbounded one is judged)
		if w := optArg(args, "-w"); w != "" && scratchOrProjectFile(w) && !has("-z", "-Z") && (bounded || optArg(args, "-c") != "") {
			return "tcpdump only captures traffic into " + w
		}
	case "sqlite3":
		// a database opened read-only: its statements cannot write it or
		// what it attaches; a dot command (.shell, .output, .import) or an
		// extension loaded would act beyond the database
		if !has("-readonly") || has("-cmd", "-init", "-safe-off", "-unsafe-testing") {
			return ""
		}
		for _, a := range args {
			if strings.HasPrefix(strings.TrimSpace(a), ".") || strings.Contains(strings.ToLower(a), "load_extension") || strings.Contains(a, "writefile") || strings.Contains(a, "edit(") {
				return ""
			}
		}
		return "sqlite3 -readonly only reads the database"
	case "dd":
		in, out := "", ""
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "if="); ok {
				in = v
			}
			if v, ok := strings.CutPrefix(a, "of="); ok {
				out = v
			}
		}
		if removableDisk(in) && scratchOrProjectFile(out) {
			return "dd only reads " + in + " into " + out
		}
	}
	return ""
}

// optArg is the value of short option o in args ("-w f" or "-wf").
func optArg(args []string, o string) string {
	for i, a := range args {
		if a == o && i+1 < len(args) {
			return args[i+1]
		}
		if strings.HasPrefix(a, o) && len(a) > len(o) && !strings.HasPrefix(a, "--") {
			return a[len(o):]
		}
	}
	return ""
}

// removableDisk: a device path that names a second disk (sdb and on) or
// a USB or card reader by id: a card or stick being imaged. The first
// disk (sda, nvme0n1, vda) holds the machine's own data and secrets.
func removableDisk(p string) bool {
	if d, ok := strings.CutPrefix(p, "/dev/sd"); ok && d != "" && d[0] >= 'b' && d[0] <= 'z' {
		return true
	}
	return strings.HasPrefix(p, "/dev/disk/by-id/usb-") || strings.HasPrefix(p, "/dev/disk/by-id/mmc-")
}
