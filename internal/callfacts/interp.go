package callfacts

import (
	"encoding/base64"
	"encoding/hex"
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// execFuncs are the calls through which an interpreter one-liner runs a
// shell command: their string arguments are parsed as shell.
var execFuncs = []string{"system", "popen", "run", "call", "check_call", "check_output", "Popen",
	"getoutput", "getstatusoutput", "spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync",
	"shell_exec", "passthru", "proc_open", "Command", "capture2", "capture3", "%x", "execute", "execl", "execlp", "execv", "execvp",
	"spawnl", "spawnlp", "startfile", "exec_command", "IO.popen", "Open3.popen3", "qx", "readpipe", "ProcessBuilder", "commandLine", "os.execute", "io.popen", "system2",
	"System.cmd", "System.shell", ":os.cmd"} // Elixir's and Erlang's

// interp records what an interpreter one-liner does: the shell commands it
// runs (os.system("…"), subprocess.run([...]), execSync("…"), `…`) are
// parsed as shell; string literals that look like paths become path facts.
func (n *normalizer) interp(name, payload string, depth int, wrappers []string) {
	if depth > maxDepth {
		return
	}
	// (shell-command "…") is system("…"), Julia's write(p, x) a file
	// write, Lua's vim.fn.delete(p, "rf") a tree delete (interpcalls.go)
	payload = CanonicalCode(name, payload)
	runs := shellStrings(payload)
	if f := lineReaders[name]; f != nil {
		runs = append(runs, f(payload)...) // Stata's shell CMD lines (interpstata.go)
	}
	if tclInterps[name] {
		for _, m := range tclExec.FindAllStringSubmatch(payload, 4) {
			runs = append(runs, strings.TrimSpace(m[1]))
		}
	}
	for _, s := range runs {
		n.derive("the %s code runs %q", name, short(s))
		n.shell(s, depth, wrappers, nil)
	}
	if runsSomething.MatchString(payload) {
		// bytes.fromhex('726d…').decode(), Buffer.from('cm0g…','base64'),
		// pack("H*","726d…"): the command is spelled in an encoding
		for _, d := range decodedLiterals(payload) {
			n.derive("the %s code decodes %q and runs it", name, short(d))
			n.shell(d, depth+1, append(append([]string(nil), wrappers...), "decoded by "+name), nil)
		}
	}
	for _, e := range append(interpEffects(payload), callCommands(name, payload)...) {
		n.derive("the %s code does as %q", name, short(e))
		n.shell(e, depth+1, append(append([]string(nil), wrappers...), "done by "+name+" code"), nil)
	}
	op := OpRead // code with no write or delete call only reads the files it names
	switch {
	case DeleteCall.MatchString(payload):
		op = OpDelete
	case writeCall.MatchString(payload), strings.HasSuffix(name, "awk") && awkWrite.MatchString(payload):
		op = OpWrite
	}
	if op != OpRead {
		n.derive("the %s code %s files: %s", name, map[string]string{OpDelete: "deletes", OpWrite: "writes"}[op], short(payload))
	}
	lits := Literals(payload)
	// delete calls over a directory's listing ([os.remove(…) for f in
	// os.listdir(d)]): every file in a named folder goes, as rm d/*
	each := op == OpDelete && dirListing.MatchString(payload)
	var copied map[string]bool // file.copy("/mnt/x/r.html", "out/"): the source is read
	if op == OpWrite {
		for _, m := range copySource.FindAllStringSubmatch(payload, 8) {
			if copied == nil {
				copied = map[string]bool{}
			}
			copied[m[1]] = true
		}
	}
	if op == OpWrite && (strings.Contains(payload, "glob") || strings.Contains(payload, "Dir")) {
		// a loop's files only read while the code writes elsewhere
		// (interpeffects_files.go)
		for p := range loopReadOnly(payload) {
			if copied == nil {
				copied = map[string]bool{}
			}
			copied[p] = true
		}
	}
	var probed map[string]bool // os.path.exists('~/.aws/credentials'): asked after, not read
	if op == OpRead {
		probed = existsOnly(payload)
	}
	for _, lit := range lits {
		if probed[lit] {
			continue
		}
		if copied[lit] {
			n.addPath(lit, OpRead, name)
			continue
		}
		if PathLike(lit) && !strings.ContainsAny(lit, " \n") {
			if each && path.Ext(lit) == "" && !strings.ContainsAny(lit, "*?[") {
				lit = strings.TrimSuffix(lit, "/") + "/*"
			}
			n.addPath(lit, op, name)
		}
	}
	if strings.Contains(payload, "(") {
		// open('AuthKey_X.p8'), readFileSync('server.key'): a bare file
		// name is a file when the code opens it
		o := op
		if o == OpDelete {
			o = OpRead // a file the code opens is read; what it deletes it names to the delete call
		}
		for _, m := range openedName.FindAllStringSubmatch(payload, -1) {
			if !PathLike(m[1]) {
				n.addPath(m[1], o, name)
			}
		}
	}
	if op == OpWrite {
		n.interpPlants(name, payload, depth)
	}
	if op != OpRead || fileReadCall(payload) {
		// a path built from home that the code opens, writes or deletes
		// (one it only prints is no file the code touches)
		for _, p := range homeJoined(payload) {
			n.addPath(p, op, name)
		}
	}
}

// shellStrings finds the shell code a payload hands to exec-like calls:
// the literals inside f( … ) for f in execFuncs (a list literal is joined
// with spaces), and backtick strings (Ruby, Perl, PHP).
func shellStrings(code string) []string {
	var out []string
	template := strings.Contains(code, "${") // a JavaScript template, before home in it is spelled ~
	if strings.Contains(code, "HOME") || strings.Contains(code, "home") {
		// `rm -rf ${process.env.HOME}/x`, "rm -rf #{ENV['HOME']}/x": the
		// home directory inside a template or an interpolated string
		code = homeInString.ReplaceAllStringFunc(code, func(m string) string {
			if strings.HasSuffix(m, "/") {
				return "~/" // "$ENV{HOME}/x" in a Perl string
			}
			return "~"
		})
		// system "rm", "-rf", $ENV{HOME}: the home directory is an argument
		code = homeVar.ReplaceAllString(code, `"~"`)
	}
	code = canonicalExecs(code) // s = os.system; s('…'): the exec function itself
	if outsideLookup.MatchString(code) {
		// os.system(os.environ['CMD']): 'CMD' is a key, not the command
		code = outsideLookup.ReplaceAllString(code, "$$UNSEEN")
	}
	if strings.Contains(code, "Command::new(") {
		out = builderCommands(code) // Rust's Command::new("sh").arg("-c").arg("…") (rustcmd.go)
	}
	for _, fn := range execFuncs {
		for i := 0; ; {
			j := strings.Index(code[i:], fn+"(")
			if j < 0 {
				break
			}
			start := i + j + len(fn) + 1
			end := matchParen(code, start)
			args := code[start:end]
			if t := strings.TrimSpace(args); strings.HasPrefix(t, "`") && strings.Count(t, "`") >= 2 {
				// a JavaScript template: execSync(`rm -rf ${dir}`)
				out = append(out, strings.SplitN(t[1:], "`", 2)[0])
			} else if lits := Literals(args); len(lits) > 0 {
				if sqlQueryLit(lits[0]) {
					i = start // cursor.execute('SELECT MAX(d) FROM etl.log WHERE s = ?', 'ok'): a query, no shell command
					continue
				}
				if argv := listArgv(args); argv != nil {
					// a list: ['rm', '-rf', p], spawnSync('sh', ['-c', '…'], {…})
					out = append(out, argvCode(argv))
				} else if osExecFamily[fn] {
					// os.spawnlp(os.P_WAIT, 'rm', 'rm', '-rf', p): the file, then argv
					out = append(out, argvCode(lits))
				} else if strings.Contains(args, "c(") || len(lits) > 1 && onlyLiterals(args) {
					// R's c(…), or Perl's and Ruby's system("rm", "-rf", "/")
					out = append(out, argvCode(lits))
				} else if len(lits) > 1 && (strings.Contains(args, "+") || concatenated(args)) {
					// 'rm' + ' -rf ' + os.path.expanduser('~'), PHP's and
					// Perl's "rm -rf " . getenv("HOME"), Lua's ..: one string
					out = append(out, strings.Join(lits, ""))
				} else {
					out = append(out, lits[0])
				}
			}
			i = start
		}
	}
	// cmd = 'rm -rf ~'; os.system(cmd): the literal the name holds
	out = append(out, assignedExecs(code)...)
	// Perl and Ruby call without parentheses: system "rm", "-rf", "/";
	for _, fn := range []string{"system ", "exec ", "qx ", "spawn ", "commandLine ", "sh "} { // commandLine: Gradle's exec {} in Groovy; sh: Rake's
		for i := 0; ; {
			j := strings.Index(code[i:], fn)
			if j < 0 {
				break
			}
			start := i + j + len(fn)
			if fn == "sh " && i+j > 0 && (identByte(code[i+j-1]) || code[i+j-1] == '.' || code[i+j-1] == '"' || code[i+j-1] == '\'') {
				i = start // bash "…", ssh '…', a string "sh 'x'": not Rake's sh
				continue
			}
			if start < len(code) && (code[start] == '"' || code[start] == '\'') {
				end := strings.IndexAny(code[start:], ";\n)")
				if end < 0 {
					end = len(code) - start
				}
				if lits := Literals(code[start : start+end]); len(lits) > 1 {
					out = append(out, strings.Join(lits, " "))
				} else if len(lits) == 1 {
					out = append(out, lits[0])
				}
			}
			i = start
		}
	}
	// Groovy runs a string or a list as a command: "rm -rf x".execute(),
	// ['rm', '-rf', x].execute()
	if strings.Contains(code, ".execute()") {
		for _, m := range groovyExecute.FindAllStringSubmatch(code, 4) {
			if m[2] != "" {
				out = append(out, m[2])
			} else if lits := Literals(m[3]); len(lits) > 0 {
				out = append(out, argvCode(lits))
			}
		}
	}
	// `cmd` in Ruby, Perl, PHP; ignored when it looks like a JS template.
	if strings.Count(code, "`") >= 2 && !template {
		parts := strings.Split(code, "`")
		for i := 1; i < len(parts); i += 2 {
			out = append(out, parts[i])
		}
	}
	return out
}

// groovyExecute: a Groovy string or list literal run by .execute().
// sqlQueryText: a string that is a SQL query (SELECT … FROM, WITH x AS
// (SELECT …), SHOW TABLES), the argument of a database call named like an
// exec function (cursor.execute, session.run), not a shell command.
var sqlQueryText = lazyre.New(`(?is)^\s*(?:select\s.*\bfrom\b|select\s+[\w@(]|with\s+\w+\s+as\s*\(\s*select\b|show\s+(?:tables|databases|schemas|columns|index|create|grants|status|variables)\b)`)

// sqlQueryLit: lit is one SQL query and nothing a shell would run after
// it (no ; | & ` $( or newline but a final ;).
func sqlQueryLit(lit string) bool {
	q := strings.TrimRight(strings.TrimSpace(lit), "; ")
	return !strings.ContainsAny(q, ";|&`\n") && !strings.Contains(q, "$(") && sqlQueryText.MatchString(q)
}

var groovyExecute = lazyre.New(`(['"])([^'"]+)['"]\s*\.execute\(\)|\[([^\[\]]*)\]\s*\.execute\(\)`)

// tclExec: Tcl's exec of a program and its words (exec rm -rf ~/x,
// [exec sh -c …]), which tclsh, wish and expect hand to no shell but run
// as the command the words spell.
var tclExec = lazyre.New(`(?:^|[;\n\[{])\s*exec\s+([^;\n\]}]+)`)

// tclInterps run Tcl code.
var tclInterps = map[string]bool{"tclsh": true, "wish": true, "expect": true}

// concatenated reports whether an argument is string literals joined by
// a concatenation operator (. in PHP and Perl, .. in Lua, & in VB, ~ in
// D) and nothing else.
func concatenated(args string) bool {
	ops := 0
	clean := outsideQuotes(args, func(c byte) bool {
		if c == '.' || c == '&' || c == '~' {
			ops++
			return true
		}
		return c == ' ' || c == '\t' || c == '\n'
	})
	return clean && ops > 0
}

// outsideQuotes calls keep with each byte of code outside its '…' and
// "…" literals, and reports whether keep accepted every one.
func outsideQuotes(code string, keep func(c byte) bool) bool {
	ok := true
	outsideQuotesAt(code, func(_ int, c byte) bool {
		ok = keep(c)
		return ok
	})
	return ok
}

// homeInString matches the home directory read from the environment
// inside a JavaScript template (${process.env.HOME}) or an interpolated
// Ruby, Perl or PHP string (#{ENV['HOME']}, {$_SERVER['HOME']},
// "$ENV{HOME}/x").
var homeInString = lazyre.New(`\$\{\s*(?:process\.env\.HOME|os\.homedir\(\)|require\(['"](?:node:)?os['"]\)\.homedir\(\))\s*\}|#\{\s*(?:ENV\[['"]HOME['"]\]|Dir\.home|System\.user_home!?\(\))\s*\}|\{\$_SERVER\[['"]HOME['"]\]\}|\$ENV\{HOME\}/`)

// onlyLiterals reports whether an argument list is string literals and
// commas only: system("rm", "-rf", "/"), not run("make", cwd="/").
func onlyLiterals(args string) bool {
	return outsideQuotes(args, func(c byte) bool { return c == ',' || c == ' ' || c == '\t' || c == '\n' })
}

// homeVar matches the home directory read from the environment or the
// runtime in interpreter code; in an exec call's arguments it stands for ~.
var homeVar = lazyre.New(`\$ENV\{HOME\}|System\.user_home!?\(\)|process\.env\.HOME\b|os\.homedir\(\)|require\(['"](?:node:)?os['"]\)\.homedir\(\)|Dir\.home\b|ENV\[['"]HOME['"]\]|(?:Deno\.)?env\.get\(['"]HOME['"]\)|os\.environ\[['"]HOME['"]\]|os\.environ\.get\(['"]HOME['"]\)|(?:os\.)?getenv\(['"]HOME['"]\)|System\.getProperty\(['"]user\.home['"]\)|(?:std::)?env::var\("HOME"\)(?:\.unwrap\(\))?`)

// matchParen returns the index of the ) closing the ( before start, or
// len(s).
func matchParen(s string, start int) int {
	depth, end := 1, len(s)
	outsideQuotesAt(s[start:], func(i int, c byte) bool {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				end = start + i
				return false
			}
		}
		return true
	})
	return end
}

