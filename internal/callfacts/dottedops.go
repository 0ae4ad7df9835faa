package callfacts

import "strings"

// dottedOp: c's positional i, after its first words, is an operation
// named noun.verb (cv api4 Contact.delete, zorkctl call Job.purge) and
// not an option's value, each word before it a plain word (no path,
// host or file: cv api4, tool rpc): the verb of an API call.
func dottedOp(c *Cmd, i int, verbs map[string]bool) bool {
	p := c.Pos[i]
	if !dottedVerb(p, verbs) || optionBefore(c.Args, p) {
		return false
	}
	for _, w := range c.Pos[:i] {
		if strings.ContainsAny(w, "/=@.:$") {
			return false
		}
	}
	return true
}
