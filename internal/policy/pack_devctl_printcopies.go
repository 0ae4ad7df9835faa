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
			if p := namedPrinter(c); p != "" && printsFile(c, p) && largeMedia(c) {
				return c.Name + " sends a job on roll or custom-size media to the printer " + p + ": a large-format print spends costly media and hours of the printer, and cannot be called back once it prints: " + c.String()
			}
			return ""
		},
		[]string{"lp -d Xerox_Versant_180 -n 500 flyers.pdf", "lpr -#200 -P office report.pdf", "lp -o copies=100 menu.pdf", "lpr -P hall -o copies=60 programme.pdf", "lp -n250 tickets.pdf",
			"lp -d DesignJet_T1700 -o media=Custom.914x1500mm poster.pdf", "lp -d Epson_P9570 -o media=Roll proofs/a.pdf"},
		[]string{"lp -n 2 report.pdf", "lpr -#3 notes.pdf", "lp -d office report.pdf", "lpstat -p", "lp -o copies=5 menu.pdf", "lpr -P office -o sides=two-sided-long-edge thesis.pdf",
			"lp -d office -o media=A4 report.pdf", "lp -d cups-pdf -o media=Roll poster.pdf", "lp -o media=Custom.914x1500mm poster.pdf", "lpoptions -d office"})
}

// namedPrinter: the printer lp -d or lpr -P sends the job to, unless it
// is the developer's own stand-in (a PDF or file printer, one named dev,
// test, virtual or dummy); "" when the job goes to the default printer.
func namedPrinter(c *Cmd) string {
	opt := "-d"
	if c.Name == "lpr" {
		opt = "-P"
	}
	p := ""
	for i, a := range c.Args {
		switch {
		case a == opt && i+1 < len(c.Args):
			p = c.Args[i+1]
		case strings.HasPrefix(a, opt) && len(a) > 2:
			p = a[2:]
		case c.Name == "lp" && strings.HasPrefix(a, "--destination="):
			p = strings.TrimPrefix(a, "--destination=")
		}
	}
	if p == "" || strings.Contains(p, "$") {
		return ""
	}
	for _, w := range wordsOf(p) {
		switch w {
		case "pdf", "cups", "file", "dev", "test", "testing", "virtual", "dummy", "null", "fake", "mock", "sim", "local":
			return ""
		}
	}
	return p
}

// largeMedia: the job is printed on a roll or a custom size (lp -o
// media=Roll, media=Custom.914x1500mm): a plotter's or a large-format
// printer's media.
func largeMedia(c *Cmd) bool {
	for _, a := range c.Args {
		a = strings.ToLower(strings.TrimPrefix(a, "-o"))
		for _, kv := range strings.Split(a, ",") {
			if v, ok := strings.CutPrefix(kv, "media="); ok && (strings.HasPrefix(v, "roll") || strings.HasPrefix(v, "custom")) {
				return true
			}
		}
	}
	return false
}

// printsFile: the job names a file to print besides the printer p (and
// the values of lp's options).
func printsFile(c *Cmd, p string) bool {
	for _, a := range c.Pos {
		if a != p && (strings.ContainsAny(a, "./") || strings.HasPrefix(a, "$")) {
			return true
		}
	}
	return false
}
