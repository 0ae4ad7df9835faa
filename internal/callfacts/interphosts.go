package callfacts

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// Programs that embed an interpreter (hython, mayapy, blender
// --python-expr, nuke -t, gdb -ex 'python …', emacs --eval) take code the
// way python does. interphosts.txt describes them as data; the command
// they run is read as the language's interpreter command (hython -c CODE
// is python3 -c CODE), so its payload, library calls and a script run by
// name get the reading python gets.
//
//go:embed interphosts.txt
var interpHostsText string

type interpLang struct {
	prog, flag string
	exts       []string
}

type interpHost struct {
	lang          *interpLang
	opts          map[string]string // option → code, file, either, dbg
	script, stdin bool
}

var interpHostTables = sync.OnceValue(func() map[string]*interpHost {
	langs := map[string]*interpLang{}
	hosts := map[string]*interpHost{}
	datatable.Must("interphosts.txt", interpHostsText, 2, func(l datatable.Line) error {
		f := l.Fields
		if f[0] == "lang" && len(f) >= 4 {
			langs[f[1]] = &interpLang{prog: f[2], flag: f[3], exts: f[4:]}
			return nil
		}
		lg := langs[f[1]]
		if lg == nil {
			return l.Errorf("unknown language %q", f[1])
		}
		h := &interpHost{lang: lg, opts: map[string]string{}}
		for _, w := range f[2:] {
			switch w {
			case "script":
				h.script = true
			case "stdin":
				h.stdin = true
			default:
				k, v, ok := strings.Cut(w, ":")
				if !ok {
					return l.Errorf("bad form %q", w)
				}
				h.opts[k] = v
			}
		}
		hosts[f[0]] = h
		return nil
	})
	return hosts
})

// interpHostFor is the host line for a program name (Nuke15.1 is nuke).
func interpHostFor(name string) *interpHost {
	hs := interpHostTables()
	if h := hs[name]; h != nil {
		return h
	}
	if t := strings.TrimRight(name, "0123456789.v"); len(t) < len(name) && len(t) > 2 {
		return hs[t]
	}
	return nil
}

// hostInterpArgv is the interpreter command an embedding host runs: nil
// when its words give it no code.
func hostInterpArgv(name string, args []string) []string {
	h := interpHostFor(name)
	if h == nil {
		return nil
	}
	lg := h.lang
	code := func(c string) []string { return []string{lg.prog, lg.flag, c} }
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" && h.stdin {
			return []string{lg.prog, "-"}
		}
		if strings.HasPrefix(a, "-") || len(h.opts) > 0 && h.opts[a] != "" {
			k, v, eq := strings.Cut(a, "=")
			kind := h.opts[k]
			if kind == "" {
				continue
			}
			if !eq {
				if i+1 >= len(args) {
					continue
				}
				v = args[i+1]
				i++
			}
			switch kind {
			case "code":
				return code(v)
			case "file":
				return append([]string{lg.prog, v}, args[i+1:]...)
			case "either":
				if strings.ContainsAny(v, " ;(\n") {
					return code(v)
				}
				return append([]string{lg.prog, v}, args[i+1:]...)
			case "dbg":
				t := strings.TrimSpace(v)
				for _, p := range []string{"python ", "py ", "pi ", "python-interactive ", "script "} {
					if c, ok := strings.CutPrefix(t, p); ok {
						return code(c)
					}
				}
				if c, ok := strings.CutPrefix(t, "shell "); ok {
					return []string{"sh", "-c", c}
				}
				if c, ok := strings.CutPrefix(t, "!"); ok {
					return []string{"sh", "-c", c}
				}
			case "vim":
				t := strings.TrimLeft(strings.TrimSpace(v), ":")
				for _, p := range []string{"lua ", "lua="} {
					if c, ok := strings.CutPrefix(t, p); ok {
						return []string{"lua", "-e", c}
					}
				}
				if f, ok := strings.CutPrefix(t, "luafile "); ok {
					return append([]string{"lua", strings.TrimSpace(f)}, args[i+1:]...)
				}
				for _, p := range []string{"call ", "let ", "eval "} {
					if strings.HasPrefix(t, p) {
						return []string{"vimscript", "-e", t}
					}
				}
			}
			continue
		}
		if h.script {
			for _, e := range lg.exts {
				if strings.HasSuffix(a, e) && len(a) > len(e) {
					return append([]string{lg.prog, a}, args[i+1:]...)
				}
			}
		}
	}
	return nil
}