// Literals returns the quoted string literals of code ('…', "…"), with
// simple backslash escapes resolved.
func Literals(code string) []string { return literals(code, false) }

// literals is Literals; text also turns \n and \t into a new line and a
// tab (the text a program writes).
func literals(code string, text bool) []string {
	var out []string
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '\'' && q != '"' {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(code) && code[j] != q; j++ {
			c := code[j]
			if c == '\\' && j+1 < len(code) {
				j++
				c = code[j]
				if text && c == 'n' {
					c = '\n'
				} else if text && c == 't' {
					c = '\t'
				}
			}
			b.WriteByte(c)
		}
		out = append(out, b.String())
		i = j
	}
	return out
}

// awkWrite matches an awk program's output redirected to a named file
// (print > "/etc/hosts").
// openedName is a file name literal handed to a call that opens or reads
// a file.
var openedName = lazyre.New(`\b(?:open|readFileSync|readFile|read_text|read_bytes|Path|File\.read|IO\.read|File\.open|file_get_contents|fopen|slurp|read_file)\(\s*['"]([\w.-]+\.\w+)['"]`)

var awkWrite = lazyre.New(`(print|printf)\b[^;}]*>\s*"`)

// writeCall matches interpreter calls that write or replace files (a
// file opened for writing by os.open(p, os.O_WRONLY) too); a
// path built by a call inside open( … ) (os.path.expanduser('~/.bashrc'))
// comes before the mode.
var writeCall = lazyre.New(`open\s*\((?:[^()]|\([^()]*\))*['"](w|a|wb|ab|w\+|r\+)['"]|\bos\.open\((?:[^()]|\([^()]*\))*\bO_(?:WRONLY|TRUNC|APPEND|CREAT)\b|write_text|write_bytes|writeFileSync|writeFile\(|appendFileSync|File\.write|IO\.write|File\.open\((?:[^()]|\([^()]*\))*['"]w|file_put_contents|fopen\((?:[^()]|\([^()]*\))*['"]w|copyfile|shutil\.(copy|move)|os\.(rename|replace|symlink|chmod)|renameSync|symlinkSync|copyFileSync|FileUtils\.(cp|mv|ln|touch)|json\.dump\(|>\s*\$|\.to_(?:csv|parquet|excel|pickle|json|feather|stata|hdf)\(\s*[fr]?['"]|\bwrite\.(?:csv2?|table|delim|xlsx|dta|foreign)\(|\bwrite_(?:csv2?|tsv|delim|rds|sas|xpt|dta|sav|parquet|feather|xlsx|lines|file|json)\(|\bsaveRDS\(|\bsave(?:\.image)?\(|\bfwrite\(|\bfile\.(?:copy|rename|create|append)\(|\bggsave\(|\bsink\(\s*['"]|\bfile\s*=\s*['"]|\bCSV\.write\(|\bcp\(|\bmv\(|\bcopy\(\s*['"]|\brename\s*\(?\s*['"]|open\s*\(\s*[A-Z]+\s*,\s*['"]>|open\s*\(\s*(?:my\s+)?\$\w+\s*,\s*['"]\+?>`)

