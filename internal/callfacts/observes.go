package callfacts

import "strings"

// Observes reports whether c only watches: a packet capture, a network
// scan, an inventory or a read of this machine's state (tools.txt
// observes) without what makes it do more: an option (tcpdump -z, sysctl
// -w; OPT* any option so begun: ethtool --set-*), a word among its
// positionals (ip … add, conntrack flush), "#" any positional at all
// (mount /dev/sdb1 /mnt) or "=" a KEY=VALUE one (sysctl vm.x=1). With
// needs=, it only watches when one of those options is given (gdb
// -batch). Its writes are its output files.
func (c *Cmd) Observes() bool {
	t := c.tool()
	if !t.observes {
		return false
	}
	if len(t.needs) > 0 && !c.anyOption(t.needs) {
		return false
	}
	for _, w := range t.observesNot {
		switch {
		case w == "#":
			if len(c.Pos) > 0 {
				return false
			}
		case w == "=":
			for _, p := range c.Pos {
				if k, _, ok := strings.Cut(p, "="); ok && k != "" && !strings.HasPrefix(k, "-") {
					return false
				}
			}
		case strings.HasPrefix(w, "-"):
			if c.anyOption([]string{w}) {
				return false
			}
		default:
			for _, p := range c.Pos {
				if strings.EqualFold(p, w) {
					return false
				}
			}
		}
	}
	return true
}

// Scans reports whether program name's positionals are network targets
// (tools.txt scans: nmap, masscan), judged by how wide they reach.
func Scans(name string) bool { return tool(name).scans }

// anyOption: c has one of opts, as a flag, written with its value joined
// (--html=/tmp/p.html, -w/tmp/x) or, for an OPT* entry, any option so
// begun (exim -Mrm, ethtool --set-eee).
func (c *Cmd) anyOption(opts []string) bool {
	if c.Has(opts...) {
		return true
	}
	for _, a := range c.Args {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		for _, o := range opts {
			if p, ok := strings.CutSuffix(o, "*"); ok {
				if strings.HasPrefix(a, p) {
					return true
				}
				continue
			}
			if a == o || strings.HasPrefix(a, o+"=") {
				return true
			}
		}
	}
	return false
}

// OutputFiles are the files c writes by its options (tcpdump -w, nmap
// -oN): its tools.txt out= values.
func (c *Cmd) OutputFiles() []string {
	files, _ := c.tool().outputs(c)
	return files
}
