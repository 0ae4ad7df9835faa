package callfacts

import (
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

const (
	// maxDepth bounds bash -c / eval / interpreter recursion (the spec asks
	// for at least 5).
	maxDepth = 8
	// maxCmds bounds the facts of one call: a pathological command must not
	// make the hook slow.
	maxCmds = 400
)

// parsers are reused: a new Parser costs more than parsing a short
// command. Each keeps the reader it parses from, so no line allocates one.
var parsers = sync.Pool{New: func() any {
	return &pooledParser{p: syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash))}
}}

type pooledParser struct {
	p *syntax.Parser
	r strings.Reader
}

// normalizer turns shell text into Facts.
type normalizer struct {
	f         *Facts
	cwd, home string
	// elsewhere: the text being read runs on another host, whose login
	// directory is read as cwd was then: thereCwd (elsewhere.go)
	elsewhere bool
	thereCwd  string
	// vars are the values each variable may hold, assigned earlier in the
	// line; files the text of files the line writes (see expand.go and
	// output.go).
	vars  map[string][]string
	files map[string]text
	// remote: the files the line copied to each host (remotefiles.go)
	remote    map[string]map[string]text
	evalDepth int
	// stdinFile is the file the next command's input is redirected from
	// (< FILE) when the line did not write it; command() takes it.
	stdinFile string
	// captured says the next command's output is taken by a command
	// substitution, nameBuilt that its name is built at run time from
	// hidden text; command() takes both.
	captured, nameBuilt bool
	// aliases and funcs the line defines (alias x='…', f() { …; }):
	// calling them runs their text (see calls.go).
	aliases   map[string]string
	funcs     map[string]string
	called    map[string]bool
	funcCalls int
	// defReads counts the task runners' definition files read from disk
	// (rundefs.go bounds them).
	defReads int
	// parseAll sends every line through the parser, plain ones too: the
	// reference TestPlainWordsAgree compares plainWords' reading with.
	parseAll bool
	// paths2 holds a call's first paths (addPath)
	paths2 [2]PathRef
	// feed is the text fed to a command line given as a payload (ssh
	// host 'psql app' <<EOF, bash -c 'mysql' <<< …): the first command
	// of the payload that reads its input takes it (fedpayload.go)
	feed      *text
	feedDepth int
}

