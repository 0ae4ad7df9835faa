package callfacts

import (
	"strings"

	"github.com/warden-dev/warden/internal/shellesc"
	"mvdan.cc/sh/v3/syntax"
)

// Constant propagation. A command line often names what it runs through
// variables and substitutions it defines itself (X=rm; $X -rf /,
// $(echo rm) -rf /, for d in / ~; do rm -rf $d; done). The normalizer keeps
// the values each variable may hold, assigned anywhere earlier in the same
// command line (a union: conservative across branches and loops), and
// expands words with them. What stays unknown keeps a marker the rules can
// see: $NAME for a variable, $(…) for a substitution whose output is not a
// literal.

const (
	maxAlts   = 6   // values one word may take
	maxFields = 256 // words one command may get from expansion
)

// setVar records vals as possible values of name (a union with earlier
// ones, deduplicated and capped).
func (n *normalizer) setVar(name string, vals []string) {
	if n.vars == nil {
		n.vars = map[string][]string{}
	}
	cur := n.vars[name]
	for _, v := range vals {
		dup := false
		for _, c := range cur {
			dup = dup || c == v
		}
		if !dup && len(cur) < maxAlts {
			cur = append(cur, v)
		}
	}
	n.vars[name] = cur
	if len(vals) > 0 && len(n.f.Derivation) < 40 && !strings.Contains(vals[0], "$") {
		n.derive("$%s holds %q", name, vals[0])
	}
}

// collectVars records the assignments of a parsed script, in source order:
// X=v, export/local/declare/readonly X=v, X=(a b) and for-loop items.
func (n *normalizer) collectVars(file *syntax.File) {
	assign := func(a *syntax.Assign) {
		if a == nil || a.Name == nil || a.Naked {
			return
		}
		switch {
		case a.Array != nil:
			var parts []string
			for _, el := range a.Array.Elems {
				if el.Value != nil {
					parts = append(parts, n.wordAlts(el.Value)[0])
				}
			}
			n.setVar(a.Name.Value, []string{strings.Join(parts, " ")})
		case a.Value != nil:
			n.setVar(a.Name.Value, n.wordAlts(a.Value))
		default:
			n.setVar(a.Name.Value, []string{""})
		}
	}
	syntax.Walk(file, func(node syntax.Node) bool {
		switch x := node.(type) {
		case *syntax.Stmt:
			// read V <<< 'text': V holds the text (one variable: all of it)
			if c, ok := x.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 1 && wordValue(c.Args[0]) == "read" {
				for _, r := range x.Redirs {
					if r.Op == syntax.WordHdoc && r.Word != nil {
						if names := readNames(n.argv(c.Args[1:])); len(names) == 1 {
							n.setVar(names[0], n.wordAlts(r.Word))
						}
					}
				}
			}
		case *syntax.CallExpr:
			for _, a := range x.Assigns {
				assign(a)
			}
			if len(x.Args) > 3 && wordValue(x.Args[0]) == "printf" && wordValue(x.Args[1]) == "-v" {
				// printf -v V FORMAT ARGS…: V holds what printf would print
				if args := n.argv(x.Args[3:]); len(args) > 0 {
					n.setVar(wordValue(x.Args[2]), []string{formatS(args[0], args[1:])})
				}
			}
			if len(x.Args) > 1 && wordValue(x.Args[0]) == "set" && wordValue(x.Args[1]) == "--" {
				// set -- a b c: the positional parameters
				params := n.argv(x.Args[2:])
				n.setVar("@", []string{strings.Join(params, " ")})
				n.setVar("*", []string{strings.Join(params, " ")})
				for i, p := range params {
					if i < 9 {
						n.setVar(string(rune('1'+i)), []string{p})
					}
				}
			}
		case *syntax.DeclClause:
			for _, a := range x.Args {
				assign(a)
			}
		case *syntax.ForClause:
			if it, ok := x.Loop.(*syntax.WordIter); ok && it.Name != nil {
				if vals := n.argv(it.Items); len(vals) > 0 {
					n.setVar(it.Name.Value, vals)
				}
			}
		}
		return true
	})
}

