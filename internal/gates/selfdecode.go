package gates

import (
	"encoding/base64"
	"encoding/hex"
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
	var out string
	switch {
	case name == "rev":
		lines := strings.Split(in.s, "\n")
		for i, l := range lines {
			r := []rune(l)
			for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
				r[a], r[b] = r[b], r[a]
			}
			lines[i] = string(r)
		}
		out = strings.Join(lines, "\n")
	case name == "base64" && hasFlag(args, "-d", "--decode", "-D"),
		name == "openssl" && hasFlag(args, "base64", "enc") && hasFlag(args, "-d"):
		s := strings.Join(strings.Fields(in.s), "")
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
		}
		if err != nil {
			return value{}, false
		}
		out = string(b)
	case name == "xxd" && hasFlag(args, "-r"):
		b, err := hex.DecodeString(strings.Join(strings.Fields(in.s), ""))
		if err != nil {
			return value{}, false
		}
		out = string(b)
	case name == "tr" && len(args) == 2 && !strings.HasPrefix(args[0], "-"):
		from, to := trSet(args[0]), trSet(args[1])
		if len(from) == 0 || len(to) == 0 {
			return value{}, false
		}
		out = strings.Map(func(r rune) rune {
			for i, f := range from {
				if f == r {
					return to[min(i, len(to)-1)]
				}
			}
			return r
		}, in.s)
	default:
		return value{}, false
	}
	return value{s: out, known: true, decoded: true}, true
}

func hasFlag(args []string, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a == f || len(f) == 2 && f[0] == '-' && len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], f[1]) >= 0 {
				return true // -d, or -d among combined short flags (-di, -rp)
			}
		}
	}
	return false
}

// trSet expands tr's ranges (a-z); classes and escapes are not followed.
func trSet(s string) []rune {
	r := []rune(s)
	var out []rune
	for i := 0; i < len(r); i++ {
		if r[i] == '[' || r[i] == '\\' {
			return nil
		}
		if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] && r[i+2]-r[i] < 256 {
			for c := r[i]; c <= r[i+2]; c++ {
				out = append(out, c)
			}
			i += 2
			continue
		}
		out = append(out, r[i])
	}
	return out
}
