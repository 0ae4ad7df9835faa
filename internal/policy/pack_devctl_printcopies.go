package policy

import (
	"strconv"
	"strings"
)

// printRunCopies is the copy count from which a print job is a print
// run: two dozen copies or more (s24-device: 25, was 50; a plotter's
// 40 parts were asked by the levels' writers) are paper, toner and an hour of a
// shared printer, and a slip of the finger (-n 500 for -n 5) cannot be
// called back once the printer starts. A handful of copies is routine.
const printRunCopies = 25

// printCopies is the number of copies lp or lpr asks for: lp -n N,
// lpr -#N, either's -o copies=N; 0 when none is given.
func printCopies(c *Cmd) int {
	n := 0
	take := func(v string) {
		if k, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && k > n {
			n = k
		}
	}
	for i, a := range c.Args {
		next := ""
		if i+1 < len(c.Args) {
			next = c.Args[i+1]
		}
		switch {
		case c.Name == "lp" && a == "-n", c.Name == "lpr" && (a == "-#" || a == "-K"), a == "-o" && strings.HasPrefix(next, "copies="):
			take(strings.TrimPrefix(next, "copies="))
		case c.Name == "lp" && strings.HasPrefix(a, "-n"):
			take(a[2:])
		case c.Name == "lpr" && strings.HasPrefix(a, "-#"):
			take(a[2:])
		case strings.HasPrefix(a, "-ocopies="):
			take(strings.TrimPrefix(a, "-ocopies="))
		}
	}
	return n
}

func printRunRule() Rule {
	return cmdRule("core.local:print-run", Ask, "A print job of many copies (lp -n 500, lpr -#200, -o copies=100): paper, toner and a shared printer's hours spent at once, and a wrong count cannot be called back; a few copies stay routine",
		[]string{"lp", "lpr"},
		func(e *Env, c *Cmd) string {
			if n := printCopies(c); n >= printRunCopies {
				return c.Name + " prints " + strconv.Itoa(n) + " copies: " + c.String()
			}
			return ""
		},
		[]string{"lp -d Xerox_Versant_180 -n 500 flyers.pdf", "lpr -#200 -P office report.pdf", "lp -o copies=100 menu.pdf", "lpr -P hall -o copies=60 programme.pdf", "lp -n250 tickets.pdf"},
		[]string{"lp -n 2 report.pdf", "lpr -#3 notes.pdf", "lp -d office report.pdf", "lpstat -p", "lp -o copies=5 menu.pdf", "lpr -P office -o sides=two-sided-long-edge thesis.pdf"})
}
