package callfacts

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/shellesc"
	"mvdan.cc/sh/v3/syntax"
)

// What a command prints, when the command line itself decides it. Text fed
// into a shell (echo '…' | bash, bash <(printf …), a script written with
// echo > f then run with sh f) is the script that runs: when it is built
// from literals the normalizer parses it as shell; when it is not (a
// network fetch, a program's output) the shell reads an unknown script,
// and the rules can tell which.

// text is a command's output or a file's content as far as the line shows.
type text struct {
	s     string
	known bool
	// from names a command on the way that fetched or decoded the text
	// (curl, wget, base64): running it runs code from elsewhere.
	from string
	// names is set for the output of ls and find: file names stood for by
	// globs, fine as xargs arguments, unknown as a script.
	names bool
	// narrowed: names some of which a filter kept (passnames.go); which
	// ones is not on the line, so a $(…) of them stays unknown
	narrowed bool
	// file is the one file whose unknown text this is (cat FILE |):
	// the next stage reads it as if from < FILE.
	file string
}

// fetchers produce text from the network; decoders turn literals into
// code that is not visible in the line.
var fetchers = map[string]bool{"curl": true, "wget": true, "fetch": true, "http": true, "https": true, "aria2c": true,
	"xh": true, "lynx": true, "nc": true, "ncat": true, "socat": true,
	// PowerShell's, typed into a shell that is PowerShell
	"iwr": true, "irm": true, "Invoke-WebRequest": true, "Invoke-RestMethod": true, "invoke-webrequest": true, "invoke-restmethod": true}

// IsFetcher reports whether a program produces text from the network.
func IsFetcher(name string) bool { return fetchers[name] || strings.HasPrefix(name, codeFetchFeed) }

var decoders = map[string]bool{"base64": true, "xxd": true, "openssl": true, "uudecode": true, "base32": true, "gzip": true, "gunzip": true, "zcat": true, "rev": true}

// derive notes a step of the derivation for `warden policy explain`.
func (n *normalizer) derive(format string, args ...any) {
	if len(n.f.Derivation) < 40 {
		n.f.Derivation = append(n.f.Derivation, fmt.Sprintf(format, args...))
	}
}

// stmtsOutput is the output of statements run in sequence.
func (n *normalizer) stmtsOutput(stmts []*syntax.Stmt, stdin text) text {
	out := text{known: true}
	for _, st := range stmts {
		t := n.stmtOutput(st, stdin)
		out.s += t.s
		out.known = out.known && t.known
		out.narrowed = out.narrowed || t.narrowed // passnames.go
		if out.from == "" {
			out.from = t.from
		}
	}
	return out
}

// stmtOutput is what a statement prints given its input.
func (n *normalizer) stmtOutput(st *syntax.Stmt, stdin text) text {
	n.evalDepth++
	defer func() { n.evalDepth-- }()
	if n.evalDepth > maxDepth {
		return text{}
	}
	if h := n.stmtHeredoc(st); h != nil {
		stdin = *h
	}
	for _, r := range st.Redirs {
		if isOutRedirect(r) && r.N == nil {
			return text{known: true} // output goes to the file
		}
		if t := n.redirectedInput(r); t != nil {
			stdin = *t
		}
	}
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) == 0 {
			return text{known: true}
		}
		return n.callOutput(n.argv(x.Args), stdin)
	case *syntax.BinaryCmd:
		l := n.stmtOutput(x.X, stdin)
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			return n.stmtOutput(x.Y, l)
		}
		r := n.stmtOutput(x.Y, stdin)
		return text{s: l.s + r.s, known: l.known && r.known, from: l.from + r.from}
	case *syntax.Block:
		return n.stmtsOutput(x.Stmts, stdin)
	case *syntax.Subshell:
		return n.stmtsOutput(x.Stmts, stdin)
	case *syntax.ForClause:
		// for f in *.ll; do echo "llc -O2 $f"; done | sh: what the body
		// prints once, its loop variable standing for the names the loop
		// gives, once per value when the loop lists them (loopoutput.go)
		return n.forOutput(x, stdin)
	case *syntax.WhileClause:
		return n.loopOutput(x.Do, stdin)
	}
	return text{}
}

