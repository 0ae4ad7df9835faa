package callfacts

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
	"github.com/warden-dev/warden/internal/lazyre"
)

// The library calls of Julia, R, Lua (and Neovim's API), Emacs Lisp,
// Tcl, Deno, Bun, PHP, Groovy and awk are read by the readers written
// for Python, Node, Ruby and Perl (interp.go): interpcalls.txt spells
// each language's file deletes, writes, reads, shell runs and home
// directory as the calls those readers know, and names the calls that
// do what a CLI line does (deploydocs is a push to gh-pages).
//
//go:embed interpcalls.txt
var interpCallsText string

type callSpelling struct{ from, to string }

type callCommand struct {
	call  string
	words []string
	cmd   string
}

type callLang struct {
	spell []callSpelling
	does  []callCommand
}

var interpCallTables = sync.OnceValue(func() map[string]*callLang {
	langs := map[string]*callLang{}
	progs := map[string]*callLang{}
	unesc := strings.NewReplacer(`\s`, " ")
	datatable.Must("interpcalls.txt", interpCallsText, 2, func(l datatable.Line) error {
		f := l.Fields
		if f[0] == "lang" {
			if len(f) < 3 {
				return l.Errorf("lang wants a name and programs")
			}
			lg := &callLang{}
			langs[f[1]] = lg
			for _, p := range f[2:] {
				progs[p] = lg
			}
			return nil
		}
		lg := langs[f[0]]
		if lg == nil {
			return l.Errorf("unknown language %q", f[0])
		}
		rest := strings.TrimSpace(strings.TrimPrefix(l.Text, f[0]))
		if a, b, ok := strings.Cut(rest, " => "); ok {
			w := strings.Fields(a)
			lg.does = append(lg.does, callCommand{call: w[0], words: w[1:], cmd: strings.TrimSpace(b)})
			return nil
		}
		a, b, ok := strings.Cut(rest, " -> ")
		if !ok {
			return l.Errorf("want SPELLING -> CANONICAL or CALL => COMMAND")
		}
		lg.spell = append(lg.spell, callSpelling{unesc.Replace(strings.TrimSpace(a)), unesc.Replace(strings.TrimSpace(b))})
		return nil
	})
	return progs
})

// callLangFor is the call table of the language a program's code is
// written in, nil for none.
func callLangFor(name string) *callLang {
	return interpCallTables()[strings.ToLower(name)]
}

// CanonicalCode is code as the readers of interp.go know it: the
// language's spellings (interpcalls.txt) rewritten; code itself for a
// language with none.
func CanonicalCode(name, code string) string {
	lg := callLangFor(name)
	if lg == nil {
		return code
	}
	for _, s := range lg.spell {
		code = replaceCall(code, s.from, s.to)
	}
	if strings.Contains(code, "`${") {
		// `${os.homedir()}/.npmrc`, `${Deno.env.get("HOME")}/x`: the
		// path the template spells, "~/.npmrc"
		code = jsHomeTemplate.ReplaceAllString(code, `"~/$1"`)
	}
	if lg == callLangFor("tclsh") && strings.Contains(code, "file join") {
		// [file join ~ Xilinx]: the path its words join, "~/Xilinx"
		code = tclFileJoin.ReplaceAllStringFunc(code, func(m string) string {
			w := strings.Fields(tclFileJoin.FindStringSubmatch(m)[1])
			for i := range w {
				w[i] = strings.Trim(w[i], `"{}`)
			}
			return `"` + strings.Join(w, "/") + `"`
		})
	}
	return code
}

// jsHomeTemplate: a JavaScript template that is a path under home.
var jsHomeTemplate = lazyre.New("`\\$\\{\\s*(?:(?:require\\(['\"](?:node:)?os['\"]\\)|\\bos)\\.homedir\\(\\)|process\\.env\\.HOME)\\s*\\}/([^`$\\s]*)`")

// tclFileJoin: Tcl's [file join A B …].
var tclFileJoin = lazyre.New(`\[file\s+join\s+([^\[\]$]+)\]`)

// replaceCall replaces from with to in code; a from that begins with a
// letter only where no name or member access goes on before it.
func replaceCall(code, from, to string) string {
	if !strings.Contains(code, from) {
		return code
	}
	word := identByte(from[0])
	var b strings.Builder
	for {
		j := strings.Index(code, from)
		if j < 0 {
			break
		}
		if word && j > 0 && (identByte(code[j-1]) || code[j-1] == '.' || code[j-1] == ':' || code[j-1] == '$') {
			b.WriteString(code[:j+len(from)])
		} else {
			b.WriteString(code[:j])
			b.WriteString(to)
		}
		code = code[j+len(from):]
	}
	b.WriteString(code)
	return b.String()
}

// callCommands are the shell lines the calls of code do
// (interpcalls.txt's CALL => COMMAND): $1 is the call's first string.
func callCommands(name, code string) []string {
	lg := callLangFor(name)
	if lg == nil || len(lg.does) == 0 {
		return nil
	}
	var out []string
	for _, d := range lg.does {
		for i := 0; ; {
			j := strings.Index(code[i:], d.call)
			if j < 0 {
				break
			}
			at := i + j
			end := at + len(d.call)
			i = end
			if at > 0 && (identByte(code[at-1]) || code[at-1] == '.' && !strings.Contains(d.call, ".")) || end >= len(code) || code[end] != '(' {
				continue
			}
			args := code[end+1 : matchParen(code, end+1)]
			flat := strings.Join(strings.Fields(args), "")
			ok := true
			for _, w := range d.words {
				if !strings.Contains(flat, w) {
					ok = false
				}
			}
			if !ok {
				continue
			}
			cmd := d.cmd
			if strings.Contains(cmd, "$1") {
				lits := Literals(args)
				if len(lits) == 0 || strings.ContainsAny(lits[0], " \n$`'\"/") && !strings.Contains(lits[0], "://") {
					continue
				}
				cmd = strings.ReplaceAll(cmd, "$1", lits[0])
			}
			out = append(out, cmd)
			break
		}
	}
	return out
}
