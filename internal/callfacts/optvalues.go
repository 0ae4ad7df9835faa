package callfacts

import "strings"

// OptValues are the values c gives the options in set, in order, written
// --opt=value or --opt value (a last option with no word after it has
// none).
func (c *Cmd) OptValues(set map[string]bool) []string {
	var vs []string
	for i, a := range c.Args {
		k, v, hasV := strings.Cut(a, "=")
		if !set[k] {
			continue
		}
		if !hasV {
			if i+1 >= len(c.Args) {
				continue
			}
			v = c.Args[i+1]
		}
		vs = append(vs, v)
	}
	return vs
}