// redirectedInput is what `< FILE` feeds a statement: the text of a file
// the line wrote, else an unknown text from that file (base64 -d < f
// decodes what the line does not show). nil for other redirections.
func (n *normalizer) redirectedInput(r *syntax.Redirect) *text {
	if r.Op != syntax.RdrIn || r.Word == nil || r.N != nil && r.N.Value != "0" {
		return nil
	}
	p := n.wordAlts(r.Word)[0]
	if p == "/dev/null" {
		return &text{known: true}
	}
	p = NormPath(p, n.cwd, n.home)
	if t, ok := n.files[p]; ok {
		return &t
	}
	return &text{file: p}
}

// printers are the programs whose output callOutput knows from the line
// alone; a wrapper in front of one prints the same.
var printers = map[string]bool{"echo": true, "printf": true, "cat": true, "tac": true, "base64": true, "base32": true, "xxd": true, "rev": true, "tr": true}

// callOutput is what one command prints: echo and printf of literals,
// cat of its input or of a file written earlier in the line, base64 -d and
// xxd -r of known text. Anything else is unknown; a fetcher's output is
// unknown and marked as fetched.
func (n *normalizer) callOutput(argv []string, stdin text) text {
	name := ProgramName(argv[0])
	args := argv[1:]
	for (name == "command" || name == "builtin" || name == "sudo" || name == "env") && len(args) > 0 && !strings.HasPrefix(args[0], "-") && !strings.Contains(args[0], "=") {
		name, args = ProgramName(args[0]), args[1:]
	}
	for i := 0; i < maxUnwrap && !printers[name] && len(args) > 0; i++ {
		// nice echo '…' | sh, sudo -u x printf …: what the wrapped printer prints
		in, _, payload := unwrap(name, args)
		if len(in) == 0 || payload != "" || strings.HasPrefix(in[0], "-") || !printers[ProgramName(in[0])] && !wrapsAgain(in) {
			break
		}
		name, args = ProgramName(in[0]), in[1:]
	}
	if t, ok := n.templateOutput(name, args, stdin); ok {
		return t // seq -f, find -printf, sed s///, awk print: templates.go
	}
	if name == "make" || name == "gmake" {
		if t, ok := makeDryRunOutput(args); ok {
			return t // make -n test | sh: make test (pipe_equivalents.go)
		}
	}
	if t, ok := passLines(name, args, stdin); ok {
		return t // tee, head, tail of known text; yes: passlines.go
	}
	if t, ok := passNames(name, args, stdin); ok {
		return t // ls DIR/*.x | tail -n +4: some of the same names (passnames.go)
	}
	if t, ok := currentBranchOutput(name, args); ok {
		return t // git branch --show-current: currentbranch.go
	}
	switch name {
	case "echo":
		nl, esc := true, false
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
			nl = nl && !strings.Contains(args[0], "n")
			esc = esc || strings.Contains(args[0], "e")
			args = args[1:]
		}
		s := strings.Join(args, " ")
		if esc {
			s = shellesc.ANSIC(s)
		}
		if nl {
			s += "\n"
		}
		return text{s: s, known: true}
	case "printf":
		if len(args) > 1 && args[0] == "-v" {
			return text{known: true}
		}
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 {
			return text{known: true}
		}
		return text{s: shellesc.Printf(args[0], args[1:]), known: true}
	case "cat", "tac":
		if len(args) == 0 || len(args) == 1 && args[0] == "-" {
			return stdin
		}
		out := text{known: true}
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			t, ok := n.files[NormPath(a, n.cwd, n.home)]
			if !ok {
				if len(args) == 1 {
					return text{file: NormPath(a, n.cwd, n.home)}
				}
				return text{}
			}
			out.s += t.s
			out.known = out.known && t.known
			out.from += t.from
		}
		return out
	case "true", ":":
		return text{known: true}
	case "seq":
		return seqOutput(args)
	case "pwd":
		return text{s: n.cwd + "\n", known: n.cwd != ""}
	case "dirname", "basename", "realpath", "readlink":
		var outs []string
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if UnknownValue(a) {
				return text{}
			}
			switch name {
			case "dirname":
				outs = append(outs, path.Dir(a))
			case "basename":
				outs = append(outs, path.Base(a))
			default:
				outs = append(outs, NormPath(a, n.cwd, n.home))
			}
		}
		return text{s: strings.Join(outs, "\n") + "\n", known: len(outs) > 0}
	case "which", "command", "type":
		if p := programPath(name, args); p != "" {
			return text{s: p + "\n", known: true, names: true}
		}
		return text{}
	case "ls":
		// ls prints the names in its directories: xargs rm -rf then gets
		// all of them (a glob stands for them).
		var dirs []string
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				dirs = append(dirs, strings.TrimSuffix(a, "/")+"/*")
			}
		}
		if len(dirs) == 0 {
			dirs = []string{"*"}
		}
		return text{s: strings.Join(dirs, "\n") + "\n", known: true, names: true}
	case "git":
		// git ls-files, git diff --name-only and the like print paths of
		// the repository's files: what xargs rm gets are the project's
		// (git ls-files '*.orig' | xargs rm).
		if gitListsFiles(args) {
			return text{s: "./{}\n", known: true, names: true}
		}
	case "fd", "fdfind":
		// fd PATTERN [PATH…] prints what matches under each path: xargs rm
		// then gets ROOT/{} as from find with a filter (fd -e jpg .
		// ~/Pictures | xargs rm deletes the pictures).
		if roots, ok := fdRoots(args); ok {
			return text{s: strings.Join(roots, "\n") + "\n", known: true, names: true}
		}
	case "find":
		// Without tests that filter, find prints its starting points (and
		// everything under them): xargs rm -rf then gets them.
		var starts []string
		for _, a := range args {
			if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
				break
			}
			starts = append(starts, a)
		}
		if FindFilters(args) {
			// What matched under each starting point, as find -exec's {}
			// stands for it: find / -name x | xargs rm is rm on /{}.
			var matched []string
			name := findLiteralName(args)
			for _, st := range starts {
				if name != "" {
					// find . -type d -name .git | xargs rm -rf: ./.git among them
					matched = append(matched, strings.TrimSuffix(st, "/")+"/"+name)
					continue
				}
				matched = append(matched, strings.TrimSuffix(st, "/")+"/{}")
			}
			if len(matched) == 0 {
				matched = []string{"./{}"}
			}
			return text{s: strings.Join(matched, "\n") + "\n", known: true, names: true}
		}
		for _, a := range args {
			switch a {
			case "-mindepth":
				for j := range starts {
					starts[j] = strings.TrimSuffix(starts[j], "/") + "/*"
				}
			}
		}
		if len(starts) == 0 {
			starts = []string{"."}
		}
		return text{s: strings.Join(starts, "\n") + "\n", known: true, names: true}
	case "base64", "base32", "xxd", "rev", "openssl", "tr":
		in := stdin
		for _, a := range args {
			// openssl's operands are a subcommand, tr's are its sets:
			// neither names an input file.
			if !strings.HasPrefix(a, "-") && name != "openssl" && name != "tr" {
				t, ok := n.files[NormPath(a, n.cwd, n.home)]
				if !ok {
					return text{from: name}
				}
				in = t
			}
		}
		if !in.known {
			return text{from: name}
		}
		out := text{known: true, from: name}
		s, ok := shellesc.Decode(name, args, in.s)
		if !ok {
			return text{from: name}
		}
		out.s = s
		n.derive("%s decodes to %q", name, short(out.s))
		return out
	}
	if fetchers[name] {
		return text{from: name}
	}
	if shellSetup(name, args) {
		// eval "$(ssh-agent -s)": the tool prints variable settings and
		// shell functions of its own, no command of the user's choosing.
		n.derive("%s prints shell settings (exports, functions) for eval", name)
		return text{known: true}
	}
	return text{}
}