// shell parses src and adds what it finds. Depth counts nested payloads;
// wrappers and upstream are inherited from the command that carries src.
func (n *normalizer) shell(src string, depth int, wrappers, upstream []string) {
	if strings.TrimSpace(src) == "" {
		return
	}
	if depth > maxDepth || len(n.f.Commands) >= maxCmds {
		n.f.Truncated = true // a gate that must see every change cannot trust the rest
		return
	}
	if len(wrappers) > 0 {
		defer func(was bool, cwd string) { n.elsewhere, n.thereCwd = was, cwd }(n.elsewhere, n.thereCwd)
		if there := loginElsewhere(wrappers); there && !n.elsewhere {
			n.thereCwd = n.cwd
		}
		n.elsewhere = loginElsewhere(wrappers)
	}
	if words := plainWords(src); words != nil && !setsVars(src) && !n.parseAll && n.feed == nil {
		// simple commands of plain words (git status, go test ./...,
		// git diff && git log, go test | tee log): what the walk below
		// would find, without parsing
		for len(words) > 0 {
			end := slices.Index(words, "")
			n.plainPipeline(words[:end:end], depth, wrappers, upstream)
			words = words[end+1:]
		}
		return
	}
	pp := parsers.Get().(*pooledParser)
	pp.r.Reset(src)
	file, err := pp.p.Parse(&pp.r, "")
	pp.r.Reset("")
	parsers.Put(pp) // the tree does not borrow from the parser
	if err != nil {
		if n.f.ParseError == "" {
			n.f.ParseError = err.Error()
		}
		n.text(src, depth, wrappers, upstream)
		return
	}
	if setsVars(src) {
		n.collectVars(file) // only a line that assigns has constants to follow
	}
	// The walk's state is one value: variables a closure captures each
	// take their own allocation, and this runs for every line.
	var w struct {
		// made when a pipe or a redirect needs them: most lines have
		// neither, and reading a nil map is reading an empty one
		up       map[*syntax.Stmt][]string
		in       map[*syntax.Stmt]*text // what the previous stage of a pipe prints
		seenPipe map[*syntax.BinaryCmd]bool
		// lastStmt is the statement Walk visited last: a call's own, met
		// just before the call (Walk goes from a statement to its command
		// first)
		lastStmt *syntax.Stmt
		declared []string                  // functions defined here, walked when called
		captured map[*syntax.CallExpr]bool // calls whose output a $(…) takes
	}
	syntax.Walk(file, func(node syntax.Node) bool {
		switch x := node.(type) {
		case *syntax.BinaryCmd:
			if (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) && !w.seenPipe[x] {
				if w.seenPipe == nil {
					w.up, w.seenPipe = map[*syntax.Stmt][]string{}, map[*syntax.BinaryCmd]bool{}
				}
				if w.in == nil {
					w.in = map[*syntax.Stmt]*text{}
				}
				stmts := n.flattenPipe(x, w.seenPipe)
				var names []string
				for i, s := range stmts {
					w.up[s] = append(append([]string(nil), upstream...), names...)
					if _, call := s.Cmd.(*syntax.CallExpr); !call && len(names) > 0 {
						// a loop or a group fed by the pipe: its commands
						// read what earlier stages print (… | while read p)
						inner := w.up[s]
						syntax.Walk(s, func(node syntax.Node) bool {
							if st, ok := node.(*syntax.Stmt); ok && st != s {
								if _, set := w.up[st]; !set {
									w.up[st] = inner
								}
							}
							return true
						})
					}
					names = n.stmtNames(names, s)
					if i > 0 {
						var prev text
						if p := w.in[stmts[i-1]]; p != nil {
							prev = *p
						}
						out := n.stmtOutput(stmts[i-1], prev)
						if !out.known && out.from == "" {
							out.from = n.fetcherIn(stmts[i-1])
						}
						w.in[s] = &out
					}
				}
			}
		case *syntax.CmdSubst:
			if w.captured == nil {
				w.captured = map[*syntax.CallExpr]bool{}
			}
			for _, st := range x.Stmts {
				markCaptured(st, w.captured)
			}
		case *syntax.Stmt:
			w.lastStmt = x
			for _, r := range x.Redirs {
				if t := n.redirect(x, r, w.in[x]); t != nil {
					if w.in == nil {
						w.in = map[*syntax.Stmt]*text{}
					}
					w.in[x] = t // sh < file-the-line-wrote reads that text
				}
			}
		case *syntax.FuncDecl:
			if n.defineFunc(x) {
				w.declared = append(w.declared, x.Name.Value)
				return false // its body runs when it is called (calls.go)
			}
		case *syntax.DeclClause:
			// export -p, declare -x, typeset -p (s23): a dump of the
			// variables, recorded as a command of that name so the
			// environment-dump rules read it as they read env
			if declDumps(x) {
				argv := []string{x.Variant.Value}
				for _, a := range x.Args {
					argv = append(argv, wordValue(a.Value))
				}
				u := upstream
				if st := w.lastStmt; st != nil && st.Cmd == x {
					if v, ok := w.up[st]; ok {
						u = v
					}
				}
				n.stdinFile, n.captured, n.nameBuilt = "", false, false
				n.command(argv, false, nil, depth, wrappers, u)
			}
		case *syntax.CallExpr:
			if len(x.Args) == 0 {
				return true
			}
			var stmt *syntax.Stmt // the statement whose command x is
			if w.lastStmt != nil && w.lastStmt.Cmd == x {
				stmt = w.lastStmt
			}
			argv := n.argv(x.Args)
			if len(argv) == 0 {
				return true
			}
			argv = n.expandAlias(argv, escapedWord(x.Args[0]))
			u := upstream
			var stdin *text
			if st := stmt; st != nil {
				if v, ok := w.up[st]; ok {
					u = v
				}
				stdin = w.in[st]
				if h := n.stmtHeredoc(st); h != nil {
					stdin = h
				}
			}
			n.envCode(x, depth, wrappers)
			argv = n.envActs(x, argv)
			n.stdinFile = ""
			if st := stmt; st != nil && (stdin == nil || !stdin.known) {
				n.stdinFile = n.inputFile(st)
			}
			if stdin == nil && n.feed != nil && n.stdinFile == "" && depth == n.feedDepth && takesFeed(argv[0]) {
				stdin, n.feed = n.feed, nil // the payload's command reads what ssh or the shell is fed (fedpayload.go)
			}
			n.captured = w.captured[x]
			n.nameBuilt = n.builtWords(x, argv)
			if _, fn := n.funcs[argv[0]]; fn {
				// the function runs, not a program of that name: the call
				// is recorded by name only (its arguments are the body's)
				n.command(argv[:1], escapedWord(x.Args[0]), stdin, depth, wrappers, u)
				n.callFunc(argv, depth, wrappers, u)
			} else {
				n.command(argv, escapedWord(x.Args[0]), stdin, depth, wrappers, u)
				n.defineAlias(argv)
			}
		}
		return true
	})
	for _, name := range w.declared {
		n.uncalledFunc(name, depth, wrappers)
	}
}

