package callfacts

import "strings"

// weakOwnNoun: a start or a cancel of what is the developer's own (a
// server, an emulator or a worker started here: prefect server start;
// a run or build the developer launched: tw runs cancel), nounverbs.txt
// own-nouns. Other verbs of the s25 list read every noun.
func weakOwnNoun(nv nounVerbTable, noun, verb string) bool {
	return (verb == "start" || verb == "cancel") && nv.ownNouns[noun]
}

// sendsFiles: verbs whose file operands are what is sent to the service
// (ctf challenge sync web/baby-sqli, firmware flash fw.bin to a fleet,
// config push ./site.yml): a path operand does not make the act local,
// as it does for patch apply fix.diff.
func sendsFiles(verb string) bool {
	return verb == "sync" || verb == "push"
}

// soleWeakVerb: the first word of an unknown program, global options'
// values aside, is a verb of nounverbs.txt sole-verbs (bwdc sync,
// zorkctl trigger nightly, acmectl cancel 42): the act of the client on
// its service. "" for none, and when a later word reads or checks
// (zorkctl sync status).
func (c *Cmd) soleWeakVerb() string {
	nv := nounVerbs()
	t := destroyVerbs()
	if sqlWords[c.Name] || nameReads(t, c.Name) {
		return ""
	}
	for _, p := range c.verbPos() {
		if optionValue(c.Args, p) {
			continue
		}
		l := strings.ToLower(p)
		if p != l || !nv.soleVerbs[l] {
			return ""
		}
		for _, q := range c.Pos {
			q = strings.ToLower(q)
			if t.reads[q] || t.neutral[q] || checkWords[q] || checkPhrase(q) {
				return ""
			}
		}
		return l
	}
	return ""
}

// shortCommandOption: an unknown admin tool's -c takes the command it
// runs (psadmin -c shutdown -d HRPRD, an appliance's -c restart): a bare
// change verb of verbs.txt there is the act. A value with a dot, slash or
// equals sign is a config file or a connection (tool -c prod.yml), and
// a shell's -c is judged as its script.
func (c *Cmd) shortCommandOption() string {
	t := destroyVerbs()
	for i := 0; i+1 < len(c.Args); i++ {
		if c.Args[i] != "-c" {
			continue
		}
		v := c.Args[i+1]
		if l := strings.ToLower(v); t.changes[l] && l == v {
			return "-c " + l
		}
	}
	return ""
}
