package callfacts

import "strings"

// Commands printed by a one-liner of code (python3 -c 'print(f"wc -c
// {p}")', node -e 'console.log(`npm run ${p}`)', awk 'BEGIN{for(…) print
// "echo " i}') and piped to a shell: when every print of the code prints
// one string literal whose first word (the program) is fixed in the
// literal, what the shell runs is that literal, its placeholders ({p},
// ${p}, an awk variable) standing for unknown words ($INPUT). A generator
// of `rm {p}` is still judged as rm of unknown targets; a print of
// anything else (a variable, a call, input) leaves the output unknown.

// codePrintTemplate reads python/node -c/-e code this way.
func codePrintTemplate(name string, args []string) (text, bool) {
	lang := ""
	switch {
	case strings.HasPrefix(name, "python"):
		lang = "py"
	case name == "node" || name == "nodejs" || name == "bun" || name == "deno":
		lang = "js"
	default:
		return text{}, false
	}
	code := ""
	for i, a := range args {
		if (a == "-c" && lang == "py" || (a == "-e" || a == "-p" || a == "--eval") && lang == "js") && i+1 < len(args) {
			if a == "-p" {
				return text{}, false // node -p prints the value of the last expression too
			}
			code = args[i+1]
			break
		}
	}
	call := "print("
	if lang == "js" {
		call = "console.log("
	}
	if code == "" || !strings.Contains(code, call) {
		return text{}, false
	}
	for _, bad := range []string{"sys.stdout", "write(", "process.stdout", "console.info(", "console.error(", "input(", "stdin", "readFile", "open(", "eval(", "exec("} {
		if strings.Contains(code, bad) {
			return text{}, false
		}
	}
	var b strings.Builder
	rest := code
	for {
		i := strings.Index(rest, call)
		if i < 0 {
			break
		}
		if i > 0 && lang == "py" && (isIdentByte(rest[i-1]) || rest[i-1] == '.') {
			return text{}, false // pprint(, x.print(
		}
		arg := strings.TrimLeft(rest[i+len(call):], " ")
		if lang == "py" {
			// "\n".join(f"…" for …): the lines of one literal
			for _, j := range []string{`"\n".join(`, `'\n'.join(`} {
				if strings.HasPrefix(arg, j) {
					arg = strings.TrimLeft(arg[len(j):], " ")
				}
			}
		}
		lit, n, ok := codeLiteral(arg, lang)
		if !ok {
			return text{}, false
		}
		if nx := strings.TrimLeft(arg[n:], " "); lang == "js" && !strings.HasPrefix(nx, ")") || lang == "py" && !strings.HasPrefix(nx, ")") && !strings.HasPrefix(nx, "for ") {
			return text{}, false // print("rm " + x), print(f"…", file=…): more than one literal
		}
		if !commandTemplate(lit) || strings.Contains(strings.Fields(lit)[0], "$INPUT") || strings.ContainsAny(lit, "`") {
			return text{}, false // the program itself is a placeholder
		}
		b.WriteString(lit + "\n")
		rest = arg[n:]
	}
	if b.Len() == 0 {
		return text{}, false
	}
	return text{s: b.String(), known: true}, true
}

// codeLiteral reads the string literal s opens with (py: "…", '…',
// f"…"; js: "…", '…', `…`), its placeholders ({x}, ${x}) replaced by
// $INPUT; n is its length in s.
func codeLiteral(s, lang string) (string, int, bool) {
	i := 0
	fstr := false
	if lang == "py" && len(s) > 0 && (s[0] == 'f' || s[0] == 'F') {
		fstr, i = true, 1
	}
	if i >= len(s) || !(s[i] == '"' || s[i] == '\'' || lang == "js" && s[i] == '`') {
		return "", 0, false
	}
	q := s[i]
	tmpl := fstr || q == '`'
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		c := s[j]
		switch {
		case c == '\\' && j+1 < len(s):
			j++
			switch s[j] {
			case 'n', 'r', 't':
				return "", 0, false // several lines or tabs in one print: not read
			default:
				b.WriteByte(s[j])
			}
		case c == q:
			return b.String(), j + 1, true
		case tmpl && (c == '{' && q != '`' || c == '$' && q == '`' && j+1 < len(s) && s[j+1] == '{'):
			if fstr && j+1 < len(s) && s[j+1] == '{' {
				b.WriteByte('{') // {{ is a brace
				j++
				continue
			}
			k := strings.IndexByte(s[j:], '}')
			if k < 0 {
				return "", 0, false
			}
			inner := s[j:][:k]
			if strings.ContainsAny(inner, "\"'`(") {
				return "", 0, false // a call or a literal inside the placeholder
			}
			b.WriteString("$INPUT")
			j += k
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// awkBeginTemplate: awk 'BEGIN{for(…) print "echo iteration " i}' prints
// the literal once per loop value, the variables standing for $INPUT.
func awkBeginTemplate(args []string) (text, bool) {
	if len(args) != 1 {
		return text{}, false
	}
	p := strings.TrimSpace(args[0])
	body, ok := strings.CutPrefix(p, "BEGIN")
	if !ok {
		return text{}, false
	}
	body = strings.TrimSpace(body)
	if !strings.HasPrefix(body, "{") || !strings.HasSuffix(body, "}") {
		return text{}, false
	}
	body = strings.TrimSpace(body[1 : len(body)-1])
	if strings.HasPrefix(body, "for") {
		// for(i=1;i<=3;i++) print …: a counted loop, no call in its head
		o, c := strings.IndexByte(body, '('), strings.IndexByte(body, ')')
		if o < 0 || c < o || strings.ContainsAny(body[o:c], "\"'$") {
			return text{}, false
		}
		body = strings.TrimSpace(body[c+1:])
	}
	body = strings.TrimSpace(strings.TrimSuffix(body, ";"))
	expr, ok := strings.CutPrefix(body, "print ")
	if !ok { // the loop below takes only literals and variables
		return text{}, false
	}
	var b strings.Builder
	for i := 0; i < len(expr); {
		switch c := expr[i]; {
		case c == ' ':
			i++
		case c == '"':
			j := strings.IndexByte(expr[i+1:], '"')
			if j < 0 || strings.Contains(expr[i+1:i+1+j], `\`) {
				return text{}, false
			}
			b.WriteString(expr[i+1 : i+1+j])
			i += j + 2
		case c >= 'a' && c <= 'z' || c == '_':
			j := i
			for j < len(expr) && isIdentByte(expr[j]) {
				j++
			}
			if j < len(expr) && expr[j] == '(' {
				return text{}, false // a function call
			}
			b.WriteString("$INPUT")
			i = j
		default:
			return text{}, false
		}
	}
	lit := b.String()
	if !commandTemplate(lit) || strings.Contains(strings.Fields(lit)[0], "$INPUT") {
		return text{}, false
	}
	return text{s: lit + "\n", known: true}, true
}