// setsVars reports whether src may assign a variable collectVars follows.
func setsVars(src string) bool {
	return strings.Contains(src, "=") || strings.Contains(src, "for") || strings.Contains(src, "set ") ||
		strings.Contains(src, "printf -v") || strings.Contains(src, "<<<")
}

// pipeSep ends a stage of a pipeline in plainWords' list, and errToOut
// stands for a 2>&1 among a command's words: no word holds a NUL byte.
const (
	pipeSep  = "\x00"
	errToOut = "\x002>&1"
)

// plainWords splits src into its commands' words when it is simple
// commands of plain words joined by && || ; or |, each maybe with 2>&1
// after its name (errToOut in the list): blank-separated runs of
// letters, digits and - _ . / : , + @ %, or after the first word a whole
// quoted argument with nothing to expand, no command beginning with a
// reserved word. The shell gives such commands exactly these words
// (nothing to expand, redirect or pipe), and the walk of a list does
// nothing but visit its calls in order, so the parse, the biggest cost
// of reading an everyday command, can be skipped. Each command's words
// end with "", a stage of a pipeline with pipeSep (no word is empty).
// nil for anything else (|&, a redirection), which is parsed.
func plainWords(src string) []string {
	var buf [16]string
	words := buf[:0]
	start, first := -1, 0 // the word being read, the command's first word
	endCmd := func(sep string) bool {
		if len(words) == first || len(words)-first > maxFields || reservedFirst(words[first]) {
			return false // an operator with no command before it, or one parsed otherwise
		}
		words = append(words, sep)
		first = len(words)
		return true
	}
	for i := 0; i <= len(src); i++ {
		c := byte(' ')
		if i < len(src) {
			c = src[i]
		}
		if c == '2' && start < 0 && len(words) > first && strings.HasPrefix(src[i:], "2>&1") &&
			(i+4 == len(src) || strings.IndexByte(" ;&|", src[i+4]) >= 0) {
			// make test 2>&1 | tail: stderr into stdout, recorded as the
			// walk records the redirection (plainCall)
			words = append(words, errToOut)
			i += 3
			continue
		}
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '_', c == '.', c == '/', c == ':', c == ',', c == '+', c == '@', c == '%':
			if start < 0 {
				start = i
			}
			continue
		case (c == '\'' || c == '"') && start < 0 && len(words) > first:
			// a whole argument in quotes ("fix the parser", 'a | b'):
			// its text, when nothing in it is expanded or escaped
			j := i + 1
			for j < len(src) && src[j] != c && src[j] >= ' ' && src[j] <= '~' &&
				(c == '\'' || src[j] != '$' && src[j] != '`' && src[j] != '\\' && src[j] != '!') {
				j++
			}
			if j >= len(src) || src[j] != c || j == i+1 || src[i+1] == '~' ||
				j+1 < len(src) && src[j+1] != ' ' && src[j+1] != ';' && src[j+1] != '&' && src[j+1] != '|' {
				return nil // unclosed, empty, ~ (a file named so), glued to more text, or more than text
			}
			words = append(words, src[i+1:j])
			i = j
			continue
		case c != ' ' && c != ';' && c != '&' && c != '|':
			return nil
		}
		if start >= 0 {
			words = append(words, src[start:i])
			start = -1
		}
		switch c {
		case ';':
			if !endCmd("") {
				return nil
			}
		case '|':
			if i+1 < len(src) && src[i+1] == '&' {
				return nil // |&: stderr too, parsed
			}
			if i+1 < len(src) && src[i+1] == '|' {
				if !endCmd("") {
					return nil
				}
				i++
			} else if !endCmd(pipeSep) {
				return nil
			}
		case '&':
			if i+1 >= len(src) || src[i+1] != c || !endCmd("") {
				return nil // a background job, &>: parsed
			}
			i++
		}
	}
	if len(words) > first && !endCmd("") {
		return nil
	}
	if len(words) == 0 || !endsWithWord(src) {
		return nil // nothing, or a line ending in && or || (an error: parsed)
	}
	return append([]string(nil), words...)
}