// copySource: the first argument of a copy call, the file it reads.
var copySource = lazyre.New(`(?:file\.copy|shutil\.copy\w*|copyfile|copyFileSync|FileUtils\.cp|\bcp|\bcopy)\(\s*[fr]?['"]([^'"]+)['"]\s*,`)

// DeleteCall matches interpreter library calls that delete files or
// trees (shutil.rmtree, fs.rmSync, FileUtils.rm_rf, os.RemoveAll…).
var DeleteCall = lazyre.New(`removeSync|Deno\.remove\b|rmtree|rm_rf|rm_r\b|rmSync|rmdirSync|rimraf|remove_tree|removedirs|RemoveAll|remove_dir_all|unlinkSync|\brm\s*\(|File::Path|os\.(remove|unlink|rmdir)\b|\.unlink\s*\(|\bunlink\s*[\(\s"']|\brmdir\s*\(|fs\.(promises\.)?rm\b|File\.delete|FileUtils\.(rm|remove)|Dir\.(rmdir|delete)|fs\.unlink|del_tree|shutil\.move|os\.removedirs|file\.remove\b|\b(?:dir|file)_delete\(|\bfile\s+delete\b|\.deleteDir\(|\bdeltree\(`)

// runsSomething: code that hands a string to a shell or runs a program.
var runsSomething = lazyre.New(`system|exec|spawn|popen|subprocess|\.run\(|\.call\(|eval|Process|os\.system|shell_exec|passthru|proc_open|Command\(`)

