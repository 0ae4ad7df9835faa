package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// An archive or a dump written onto a block device (tar -cf /dev/sdb,
// cpio -o -O /dev/sdb) starts at its beginning and overwrites what it
// held: dd of=/dev/sdX by another program, denied. Onto a tape it writes
// from where the tape stands: after mt rewind on the line that is the
// beginning (denied); elsewhere, or after mt eod, it may append (asked).
// Appending (tar -r), listing (tar -t) and reading back (tar -x, cpio
// -i) from the device are not.

// tapeDevice: a tape drive's device (rewinding or not).
var tapeDevice = re(`^/dev/(?:n?st\d|n?sa\d|tape|rmt|nrmt|n?ht\d|IBMtape|lto)`)

// archiveWriters write an archive to the file their option names.
var archiveWriters = []string{"tar", "gtar", "bsdtar", "star", "pax", "cpio", "dump", "ufsdump", "xfsdump", "rdump", "mbuffer", "afio"}

// archiveOut is the file c writes its archive to when it creates one
// ("" when it appends, lists, extracts or names none).
func archiveOut(c *Cmd) string {
	letters := func(a string) string { // the letters of a bundle of short options, or of tar's first word
		if strings.HasPrefix(a, "--") {
			return ""
		}
		return strings.TrimPrefix(a, "-")
	}
	// value of the short option l, or of the long ones: "-f X", "-cvf X", "tar cvf X", "--file=X"
	value := func(l byte, long ...string) string {
		for i, a := range c.Args {
			for _, o := range long {
				if a == o && i+1 < len(c.Args) {
					return c.Args[i+1]
				}
				if v, ok := strings.CutPrefix(a, o+"="); ok {
					return v
				}
			}
			b := letters(a)
			if b == "" || !strings.HasPrefix(a, "-") && i > 0 || strings.Trim(b, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" {
				continue
			}
			if k := strings.IndexByte(b, l); k >= 0 {
				if k+1 < len(b) && strings.HasPrefix(a, "-") && b[k+1] == '/' {
					return b[k+1:]
				}
				if k == len(b)-1 && i+1 < len(c.Args) || !strings.HasPrefix(a, "-") && i+1 < len(c.Args) {
					return c.Args[i+1] // -cvf X; tar cvf X
				}
			}
		}
		return ""
	}
	has := func(l byte, long ...string) bool {
		for i, a := range c.Args {
			for _, o := range long {
				if a == o {
					return true
				}
			}
			if b := letters(a); b != "" && (strings.HasPrefix(a, "-") || i == 0 && (c.Name == "tar" || c.Name == "gtar" || c.Name == "star" || c.Name == "bsdtar")) && strings.IndexByte(b, l) >= 0 && !strings.Contains(b, "=") {
				return true
			}
		}
		return false
	}
	switch c.Name {
	case "tar", "gtar", "bsdtar", "star":
		if has('c', "--create") && !has('t', "--list") && !has('x', "--extract", "--get") {
			return value('f', "--file")
		}
	case "pax":
		if has('w') && !has('r') {
			return value('f')
		}
	case "cpio", "afio":
		if has('o', "--create") {
			if v := value('O'); v != "" {
				return v
			}
			return value('F', "--file")
		}
	case "dump", "ufsdump", "xfsdump", "rdump":
		return value('f')
	case "mbuffer":
		return value('o')
	}
	return ""
}

