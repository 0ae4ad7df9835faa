package callfacts

import (
	"path"
	"slices"
	"strings"
)

// Outputs named by options (tools.txt out= and into=): the file a
// download saves (curl -o, wget -O), the directory an archive is
// extracted into (tar -x -C, unzip -d, 7z x -o). Such a target is
// overwritten: what was there is replaced.

// OptionValues are the values of options opts in args: "-o v", "-ov",
// "--output=v", "--output v", and a cluster ending in the option's
// letter ("-sSLo v").
func OptionValues(args, opts []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		for _, o := range opts {
			long := strings.HasPrefix(o, "--") || len(o) > 2
			switch {
			case a == o && i+1 < len(args):
				out = append(out, args[i+1])
				i++
			case long && len(a) > len(o) && a[len(o)] == '=' && a[:len(o)] == o: // --output=v, o+"=" not built for every option
				out = append(out, a[len(o)+1:])
			case long || a[1] == '-':
				continue // a long option is not a short one's cluster
			case strings.HasPrefix(a, o) && len(a) > 2:
				out = append(out, a[2:]) // -ov, 7z's -o/dir
			case len(a) > 2 && a[len(a)-1] == o[1] && letters(a[1:]) && i+1 < len(args):
				out = append(out, args[i+1]) // -sSLo v
				i++
			default:
				continue
			}
			break
		}
	}
	return out
}

// programFiles are the files an in-place editor edits: its positionals
// without the program (the value of a program option, else the first).
func programFiles(c *Cmd, t *toolSpec) []string {
	progs := OptionValues(c.Args, t.program)
	if len(progs) == 0 {
		if len(c.Pos) == 0 {
			return nil
		}
		return c.Pos[1:]
	}
	var out []string
	for _, p := range c.Pos {
		if !contains(progs, p) {
			out = append(out, p)
		}
	}
	return out
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// outputs are the files and directories c overwrites by its options.
func (t *toolSpec) outputs(c *Cmd) (files, dirs []string) {
	if t.out == nil && t.into == nil || !t.outputsOn(c) {
		return nil, nil
	}
	for _, v := range OptionValues(c.Args, t.out) {
		if v != "-" && v != "/dev/stdout" {
			files = append(files, v)
		}
	}
	if v := lastOutput(c, t); v != "" {
		files = append(files, v)
	}
	return files, OptionValues(c.Args, t.into)
}

// lastOutput is the file a converter writes as its last operand (out=#last:
// lame in.wav out.mp3, gdalwarp src.tif dst.tif, magick a.png -resize 50%
// b.png, sox a.wav b.wav): given an input and an output, the last one is
// the output, "" when there are not two operands, the last is stdout, a
// name without a dot (sox's effects: `sox a.wav -n stat`), or the
// command only reports (tools.txt reports=: magick identify); a glob is
// many inputs, not one output (magick mogrify -path out/ ~/x/*.png).
func lastOutput(c *Cmd, t *toolSpec) string {
	if !slices.Contains(t.out, "#last") || len(c.Pos) < 2 {
		return ""
	}
	if sub := c.Sub(0); sub != "" && slices.Contains(t.reports, sub) {
		return ""
	}
	v := c.Pos[len(c.Pos)-1]
	input := false
	for _, p := range c.Pos[:len(c.Pos)-1] {
		input = input || strings.ContainsAny(p, "./")
	}
	if !input {
		return "" // no input file before it (magick ls x, qpdf show x): a verb, not a conversion
	}
	if v == "-" || v == "/dev/stdout" || v == "/dev/null" || strings.HasPrefix(v, "-") || strings.ContainsAny(v, "*?[") || !strings.Contains(path.Base(v), ".") || v == c.Pos[0] {
		return ""
	}
	return v
}

// outputsOn reports whether c's mode writes its outputs (tar -x, 7z x):
// one of when's options, its subcommand, or a letter of a leading
// bundle (tar xzf).
func (t *toolSpec) outputsOn(c *Cmd) bool {
	if t.when == nil {
		return true
	}
	for _, w := range t.when {
		switch {
		case strings.HasPrefix(w, "-") && strings.Contains(w, "="):
			k, v, _ := strings.Cut(w, "=")
			for i, a := range c.Args {
				if a == w || a == k && i+1 < len(c.Args) && c.Args[i+1] == v {
					return true
				}
			}
		case strings.HasPrefix(w, "-"):
			if c.Has(w) {
				return true
			}
		case c.Sub(0) == w:
			return true
		case len(w) == 1 && len(c.Args) > 0 && c.Args[0] == c.Sub(0) && letters(c.Args[0]) && len(c.Args[0]) <= 6 && strings.Contains(c.Args[0], w):
			return true
		}
	}
	return false
}