func HasArg(args []string, vals ...string) bool {
	for _, a := range args {
		for _, v := range vals {
			if a == v {
				return true
			}
		}
	}
	return false
}

// stmtHeredoc is the text a here-document or here-string gives a
// statement (nil when it has none). Built from a substitution the line
// cannot know, it is unknown (and marked fetched when a fetcher made it).
func (n *normalizer) stmtHeredoc(s *syntax.Stmt) *text {
	for _, r := range s.Redirs {
		var w *syntax.Word
		nl := ""
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			w = r.Hdoc
		case syntax.WordHdoc:
			w, nl = r.Word, "\n"
		}
		if w == nil {
			continue
		}
		v := n.wordAlts(w)[0] + nl
		if r.Op != syntax.WordHdoc {
			v = n.heredocBody(r)
		}
		if strings.Contains(v, "$(…)") {
			return &text{from: n.fetcherIn(w)}
		}
		return &text{s: v, known: true}
	}
	return nil
}

// heredocBody is a here-document's text as the command reads it: with a
// quoted delimiter (<<'EOF') exactly as written, else with parameters and
// substitutions expanded and backslashes kept except before $ ` \ and a
// newline.
func (n *normalizer) heredocBody(r *syntax.Redirect) string {
	quoted := false
	if r.Word != nil {
		for _, p := range r.Word.Parts {
			if l, ok := p.(*syntax.Lit); !ok || strings.ContainsRune(l.Value, '\\') {
				quoted = true
			}
		}
	}
	if quoted {
		var b strings.Builder
		for _, p := range r.Hdoc.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				b.WriteString(l.Value)
			}
		}
		return b.String()
	}
	alts := []string{""}
	for _, p := range r.Hdoc.Parts {
		alts = cross(alts, n.partAlts(p, true))
	}
	return alts[0]
}