// argv expands words into a command's arguments: every value a word may
// take is an argument (rm -rf $d with d one of / and ~ checks both), and
// an unquoted expansion is split on blanks as the shell would.
func (n *normalizer) argv(words []*syntax.Word) []string {
	out := make([]string, 0, len(words))
	var later []string
	for _, w := range words {
		if len(w.Parts) == 1 {
			if l, ok := w.Parts[0].(*syntax.Lit); ok && !braces(w) {
				// a plain literal (most words) is one word as it is:
				// no alternatives to build and split
				out = append(out, unescape(l.Value, false))
				if len(out) > maxFields {
					return out[:maxFields]
				}
				continue
			}
		}
		alts := n.wordAlts(w)
		// An unquoted expansion anywhere in a word is split
		// (rm${IFS}-rf${IFS}/ is three words).
		split, quoted := false, false
		for _, p := range w.Parts {
			switch p.(type) {
			case *syntax.ParamExp, *syntax.CmdSubst:
				split = true
			case *syntax.SglQuoted, *syntax.DblQuoted:
				quoted = true // a quoted part's blanks are not split: keep the word
			}
		}
		split = split && !quoted
		if len(w.Parts) == 1 {
			switch x := w.Parts[0].(type) {
			case *syntax.ParamExp, *syntax.CmdSubst:
			case *syntax.DblQuoted:
				// "$@" and "${arr[@]}" are one word per element
				split = false
				if len(x.Parts) == 1 {
					if pe, ok := x.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil && (pe.Param.Value == "@" || pe.Index != nil) {
						split = true
					}
				}
			default:
				split = false
			}
		}
		ifs := " \t\n"
		if v, ok := n.vars["IFS"]; ok && len(v) == 1 && v[0] != "" {
			ifs = v[0]
		}
		if braces(w) {
			var exp []string
			for _, a := range alts {
				exp = append(exp, braceExpand(a)...)
			}
			alts = exp
		}
		for i, a := range alts {
			var words []string
			if split && a == "" {
				// an unquoted expansion that is empty is no word at all
			} else if split && strings.ContainsAny(a, ifs) {
				words = strings.FieldsFunc(a, func(r rune) bool { return strings.ContainsRune(ifs, r) })
			} else {
				words = []string{a}
			}
			if i == 0 {
				out = append(out, words...)
			} else {
				// The other values go last, so the words after this one
				// keep their places (ssh $h 'rm -rf x' for h in a b:
				// the host stays a, the command stays the command).
				later = append(later, words...)
			}
		}
		if len(out) > maxFields {
			return out[:maxFields]
		}
	}
	out = append(out, later...)
	if len(out) > maxFields {
		return out[:maxFields]
	}
	return out
}

// wordAlts returns the values a word may take (at least one).
func (n *normalizer) wordAlts(w *syntax.Word) []string {
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok {
			// most words are one literal: its one value, without the
			// cross product's own slice
			return n.partAlts(l, false)
		}
	}
	alts := []string{""}
	for i, p := range w.Parts {
		vals := n.partAlts(p, false)
		if i == 0 {
			// A quoted ~ is a file named ~, not the home directory.
			switch q := p.(type) {
			case *syntax.SglQuoted:
				if strings.HasPrefix(q.Value, "~") {
					vals = []string{"./" + vals[0]}
				}
			case *syntax.DblQuoted:
				if len(q.Parts) > 0 {
					if l, ok := q.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "~") {
						vals = []string{"./" + vals[0]}
					}
				}
			}
		}
		alts = cross(alts, vals)
	}
	return alts
}

func cross(a, b []string) []string {
	if len(b) == 1 {
		for i := range a {
			a[i] += b[0]
		}
		return a
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			if len(out) < maxAlts {
				out = append(out, x+y)
			}
		}
	}
	return out
}

func (n *normalizer) partAlts(p syntax.WordPart, inDQ bool) []string {
	switch x := p.(type) {
	case *syntax.Lit:
		return []string{unescape(x.Value, inDQ)}
	case *syntax.SglQuoted:
		if x.Dollar {
			return []string{shellesc.ANSIC(x.Value)}
		}
		return []string{x.Value}
	case *syntax.DblQuoted:
		alts := []string{""}
		for _, q := range x.Parts {
			alts = cross(alts, n.partAlts(q, true))
		}
		return alts
	case *syntax.ParamExp:
		return n.paramAlts(x)
	case *syntax.CmdSubst:
		if t := n.stmtsOutput(x.Stmts, text{known: true}); t.known && !t.narrowed {
			out := strings.TrimRight(t.s, "\n")
			n.derive("$(…) outputs %q", out)
			return []string{out}
		}
		return []string{"$(…)"}
	case *syntax.ArithmExp:
		return []string{"$((…))"}
	case *syntax.ProcSubst:
		return []string{n.procSubst(x)}
	case *syntax.ExtGlob:
		return []string{x.Op.String() + x.Pattern.Value + ")"}
	}
	return []string{""}
}