// endsWithWord reports whether src's last non-blank byte is not an && or
// || (a line may end in ;).
func endsWithWord(src string) bool {
	for i := len(src) - 1; i >= 0; i-- {
		switch src[i] {
		case ' ':
			continue
		case '&', '|':
			return false
		}
		return true
	}
	return false
}

// reservedFirst reports whether a command's first word is one the parser
// reads as syntax (time cmd, declare x, let …, a keyword out of place).
func reservedFirst(w string) bool {
	switch w {
	case "!", "[[", "]]", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if",
		"in", "select", "then", "time", "until", "while", "{", "}", "let", "declare", "local", "export",
		"readonly", "typeset", "nameref":
		return true
	}
	return false
}

// plainPipeline is the walk's pipe case for a pipeline of plainWords
// (its stages separated by pipeSep): each stage's upstream names and the
// text it reads, all found before the first stage's command, as the walk
// finds them on meeting the pipe; then each stage's call.
func (n *normalizer) plainPipeline(ws []string, depth int, wrappers, upstream []string) {
	if !slices.Contains(ws, pipeSep) {
		// most commands: no pipe
		argv, k := withoutErrToOut(ws)
		n.errToOut(argv, k)
		n.plainCall(argv, nil, depth, wrappers, upstream)
		return
	}
	var stages [][]string
	for {
		end := slices.Index(ws, pipeSep)
		if end < 0 {
			stages = append(stages, ws)
			break
		}
		stages = append(stages, ws[:end:end])
		ws = ws[end+1:]
	}
	dups := make([]int, len(stages)) // each stage's 2>&1s, taken out of its words
	for i, s := range stages {
		stages[i], dups[i] = withoutErrToOut(s)
	}
	ups := make([][]string, len(stages))
	ins := make([]*text, len(stages))
	var names []string
	for i, s := range stages {
		ups[i] = append(append([]string(nil), upstream...), names...)
		names = append(names, path.Base(s[0])) // stmtNames of a call
		if len(s) > 1 {
			names = appendWrapped(names, s)
		}
		if i > 0 {
			var prev text
			if p := ins[i-1]; p != nil {
				prev = *p
			}
			out := n.plainOutput(stages[i-1], prev)
			if !out.known && out.from == "" {
				out.from = fetcherCall(stages[i-1])
			}
			ins[i] = &out
		}
	}
	for i, s := range stages {
		n.errToOut(s, dups[i])
		n.plainCall(s, ins[i], depth, wrappers, ups[i])
	}
}

// withoutErrToOut is a command's words without its 2>&1s, and how many
// there were.
func withoutErrToOut(ws []string) ([]string, int) {
	k := 0
	for _, w := range ws {
		if w == errToOut {
			k++
		}
	}
	if k == 0 {
		return ws, 0
	}
	out := make([]string, 0, len(ws)-k)
	for _, w := range ws {
		if w != errToOut {
			out = append(out, w)
		}
	}
	return out, k
}