func isOutRedirect(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll:
		return r.Word != nil
	case syntax.DplOut:
		return dupToFile(r)
	}
	return false
}

// dupToFile reports whether r is bash's csh-style `>&FILE` (make >& log):
// with no descriptor before it and a word that is neither a descriptor
// number nor `-`, standard output and error both go to the file, as &>
// sends them.
func dupToFile(r *syntax.Redirect) bool {
	if r.Op != syntax.DplOut || r.N != nil || r.Word == nil {
		return false
	}
	w := r.Word.Lit()
	return w != "" && w != "-" && !isDigits(strings.TrimSuffix(w, "-"))
}

// procSubst gives <(…) a file name, /dev/fd/N, whose content is what the
// commands inside print: bash <(echo 'rm -rf /') runs that script.
func (n *normalizer) procSubst(x *syntax.ProcSubst) string {
	if x.Op != syntax.CmdIn {
		return "/dev/fd/" + fmt.Sprint(62-len(n.files)) // >(…): a sink
	}
	name := fmt.Sprintf("/dev/fd/%d", 63+len(n.files))
	t := n.stmtsOutput(x.Stmts, text{known: true})
	if !t.known && t.from == "" {
		for _, st := range x.Stmts {
			t.from = n.fetcherIn(st)
		}
	}
	n.writeFile(name, t, false)
	return name
}

// fetcherIn names a fetcher or decoder a statement runs, or "".
func (n *normalizer) fetcherIn(node syntax.Node) string {
	found := ""
	syntax.Walk(node, func(x syntax.Node) bool {
		if c, ok := x.(*syntax.CallExpr); ok && len(c.Args) > 0 && found == "" {
			if name := ProgramName(wordValue(c.Args[0])); fetchers[name] || decoders[name] {
				found = name
			} else if len(c.Args) > 1 {
				found = fetcherCall(callWords(c))
			}
		}
		return found == ""
	})
	return found
}

// fetcherCall is the fetcher or decoder one command's words run: its
// program, or the one a wrapper runs (sudo -E curl …, timeout 30 wget
// -qO- …); "" for none.
func fetcherCall(argv []string) string {
	if name := ProgramName(argv[0]); fetchers[name] || decoders[name] {
		return name
	}
	if len(argv) > 1 {
		for _, name := range wrappedNames(argv)[1:] {
			if fetchers[name] || decoders[name] {
				return name
			}
		}
	}
	return ""
}

// writeFile records what the line writes into a file, so a later command
// that runs the file runs that text.
func (n *normalizer) writeFile(p string, t text, appendTo bool) {
	if n.files == nil {
		n.files = map[string]text{}
	}
	if old, ok := n.files[p]; ok && appendTo {
		t = text{s: old.s + t.s, known: old.known && t.known, from: old.from + t.from}
	}
	if len(n.files) < 64 {
		n.files[p] = t
	}
	if t.known && runsLater(p) && t.s != "" {
		// Code planted to run later (a shell start-up file, a git hook, a
		// cron file) is checked as if it ran now.
		n.derive("the text written to %s runs later: %q", p, short(t.s))
		if psProfile(path.Base(p)) {
			n.powershell(t.s, 2, []string{"runs later from " + path.Base(p)}) // a PowerShell profile holds PowerShell
		} else {
			n.shell(t.s, 2, []string{"runs later from " + path.Base(p)}, nil)
		}
	} else if t.known && t.s != "" {
		if lang, flag := loadedByTools(p); lang != "" {
			// conftest.py for pytest, setup.py for pip install ., an
			// ESLint config for eslint: the line's own text, run by the
			// tool that loads it, is judged as if run now.
			n.derive("the text written to %s runs when a tool loads it: %q", p, short(t.s))
			n.command([]string{lang, flag, t.s}, false, nil, 2, []string{"loaded from " + path.Base(p)}, nil)
		} else if strings.HasSuffix(p, ".go") && strings.Contains(t.s, "//go:generate ") {
			n.goGenerate(p, t.s)
		} else if cmakeFile(p) {
			for _, c := range cmakeCommands(t.s) {
				n.derive("the text written to %s runs when cmake configures or builds: %q", p, short(c))
				n.shell(c, 2, []string{"runs from " + path.Base(p)}, nil)
			}
		} else if strings.HasSuffix(p, ".sh") && strings.Contains(p, "/scripts/") {
			n.derive("the text written to %s runs when the project's scripts run: %q", p, short(t.s))
			n.shell(t.s, 2, []string{"runs later from " + path.Base(p)}, nil)
		}
	}
}

