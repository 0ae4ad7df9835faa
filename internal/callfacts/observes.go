package callfacts

// Observes reports whether c only watches: a packet capture, a network
// scan or an inventory (tools.txt observes) without the options that
// make it do more (tcpdump -z runs a command on each file, nmap --script
// runs scripts against the hosts). Its writes are its output files.
func (c *Cmd) Observes() bool {
	t := tool(c.Name)
	return t.observes && !c.Has(t.observesNot...) && !c.hasPrefixOpt(t.observesNot)
}

// OutputFiles are the files c writes by its options (tcpdump -w, nmap
// -oN): its tools.txt out= values.
func (c *Cmd) OutputFiles() []string {
	files, _ := tool(c.Name).outputs(c)
	return files
}

// hasPrefixOpt: c has one of opts written with its value joined
// (--script=vuln).
func (c *Cmd) hasPrefixOpt(opts []string) bool {
	for _, a := range c.Args {
		for _, o := range opts {
			if len(o) > 2 && len(a) > len(o) && a[:len(o)+1] == o+"=" {
				return true
			}
		}
	}
	return false
}
