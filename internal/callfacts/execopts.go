package callfacts

import (
	_ "embed"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// execOptsText lists, as data, the options that make an everyday program
// run a command (tar --checkpoint-action=exec=, rsync -e, zip -TT, ssh -o
// ProxyCommand=): adding one is a line in execopts.txt.
//
//go:embed execopts.txt
var execOptsText string

// execOpt is one line of execopts.txt.
type execOpt struct {
	label  string // "tar --checkpoint-action": the wrapper its payload runs under
	opts   []string
	prefix string
	expect map[string]bool
	shell  bool // extract=shell: the code is what $(shell …) runs
	// labelOnly: git -c keys, read by toolcode.go before the global
	// options are set aside; the line only names what each key expects
	labelOnly bool
}

var execOpts = sync.OnceValue(func() map[string][]execOpt {
	m := map[string][]execOpt{}
	datatable.Must("execopts.txt", execOptsText, 2, func(l datatable.Line) error {
		f := l.Fields
		o := execOpt{opts: strings.Split(f[1], "|")}
		o.label = f[0] + " " + o.opts[0]
		o.labelOnly = f[0] == "git" && f[1] == "-c"
		for _, kv := range f[2:] {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "prefix":
				o.prefix = strings.ToLower(v)
				if !strings.HasSuffix(o.prefix, "=") {
					o.prefix += "="
				}
				o.label += " " + o.prefix
			case "extract":
				o.shell = v == "shell"
			case "expect":
				o.expect = map[string]bool{}
				for _, p := range strings.Split(v, "|") {
					o.expect[p] = true
				}
			}
		}
		m[f[0]] = append(m[f[0]], o)
		return nil
	})
	return m
})

// execOptionCode is the shell code c's options hand to a shell, each with
// the label of its table line.
func execOptionCode(c *Cmd) (codes, labels []string) {
	table := execOpts()[c.Name]
	if table == nil {
		return nil, nil
	}
	for i, a := range c.Args {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		for _, o := range table {
			if o.labelOnly {
				continue
			}
			for _, opt := range o.opts {
				v, ok := "", false
				switch {
				case a == opt && i+1 < len(c.Args):
					v, ok = c.Args[i+1], true
				case strings.HasPrefix(a, opt+"="):
					v, ok = a[len(opt)+1:], true
				case len(opt) == 2 && len(a) > 2 && strings.HasPrefix(a, opt) && !strings.HasPrefix(a, "--"):
					v, ok = a[2:], true // -oProxyCommand=…, -Izstd
				}
				if !ok {
					continue
				}
				if o.prefix != "" {
					if !strings.HasPrefix(strings.ToLower(v), o.prefix) {
						continue
					}
					v = v[len(o.prefix):]
				}
				if o.shell {
					for _, code := range shellCalls(v) {
						codes, labels = append(codes, code), append(labels, o.label)
					}
					continue
				}
				if strings.TrimSpace(v) != "" {
					codes, labels = append(codes, v), append(labels, o.label)
				}
			}
		}
	}
	return codes, labels
}

// ExecOptionExpected reports, for the wrapper label a payload runs under,
// whether it is an execopts.txt option (known) and whether the program
// name is one that option is normally given (expected).
func ExecOptionExpected(label, name string) (known, expected bool) {
	prog, _, _ := strings.Cut(label, " ")
	for _, o := range execOpts()[prog] {
		if o.label == label || strings.TrimSuffix(o.label, "=") == label {
			return true, o.expect[name]
		}
	}
	return false, false
}

// ExecOptionTools are the programs execopts.txt names.
func ExecOptionTools() []string { return slices.Sorted(maps.Keys(execOpts())) }

// shellCalls are the commands make's $(shell …) calls in text run (the
// parentheses balanced).
func shellCalls(text string) []string {
	var out []string
	for {
		i := strings.Index(text, "$(shell ")
		if i < 0 {
			return out
		}
		rest, depth := text[i+len("$(shell "):], 1
		j := 0
		for ; j < len(rest) && depth > 0; j++ {
			switch rest[j] {
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		if depth == 0 {
			out = append(out, rest[:j-1])
		} else {
			out = append(out, rest)
		}
		text = rest[j:]
	}
}