// loadedByTools names the interpreter (and its one-liner flag) whose code
// a file holds when tools load it on their own: test runners' and
// linters' configs, package build scripts. "" for other files.
func loadedByTools(p string) (string, string) {
	switch b := path.Base(p); {
	case b == "conftest.py", b == "setup.py", b == "noxfile.py", b == "fabfile.py", b == "dodo.py", strings.HasPrefix(b, "test_") && strings.HasSuffix(b, ".py"):
		return "python3", "-c"
	case b == ".eslintrc.js", b == ".eslintrc.cjs", strings.HasPrefix(b, "eslint.config."), strings.HasPrefix(b, "jest.config."), strings.HasPrefix(b, "vite.config."),
		strings.HasPrefix(b, "webpack.config."), strings.HasPrefix(b, "babel.config."), b == ".prettierrc.js", strings.HasPrefix(b, "vitest.config."), strings.HasPrefix(b, "next.config."),
		strings.HasPrefix(b, "postcss.config."), strings.HasPrefix(b, "tailwind.config."), strings.HasPrefix(b, "rollup.config."), b == "Gruntfile.js", b == "gulpfile.js":
		return "node", "-e"
	case b == "Rakefile", b == "Gemfile", strings.HasSuffix(b, ".gemspec"):
		return "ruby", "-e"
	case b == "build.gradle", b == "settings.gradle", b == "build.gradle.kts", b == "settings.gradle.kts", b == "init.gradle":
		return "groovy", "-e" // exec { commandLine … } runs when gradle configures the build
	// interpreters' start-up files: every later interactive session
	// (iex, irb, pry, python, R) runs them first
	case b == ".iex.exs":
		return "elixir", "-e"
	case b == ".irbrc", b == ".pryrc":
		return "ruby", "-e"
	case b == ".pythonrc", b == ".pythonrc.py":
		return "python3", "-c"
	case b == ".Rprofile", b == "Rprofile.site":
		return "rscript", "-e"
	}
	return "", ""
}

// runsLater reports whether a file's content runs as shell code later: shell
// start-up files, git hooks, cron and profile.d files.
func runsLater(p string) bool {
	b := path.Base(p)
	switch b {
	case ".bashrc", ".zshrc", ".profile", ".bash_profile", ".zprofile", ".zshenv", ".bash_login", ".bash_logout", ".zlogin", "rc.local", "config.fish",
		".bash_aliases", ".zsh_aliases", ".aliases", ".envrc", ".zlogout", ".kshrc", ".mkshrc", ".xprofile", ".xsessionrc", ".xinitrc",
		".cshrc", ".tcshrc", ".login", ".bash_env", "bash.bashrc", "zshrc", "zprofile", "environment":
		return b != "environment" || p == "/etc/environment"
	}
	if psProfile(b) {
		return true // PowerShell's profiles: every later pwsh session runs them (win14)
	}
	if strings.HasPrefix(b, ".") && (strings.HasSuffix(b, "env.sh") || strings.HasSuffix(b, "env.csh") || strings.HasSuffix(b, "rc.sh") || strings.HasSuffix(b, "src.sh")) {
		return true // a login's environment script its profile sources: SAP's ~/.sapenv.sh and ~/.dbenv.sh, ~/.orarc.sh
	}
	return strings.Contains(p, "/.git/hooks/") || strings.Contains(p, "/.husky/") || strings.HasPrefix(p, "/etc/profile.d/") ||
		strings.HasPrefix(p, "/etc/cron") || strings.HasPrefix(p, "/var/spool/cron/")
}