func deviceArchiveRules() []Rule {
	return []Rule{
		cmdRule("core.shell:device-archive", Deny, "An archive or dump written onto a block device (tar -cf /dev/sdb, cpio -o -O /dev/sdb, mbuffer -o /dev/sdc), or onto a tape the line has just rewound (mt -f /dev/nst0 rewind && tar -cvf /dev/nst0 …): what the disk or the cartridge held is overwritten, as dd of=/dev/sdX; appending (tar -r), listing and reading back are not", archiveWriters,
			func(e *Env, c *Cmd) string {
				if out, rewound := deviceArchiveOut(e, c); out != "" && (devicePrefix.MatchString(out) || rewound) {
					return c.Name + " writes an archive onto the device " + out + ": what it held is overwritten"
				}
				return ""
			},
			[]string{"mt -f /dev/nst0 rewind && tar -cvf /dev/nst0 ./exports", "tar -cf /dev/sdb ./exports", "find . -depth | cpio -ov -O /dev/sdb",
				"mt -f /dev/st0 rew; pax -w -f /dev/st0 ./data", "mbuffer -i backup.tar -o /dev/sdc", "tar --create --file=/dev/sdc ./exports"},
			[]string{"tar -tvf /dev/nst0", "tar -xvf /dev/nst0", "tar -cvf exports.tar ./exports", "cpio -idv < /dev/st0", "pax -r -f /dev/st0", "mt -f /dev/nst0 status",
				"dump -0u -f /backup/home.dump /home", "mt -f /dev/nst0 eod && tar -cvf /dev/nst0 ./exports"}),
		cmdRule("core.shell:device-archive-tape", Ask, "An archive or dump written onto a tape where it stands (pax -w -f /dev/nst0, dump -0 -f /dev/nst0, mbuffer -o /dev/st0, cpio -o > /dev/st0): from that position on, what the cartridge held is overwritten; tar's own form is a host action (callfacts/hostacts.txt tape)", archiveWriters,
			func(e *Env, c *Cmd) string {
				if out, rewound := deviceArchiveOut(e, c); out != "" && tapeDevice.MatchString(out) && !rewound {
					return c.Name + " writes an archive onto the tape " + out + ": what the cartridge held from there on is overwritten"
				}
				return ""
			},
			[]string{"pax -w -f /dev/nst0 ./data", "dump -0u -f /dev/nst0 /home", "mbuffer -i backup.tar -o /dev/nst0", "find . | cpio -o > /dev/st0", "xfsdump -f /dev/st0 /data"},
			[]string{"pax -r -f /dev/nst0", "cpio -idv < /dev/st0", "mt -f /dev/nst0 status", "dump -0u -f /backup/home.dump /home"}),
	}
}

// deviceArchiveOut is the block or tape device c writes an archive to
// ("" for none), and whether a tape mt rewinds on the line first.
func deviceArchiveOut(e *Env, c *Cmd) (string, bool) {
	if onlyHelp(c) {
		return "", false
	}
	out := archiveOut(c)
	if out == "" || out == "-" {
		out = ""
		for _, p := range e.F.Paths {
			if p.Op == OpWrite && p.Via == ">" && (tapeDevice.MatchString(p.Path) || devicePrefix.MatchString(p.Path)) && createsArchive(c) {
				out = p.Path // find . | cpio -o > /dev/st0
			}
		}
	}
	if out == "" || callfacts.UnknownValue(out) || !tapeDevice.MatchString(out) && !devicePrefix.MatchString(out) {
		return "", false
	}
	rewound := false
	for _, m := range e.F.Cmds("mt", "mt-st") {
		for i, a := range m.Args {
			if a == "rewind" || a == "rew" || a == "asf" && i+1 < len(m.Args) && m.Args[i+1] == "0" {
				rewound = true // mt -f /dev/nst0 rewind: the next write starts at the tape's beginning
			}
		}
	}
	return out, rewound
}

// createsArchive: c writes an archive on its output (cpio -o, tar -c
// without -f, pax -w without -f).
func createsArchive(c *Cmd) bool {
	for i, a := range c.Args {
		b := strings.TrimPrefix(a, "-")
		if strings.HasPrefix(a, "--") {
			if a == "--create" {
				return true
			}
			continue
		}
		if strings.HasPrefix(a, "-") || i == 0 {
			switch c.Name {
			case "cpio", "afio":
				if strings.ContainsRune(b, 'o') {
					return true
				}
			case "pax":
				if strings.ContainsRune(b, 'w') {
					return true
				}
			case "tar", "gtar", "bsdtar", "star":
				if strings.ContainsRune(b, 'c') {
					return true
				}
			case "dump", "ufsdump", "xfsdump", "rdump", "mbuffer":
				return true
			}
		}
	}
	return false
}