// errToOut records a command's 2>&1s as redirect does, before the call
// as the walk meets them.
func (n *normalizer) errToOut(argv []string, k int) {
	for range k {
		n.f.Redirects = append(n.f.Redirects, Redirect{Op: ">&", Target: "1", Cmd: path.Base(argv[0])})
	}
}

// plainOutput is stmtOutput of a stage of plainWords: no heredoc or
// redirection, one call.
func (n *normalizer) plainOutput(argv []string, stdin text) text {
	n.evalDepth++
	defer func() { n.evalDepth-- }()
	if n.evalDepth > maxDepth {
		return text{}
	}
	return n.callOutput(argv, stdin)
}

// plainCall is the walk's call case for a command of plainWords: no
// assignment, redirection or substitution to consider; stdin is what
// the previous stage of its pipe prints.
func (n *normalizer) plainCall(argv []string, stdin *text, depth int, wrappers, upstream []string) {
	argv = n.expandAlias(argv, false)
	n.stdinFile, n.captured, n.nameBuilt = "", false, false
	if _, fn := n.funcs[argv[0]]; fn {
		n.command(argv[:1], false, stdin, depth, wrappers, upstream)
		n.callFunc(argv, depth, wrappers, upstream)
	} else {
		n.command(argv, false, stdin, depth, wrappers, upstream)
		n.defineAlias(argv)
	}
}

// builtWords reports whether a word of the call is built at run time by
// a decoder or a fetcher from text the line does not show: command()
// marks the command whose name is such a word (sudo $(base64 -d < f) off).
func (n *normalizer) builtWords(x *syntax.CallExpr, argv []string) bool {
	for _, a := range argv {
		if strings.Contains(a, "$(…)") {
			for _, w := range x.Args {
				if n.fetcherIn(w) != "" {
					return true
				}
			}
			return false
		}
	}
	return false
}

// envCommandVar reports whether a program runs the value of an environment
// variable as a command (GIT_SSH_COMMAND=… git fetch, PAGER=… man).
func envCommandVar(k string) bool {
	switch k {
	case "GIT_SSH_COMMAND", "GIT_PAGER", "GIT_EDITOR", "GIT_SSH", "PAGER", "EDITOR", "VISUAL", "MANPAGER", "LESSOPEN", "GIT_EXTERNAL_DIFF", "GIT_SEQUENCE_EDITOR", "SYSTEMD_PAGER", "BROWSER", "PROMPT_COMMAND":
		return true
	}
	return false
}

// envActs adds to argv the assignments before the command that are its
// program's acting option (tools.txt acts=DRY_RUN=false): a rake task
// reads DRY_RUN=false from its environment as from its arguments, so
// DRY_RUN=false gitlab-rake gitlab:cleanup:… acts as the argument does.
func (n *normalizer) envActs(x *syntax.CallExpr, argv []string) []string {
	if len(argv) == 0 || len(x.Assigns) == 0 {
		return argv
	}
	acts := tool(ProgramName(argv[0])).acts
	for _, o := range acts {
		k, _, ok := strings.Cut(o, "=")
		if !ok || strings.HasPrefix(k, "-") {
			continue
		}
		for _, a := range x.Assigns {
			if a.Name != nil && a.Value != nil && a.Name.Value == k {
				argv = append(append([]string(nil), argv...), k+"="+n.wordAlts(a.Value)[0])
			}
		}
	}
	return argv
}

// envCode parses the commands in such assignments before a command.
func (n *normalizer) envCode(x *syntax.CallExpr, depth int, wrappers []string) {
	for _, a := range x.Assigns {
		if a.Name != nil && a.Value != nil && envCommandVar(a.Name.Value) {
			v := n.wordAlts(a.Value)[0]
			n.derive("%s runs %q", a.Name.Value, v)
			n.shell(v, depth+1, append(append([]string(nil), wrappers...), a.Name.Value+"="), nil)
		}
	}
}