// psProfile: b is the name of a PowerShell profile (profile.ps1,
// Microsoft.PowerShell_profile.ps1, Microsoft.VSCode_profile.ps1), which
// every later session of PowerShell runs first, as a shell its rc file.
func psProfile(b string) bool {
	return PSProfile(b)
}

// PSProfile: b is the name of a PowerShell profile (psProfile); Windows
// keeps them under Documents, a home-data folder.
func PSProfile(b string) bool {
	l := strings.ToLower(b)
	return l == "profile.ps1" || strings.HasSuffix(l, "_profile.ps1")
}

// cronCommands are the commands of crontab lines (schedule fields dropped).
func cronCommands(tab string) []string {
	var out []string
	for _, l := range strings.Split(tab, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") || strings.Contains(strings.SplitN(l, " ", 2)[0], "=") {
			continue
		}
		f := strings.Fields(l)
		skip := 5
		if strings.HasPrefix(f[0], "@") {
			skip = 1
		}
		if len(f) > skip {
			out = append(out, strings.Join(f[skip:], " "))
		}
	}
	return out
}

// short clips text for a derivation line.
func short(s string) string {
	if r := []rune(s); len(r) > 200 {
		return string(r[:199]) + "…"
	}
	return s
}

// programPath is what `which X`, `command -v X`, `type -P X` print: where
// PATH finds X. The directory is not known here; a system bin directory
// stands for it, so $(which warden) off runs warden and rm $(which python)
// deletes a system file.
// "" when the command prints something else (type X, command -V X).
func programPath(name string, args []string) string {
	var opts, ops []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			opts = append(opts, a)
		} else {
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 {
		return ""
	}
	switch name {
	case "command":
		if !slices.Contains(opts, "-v") {
			return ""
		}
	case "type":
		if !slices.Contains(opts, "-p") && !slices.Contains(opts, "-P") {
			return ""
		}
	}
	if strings.Contains(ops[0], "/") {
		return ops[0]
	}
	return "/usr/bin/" + ops[0]
}

// RunsLater reports whether a file's content runs as shell code later (a
// shell start-up file, a git hook, a cron or profile.d file).
func RunsLater(p string) bool { return runsLater(p) }

// fdValueOpts are fd's options that take the next word.
var fdValueOpts = map[string]bool{"-e": true, "--extension": true, "-t": true, "--type": true, "-E": true, "--exclude": true,
	"-d": true, "--max-depth": true, "--min-depth": true, "--exact-depth": true, "-S": true, "--size": true,
	"--changed-within": true, "--changed-before": true, "--change-newer-than": true, "--change-older-than": true,
	"-o": true, "--owner": true, "-c": true, "--color": true, "-j": true, "--threads": true, "--base-directory": true,
	"--ignore-file": true, "--max-results": true, "--format": true, "--path-separator": true, "--search-path": true}

// fdRoots are ROOT/{} for each directory an fd command searches (./{}
// for none); false when it runs a command itself (-x, -X: its output is
// that command's, not names).
func fdRoots(args []string) ([]string, bool) {
	var pos, roots []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-x" || a == "--exec" || a == "-X" || a == "--exec-batch":
			return nil, false
		case a == "--search-path" && i+1 < len(args):
			roots = append(roots, args[i+1])
			i++
		case fdValueOpts[a]:
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) > 1 {
		roots = append(roots, pos[1:]...)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	for i, r := range roots {
		roots[i] = strings.TrimSuffix(r, "/") + "/{}"
	}
	return roots, true
}

// gitListsFiles: a git command that prints the repository's file names,
// relative to it (ls-files, diff/show --name-only, grep -l).
func gitListsFiles(args []string) bool {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if args[i] == "-C" || args[i] == "-c" {
			return false // another repository, or a setting that may run code
		}
		i++
	}
	if i >= len(args) {
		return false
	}
	rest := args[i+1:]
	has := func(opts ...string) bool {
		for _, a := range rest {
			for _, o := range opts {
				if a == o {
					return true
				}
			}
		}
		return false
	}
	switch args[i] {
	case "ls-files":
		// a pathspec or a kind picks some files; all of them (rm -f
		// $(git ls-files)) is the whole project, left to project-wipe
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") {
				return true
			}
		}
		return has("-o", "--others", "-i", "--ignored", "-d", "--deleted", "-m", "--modified", "-u", "--unmerged")
	case "diff", "show", "log":
		return has("--name-only")
	case "grep":
		return has("-l", "--files-with-matches", "-L", "--files-without-match")
	}
	return false
}
