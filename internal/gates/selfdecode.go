package gates

import (
	"github.com/warden-dev/warden/internal/shellesc"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command name need not be written out: `$(echo d2FyZGVu | base64 -d)
// off`, `$(printf '\x77arden') off`, `$(echo nedraw | rev) off`,
// `$'\x77arden' off` and `a=war; b=den; $a$b off` all run `warden off`.
// The gate works out such a word's value when the line shows every piece
// of it (literals, $'…' escapes, variables the line set, and the output of
// echo, printf, base64/base32 -d, openssl base64 -d, xxd -r, rev, tr and
// cat over known text). When a decoder's input is not on the line
// (`$(base64 -d < f) off`), the name is unknown but was built to hide
// what it is: the gate then flags it when its operand is a user-only
// subcommand, the way a text fallback flags an unparseable line.

// value is what a word or a substitution would produce: s when known;
// decoded when a decoder or an escape sequence took part, known or not.
type value struct {
	s              string
	known, decoded bool
}

// wordValue evaluates a word from the pieces the line shows.
func wordValue(w *syntax.Word, vals map[string]value, depth int) value {
	if w == nil {
		return value{known: true}
	}
	out := value{known: true}
	add := func(v value) {
		out.s += v.s
		out.known = out.known && v.known
		out.decoded = out.decoded || v.decoded
	}
	for _, p := range w.Parts {
		add(partValue(p, vals, depth))
	}
	return out
}

func partValue(p syntax.WordPart, vals map[string]value, depth int) value {
	switch p := p.(type) {
	case *syntax.Lit:
		return value{s: unescape(p.Value, ""), known: true}
	case *syntax.SglQuoted:
		if p.Dollar {
			return value{s: shellesc.ANSIC(p.Value), known: true, decoded: strings.Contains(p.Value, `\`)}
		}
		return value{s: p.Value, known: true}
	case *syntax.DblQuoted:
		out := value{known: true}
		for _, q := range p.Parts {
			var v value
			if l, ok := q.(*syntax.Lit); ok {
				v = value{s: unescape(l.Value, "$`\"\\\n"), known: true}
			} else {
				v = partValue(q, vals, depth)
			}
			out.s += v.s
			out.known = out.known && v.known
			out.decoded = out.decoded || v.decoded
		}
		return out
	case *syntax.ParamExp:
		if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 {
			return value{}
		}
		v, ok := vals[p.Param.Value]
		if p.Exp != nil {
			switch p.Exp.Op {
			case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
				if !ok || v.known && v.s == "" && p.Exp.Op == syntax.DefaultUnsetOrNull {
					return wordValue(p.Exp.Word, vals, depth)
				}
			default:
				return value{}
			}
		}
		return v
	case *syntax.CmdSubst:
		if len(p.Stmts) != 1 || depth > maxDepth {
			return value{decoded: substDecodes(p)}
		}
		v := stmtOutput(p.Stmts[0], vals, depth+1)
		v.s = strings.TrimRight(v.s, "\n")
		return v
	}
	return value{}
}

// substDecodes reports whether a substitution the gate cannot follow
// runs a decoder anywhere inside it.
func substDecodes(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 && decoderCall(wordText(c.Args[0]), c.Args[1:]) {
			found = true
		}
		return !found
	})
	return found
}

// stmtOutput is what one statement prints: a pipeline of echo, printf,
// decoders and cat over text the line shows.
func stmtOutput(st *syntax.Stmt, vals map[string]value, depth int) value {
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op != syntax.Pipe && c.Op != syntax.PipeAll {
			return value{decoded: substDecodes(c)}
		}
		in := stmtOutput(c.X, vals, depth)
		out := callOutput(c.Y, in, vals, depth)
		out.decoded = out.decoded || in.decoded
		return out
	case *syntax.CallExpr:
		return callOutput(st, value{}, vals, depth)
	}
	return value{}
}

// callOutput is what the call in st prints, given what it reads.
func callOutput(st *syntax.Stmt, stdin value, vals map[string]value, depth int) value {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return value{decoded: substDecodes(st)}
	}
	for _, r := range st.Redirs {
		if r.Op == syntax.WordHdoc {
			stdin = wordValue(r.Word, vals, depth)
			stdin.s += "\n"
		}
	}
	args := make([]string, 0, len(c.Args))
	known := true
	for _, a := range c.Args {
		v := wordValue(a, vals, depth)
		known = known && v.known
		args = append(args, v.s)
	}
	name := args[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	dec := decoderCall(name, c.Args[1:])
	if !known {
		return value{decoded: dec}
	}
	out, ok := decode(name, args[1:], stdin)
	if !ok {
		return value{decoded: dec || stdin.decoded}
	}
	out.decoded = out.decoded || dec || stdin.decoded
	return out
}

// decoderCall reports whether a call turns data into other text: the
// decoders, and printf or echo -e with escape sequences.
func decoderCall(name string, args []*syntax.Word) bool {
	switch name {
	case "base64", "base32", "basenc", "xxd", "rev", "tr", "openssl", "uudecode", "gunzip", "zcat", "gzip", "xz", "bzip2":
		return true
	case "printf", "echo":
		for _, a := range args {
			if strings.Contains(nodeSource(a), `\`) {
				return true
			}
		}
	}
	return false
}

// decode runs the few commands whose output follows from their arguments
// and input; ok is false for anything else.
func decode(name string, args []string, in value) (value, bool) {
	switch name {
	case "echo":
		esc, nl := false, true
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
			esc = esc || strings.Contains(args[0], "e")
			nl = nl && !strings.Contains(args[0], "n")
			args = args[1:]
		}
		s := strings.Join(args, " ")
		if esc {
			s = shellesc.ANSIC(s)
		}
		if nl {
			s += "\n"
		}
		return value{s: s, known: true, decoded: esc}, true
	case "printf":
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			return value{}, false
		}
		return value{s: shellesc.Printf(args[0], args[1:]), known: true, decoded: strings.Contains(args[0], `\`)}, true
	case "cat":
		return in, len(args) == 0 && in.known
	}
	if !in.known {
		return value{}, false
	}
	out, ok := shellesc.Decode(name, args, in.s)
	if !ok {
		return value{}, false
	}
	return value{s: out, known: true, decoded: true}, true
}