// paramAlts expands $NAME / ${NAME…}: a constant from the line, the
// default of ${X:-v} when X is unknown, $HOME kept for path
// normalization, else the $NAME marker.
func (n *normalizer) paramAlts(x *syntax.ParamExp) []string {
	if x.Param == nil {
		return []string{"$?"}
	}
	name := x.Param.Value
	vals, ok := n.vars[name]
	if !ok && name == "PWD" && n.cwd != "" {
		vals, ok = []string{n.cwd}, true
	}
	if x.Length && !x.Excl {
		return lengthAlts(vals, ok && x.Index == nil) // ${#X} is a number, never X's text
	}
	if x.Slice != nil && !x.Excl && x.Repl == nil && x.Exp == nil {
		if a := sliceAlts(x.Slice, vals, ok); a != nil {
			return a
		}
	}
	if x.Excl && !x.Length && x.Names == 0 && x.Index == nil && x.Slice == nil && x.Repl == nil && x.Exp == nil && ok {
		if a := n.indirectAlts(vals); a != nil {
			return a // ${!v}: the variable v names (indirect.go)
		}
	}
	if x.Length || x.Excl || x.Slice != nil || x.Repl != nil {
		return []string{"$" + name}
	}
	if x.Exp != nil {
		switch x.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
			if !ok && x.Exp.Word != nil {
				return n.wordAlts(x.Exp.Word)
			}
		case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			// ${X:+word} is word when X is set, else nothing: set or not,
			// the value itself is never printed (echo "${NPM_TOKEN:+set}"
			// prints "set").
			var w []string
			if x.Exp.Word != nil {
				w = n.wordAlts(x.Exp.Word)
			} else {
				w = []string{""}
			}
			if ok {
				return w
			}
			return append(w, "")
		case syntax.UpperAll, syntax.UpperFirst:
			if ok {
				return mapAlts(vals, strings.ToUpper)
			}
		case syntax.LowerAll, syntax.LowerFirst:
			if ok {
				return mapAlts(vals, strings.ToLower)
			}
		}
	}
	if ok {
		return append([]string(nil), vals...)
	}
	if name == "HOME" {
		return []string{"$HOME"}
	}
	if name == "IFS" {
		return []string{" "} // unset IFS splits on blanks
	}
	return []string{"$" + name}
}

func mapAlts(vals []string, f func(string) string) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = f(v)
	}
	return out
}

// UnknownParts replaces what expansion could not know ($NAME, $(…)) with
// nothing: what a path becomes when the variable is unset or empty.
func UnknownParts(s string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch {
		case strings.HasPrefix(s[i:], "$(…)"):
			i += len("$(…)") - 1
		case strings.HasPrefix(s[i:], "$((…))"):
			i += len("$((…))") - 1
		case strings.HasPrefix(s[i:], pieceMarker):
			i += len(pieceMarker) - 1
		case strings.HasPrefix(s[i:], "$HOME"):
			b.WriteString("$HOME")
			i += 4
		default:
			j := i + 1
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' && j > i+1) {
				j++
			}
			if j == i+1 {
				b.WriteByte('$')
				continue
			}
			i = j - 1
		}
	}
	return b.String()
}

// UnknownValue reports whether an expanded word still holds a variable or
// substitution the line does not define.
func UnknownValue(s string) bool {
	return strings.Contains(s, "$") && UnknownParts(s) != s
}

// braces reports whether a word has an unquoted {a,b} for brace expansion.
func braces(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") && strings.Contains(l.Value, ",") && strings.Contains(l.Value, "}") {
			return true
		}
	}
	return false
}

// braceExpand expands the first {a,b,…} group of s (and the groups of the
// results), at most maxAlts words.
func braceExpand(s string) []string {
	i := strings.IndexByte(s, '{')
	j := strings.IndexByte(s[i+1:], '}')
	if i < 0 || j < 0 || !strings.Contains(s[i:i+1+j], ",") {
		return []string{s}
	}
	j += i + 1
	var out []string
	for _, alt := range strings.Split(s[i+1:j], ",") {
		for _, x := range braceExpand(s[:i] + alt + s[j+1:]) {
			if len(out) < maxAlts {
				out = append(out, x)
			}
		}
	}
	return out
}

// readNames are the variables `read` assigns: its words that are not
// options (-r, -p PROMPT, -d DELIM…).
func readNames(args []string) []string {
	var names []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-p" || a == "-d" || a == "-n" || a == "-N" || a == "-t" || a == "-u" || a == "-a":
			i++ // the option's value (-a names an array: not a plain variable)
			if a == "-a" {
				return nil
			}
		case strings.HasPrefix(a, "-"):
		default:
			names = append(names, a)
		}
	}
	return names
}

// formatS is what printf prints for format and args when the format's
// conversions are plain (%s, %d, %%): each takes the next argument.
func formatS(format string, args []string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case '%':
			b.WriteByte('%')
		case 's', 'd', 'b', 'q':
			if len(args) > 0 {
				b.WriteString(args[0])
				args = args[1:]
			}
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}