// markCaptured marks the calls of a substitution's statement whose output
// the substitution takes: the last stage of a pipeline, every command of
// a list.
func markCaptured(st *syntax.Stmt, out map[*syntax.CallExpr]bool) {
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		out[x] = true
	case *syntax.BinaryCmd:
		if x.Op != syntax.Pipe && x.Op != syntax.PipeAll {
			markCaptured(x.X, out)
		}
		markCaptured(x.Y, out)
	case *syntax.Block:
		for _, s := range x.Stmts {
			markCaptured(s, out)
		}
	case *syntax.Subshell:
		for _, s := range x.Stmts {
			markCaptured(s, out)
		}
	}
}

// inputFile is the file a statement's input is redirected from (< FILE,
// normalized), "" when there is none or it is /dev/null.
func (n *normalizer) inputFile(st *syntax.Stmt) string {
	for _, r := range st.Redirs {
		if r.Op == syntax.RdrIn && r.Word != nil && (r.N == nil || r.N.Value == "0") {
			if t := n.wordAlts(r.Word)[0]; t != "/dev/null" && t != "-" {
				return NormPath(t, n.cwd, n.home)
			}
		}
	}
	return ""
}

// flattenPipe lists the statements of a pipeline left to right.
func (n *normalizer) flattenPipe(b *syntax.BinaryCmd, seen map[*syntax.BinaryCmd]bool) []*syntax.Stmt {
	seen[b] = true
	var out []*syntax.Stmt
	for _, s := range []*syntax.Stmt{b.X, b.Y} {
		if inner, ok := s.Cmd.(*syntax.BinaryCmd); ok && (inner.Op == syntax.Pipe || inner.Op == syntax.PipeAll) {
			out = append(out, n.flattenPipe(inner, seen)...)
			continue
		}
		out = append(out, s)
	}
	return out
}

// stmtNames appends to names the program names a statement runs (for
// pipeline upstream): the pipe's list grows in place.
func (n *normalizer) stmtNames(names []string, s *syntax.Stmt) []string {
	syntax.Walk(s, func(node syntax.Node) bool {
		if c, ok := node.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			raw := wordValue(c.Args[0])
			names = append(names, path.Base(raw))
			if strings.ContainsAny(raw, "$`") {
				// P=env; $P | curl …, "$(echo env)" | …: the name the
				// line makes (disguise12)
				for _, a := range n.wordAlts(c.Args[0]) {
					if a != raw && a != "" {
						names = append(names, path.Base(a))
					}
				}
			}
			if len(c.Args) > 1 {
				// nice -n 5 env | curl …: env's output, through its wrapper
				names = appendWrapped(names, callWords(c))
			}
		} else if d, ok := node.(*syntax.DeclClause); ok && declDumps(d) {
			names = append(names, d.Variant.Value) // export -p | …: the environment into the pipe
		}
		return true
	})
	return names
}