// encodedLiteral: a hex or base64 string literal long enough to be a
// command.
var encodedLiteral = lazyre.New(`['"]([0-9a-fA-F]{8,}|[A-Za-z0-9+/]{8,}={0,2})['"]`)

// decodedLiterals decodes the payload's hex and base64 literals that turn
// into printable text with a space (a command and its arguments).
func decodedLiterals(code string) []string {
	var out []string
	for _, m := range encodedLiteral.FindAllStringSubmatch(code, 8) {
		lit := m[1]
		var b []byte
		if len(lit)%2 == 0 && isHex(lit) {
			b, _ = hex.DecodeString(lit)
		}
		if b == nil {
			b, _ = base64.StdEncoding.DecodeString(lit)
		}
		if t := string(b); len(t) > 2 && strings.Contains(t, " ") && printable(t) {
			out = append(out, t)
		}
	}
	return out
}

func isHex(s string) bool {
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}

func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r > 0x7e {
			return false
		}
	}
	return true
}

// dirListing finds an interpreter's call that lists a folder's entries
// (Python, Node, Ruby, PHP, Perl).
var dirListing = lazyre.New(`\b(?:os\.listdir|os\.scandir|\.iterdir|readdirSync|readdir|Dir\.(?:children|entries|each_child|foreach)|scandir|opendir|list\.files|dir_ls|\bdir)\s*\(`)
