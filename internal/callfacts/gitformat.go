package callfacts

import (
	"strconv"
	"strings"
)

// gitFormatTemplate: git for-each-ref / branch / tag --format=FMT and git
// log / show / rev-list --format=FMT (--pretty=format:FMT) print FMT once
// per ref or commit. The format's text is on the line; its placeholders
// (%(refname:short), %H, %an…) come from the repository and stand as
// $INPUT, as a jq template's interpolations do: git for-each-ref
// --format='git log -1 %(refname:short)' refs/heads | sh runs git log.
// --shell, --perl… quote the values, which only makes them safer. ok is
// false without a format or for another subcommand.
func gitFormatTemplate(args []string) (text, bool) {
	for len(args) > 1 && (args[0] == "-C" || args[0] == "--no-pager" || args[0] == "-c") {
		if args[0] == "--no-pager" {
			args = args[1:]
		} else {
			args = args[2:]
		}
	}
	if len(args) == 0 {
		return text{}, false
	}
	refs := false
	switch args[0] {
	case "for-each-ref", "branch", "tag":
		refs = true
	case "log", "show", "rev-list", "reflog", "shortlog":
	default:
		return text{}, false
	}
	format := ""
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "--format" || a == "--pretty") && i+1 < len(args) && refs:
			format = args[i+1]
			i++
		case strings.HasPrefix(a, "--format="):
			format = a[len("--format="):]
		case strings.HasPrefix(a, "--pretty="):
			format = a[len("--pretty="):]
		}
	}
	if !refs {
		// log's --format=FMT and --pretty=format:FMT / tformat:FMT; a
		// named pretty format (oneline, short) prints no command
		if f, ok := strings.CutPrefix(format, "tformat:"); ok {
			format = f
		} else if f, ok := strings.CutPrefix(format, "format:"); ok {
			format = f
		} else if !strings.Contains(format, "%") {
			return text{}, false
		}
	}
	if format == "" {
		return text{}, false
	}
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch d := format[i]; {
		case d == '%':
			b.WriteByte('%')
		case d == 'n' && !refs:
			b.WriteByte('\n')
		case d == '(':
			j := strings.IndexByte(format[i:], ')')
			if j < 0 {
				return text{}, false
			}
			i += j
			b.WriteString("$INPUT")
		case d == 'x' && !refs || refs && i+1 < len(format):
			// %x0a in log, %0a in for-each-ref: a byte in hex
			k := i
			if d == 'x' && !refs {
				k++
			}
			if k+2 > len(format) {
				return text{}, false
			}
			v, err := strconv.ParseUint(format[k:k+2], 16, 8)
			if err != nil {
				return text{}, false
			}
			b.WriteByte(byte(v))
			i = k + 1
		case d == 'C' && !refs:
			return text{}, false // colours: not read
		case !refs && (d == 'a' || d == 'c' || d == 'G' || d == 'g') && i+1 < len(format):
			i++ // %an, %cd, %GS, %gd: two letters
			b.WriteString("$INPUT")
		case !refs:
			b.WriteString("$INPUT") // %H, %h, %s, %d…
		default:
			return text{}, false
		}
	}
	return text{s: b.String() + "\n", known: true}, true
}