// redirect records a redirection's file; for `< file` naming a file the
// line wrote (or <(…)) it returns the text the statement then reads.
func (n *normalizer) redirect(s *syntax.Stmt, r *syntax.Redirect, stdin *text) *text {
	if r.Word == nil || r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc {
		return nil
	}
	target := n.wordAlts(r.Word)[0]
	cmd := ""
	if c, ok := s.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
		cmd = path.Base(wordValue(c.Args[0]))
	} else if d, ok := s.Cmd.(*syntax.DeclClause); ok && declDumps(d) {
		cmd = d.Variant.Value // export -p > f: the environment into f
	}
	op := r.Op.String()
	if dupToFile(r) {
		op = "&>" // make >& log is make &> log: every reader of Redirects knows that one
	}
	if r.Op == syntax.DplOut && !dupToFile(r) || r.Op == syntax.DplIn || target == "/dev/null" || target == "-" {
		fd := ""
		if r.N != nil && target == "/dev/null" {
			fd = r.N.Value
		}
		n.f.Redirects = append(n.f.Redirects, Redirect{Op: op, Target: target, Cmd: cmd, Fd: fd})
		return nil
	}
	t := NormPath(target, n.cwd, n.home)
	n.f.Redirects = append(n.f.Redirects, Redirect{Op: op, Target: t, Cmd: cmd, Elsewhere: n.writtenElsewhere(target)})
	kind := OpWrite
	if r.Op == syntax.RdrIn || isOutRedirect(r) && n.serialQuery(t, s, stdin) {
		kind = OpRead // (an instrument asked, echo '*IDN?' > /dev/ttyUSB0: devicequery.go)
	}
	n.f.Paths = append(n.f.Paths, PathRef{Path: t, Op: kind, Via: op, Elsewhere: n.writtenElsewhere(target)})
	if isOutRedirect(r) && (r.N == nil || r.N.Value == "1") {
		// What the statement prints lands in the file: a later sh FILE
		// runs it.
		in := text{}
		if stdin != nil {
			in = *stdin
		}
		bare := *s
		bare.Redirs = nil
		if h := n.stmtHeredoc(s); h != nil {
			in = *h
		}
		out := n.stmtOutput(&bare, in)
		if !out.known && out.from == "" {
			out.from = n.fetcherIn(&bare)
		}
		n.writeFile(t, out, r.Op == syntax.AppOut || r.Op == syntax.AppAll)
	}
	if r.Op == syntax.RdrIn {
		if w, ok := n.files[t]; ok {
			return &w
		}
	}
	return nil
}

// wordValue is a word as the shell would pass it, without expansion:
// quotes removed, escapes resolved, parameters kept as $NAME, command
// substitutions as $(…) (their commands are walked separately).
func wordValue(w *syntax.Word) string {
	if len(w.Parts) == 1 {
		// one literal (most words): its value as it is, no builder
		switch x := w.Parts[0].(type) {
		case *syntax.Lit:
			return unescape(x.Value, false)
		case *syntax.SglQuoted:
			return x.Value
		}
	}
	var b strings.Builder
	for _, p := range w.Parts {
		partValue(&b, p, false)
	}
	return b.String()
}

func partValue(b *strings.Builder, p syntax.WordPart, inDQ bool) {
	switch x := p.(type) {
	case *syntax.Lit:
		b.WriteString(unescape(x.Value, inDQ))
	case *syntax.SglQuoted:
		b.WriteString(x.Value)
	case *syntax.DblQuoted:
		for _, q := range x.Parts {
			partValue(b, q, true)
		}
	case *syntax.ParamExp:
		if x.Param != nil {
			b.WriteString("$" + x.Param.Value)
		} else {
			b.WriteString("$?")
		}
	case *syntax.CmdSubst:
		b.WriteString("$(…)")
	case *syntax.ArithmExp:
		b.WriteString("$((…))")
	case *syntax.ProcSubst:
		b.WriteString("<(…)")
	case *syntax.ExtGlob:
		b.WriteString(x.Op.String() + x.Pattern.Value + ")")
	}
}

// unescape resolves backslashes as the shell does (inside double quotes
// only before $ ` " \ and newline).
func unescape(s string, inDQ bool) string {
	if !strings.ContainsRune(s, '\\') {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			nx := s[i+1]
			if !inDQ || strings.IndexByte("$`\"\\\n", nx) >= 0 {
				if nx != '\n' {
					b.WriteByte(nx)
				}
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// escapedWord reports whether argv[0] was written to dodge an alias: \rm,
// 'rm' or "rm".
func escapedWord(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	switch x := w.Parts[0].(type) {
	case *syntax.Lit:
		return strings.HasPrefix(x.Value, "\\")
	case *syntax.SglQuoted, *syntax.DblQuoted:
		return true
	}
	return false
}

// declDumps reports whether export/declare/typeset only prints variables
// (export -p, declare -x, bare typeset): no assignment, only options.
func declDumps(d *syntax.DeclClause) bool {
	for _, a := range d.Args {
		if a.Name != nil || a.Value == nil || !strings.HasPrefix(wordValue(a.Value), "-") {
			return false
		}
	}
	return d.Variant != nil
}
