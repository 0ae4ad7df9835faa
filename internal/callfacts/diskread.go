package callfacts

import "strings"

// A disk tool run only to measure or read a disk writes nothing:
// hdparm's timing and identify options (-t, -T, -I, -g, -C), a read-only
// badblocks scan (no -w, no -n). Any other option may set or erase
// (hdparm -W, --security-erase; badblocks -w), so the list is of what
// reads, and any option outside it keeps the tool a disk change.

// diskReadFlags are, per tool, the options that only read or measure.
var diskReadFlags = map[string]map[string]bool{
	"hdparm": {"-t": true, "-T": true, "-I": true, "-i": true, "-g": true, "-C": true, "-H": true,
		"--direct": true},
	"badblocks": {"-s": true, "-v": true, "-b": true, "-c": true, "-o": true, "-e": true, "-p": true},
}

// DiskReadTest: c, a disk tool, only reads or measures the disk.
func DiskReadTest(c *Cmd) bool {
	ok := diskReadFlags[c.Name]
	if ok == nil {
		return false
	}
	for _, f := range c.Flags {
		if !ok[f] && !(len(f) > 2 && f[1] != '-' && allShort(f, ok)) { // -tT, -sv: each letter a read
			return false
		}
	}
	return true
}

// allShort: every letter of a bundle of short options (-tT) is one of ok.
func allShort(f string, ok map[string]bool) bool {
	for _, r := range f[1:] {
		if !ok["-"+string(r)] {
			return false
		}
	}
	return true
}

// ddFillers are the inputs that carry no data: dd from them into a file
// wipes the file rather than copying into it.
var ddFillers = map[string]bool{"/dev/zero": true, "/dev/null": true, "/dev/urandom": true, "/dev/random": true}

// ddCopies: c, a dd, copies data (a disk, a file, its standard input)
// into its output, rather than filling it with zeros or noise.
func ddCopies(c *Cmd) bool {
	for _, a := range c.Args {
		if v, ok := strings.CutPrefix(a, "if="); ok {
			return !ddFillers[v]
		}
	}
	return true
}
