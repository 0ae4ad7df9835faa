package callfacts

import (
	"regexp"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/lazyre"
)

// An interpreter's exec call is read like a shell's -c: its string is
// the command. When the argument is no string literal, two cases remain
// (disguise12, #30): a name the code assigned a literal to (c = 'rm -rf
// ~'; os.system(c)) runs that literal; a value from outside the code —
// the environment, the program's arguments, its input — runs a
// command the line does not show, which asks as a shell fed unknown text
// does (bash -c "$CMD").

// shellExecCall matches the calls that hand their first argument to a
// shell or run it as a program (narrower than execFuncs: no run(),
// call() or execute() of other libraries).
var shellExecCall = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\bos\.system|\bsystem|\bpopen|\bsubprocess\.(?:run|call|Popen)|\bcheck_call|\bcheck_output|\bgetoutput|\bgetstatusoutput|\bexecSync|\bspawnSync|\bexecFileSync|\bexec|\bspawn|\bshell_exec|\bpassthru|\bproc_open|\bIO\.popen|\bexec_command|\bos\.execute|\bio\.popen)\s*\(`)
})

// outsideValue matches a value read from outside the code: the
// environment, the program's arguments, standard input, and awk's input
// fields. A file's text is not among them: exec(open('x.py').read()) is
// running a script file, as python3 x.py is.
var outsideValue = lazyre.New(`\bos\.environ|\bgetenv\b|\bprocess\.env\b|\bENV\s*\[|\bENV\.fetch\b|\$ENV\s*\{|\bsys\.argv|\bprocess\.argv|\bARGV\b|\$argv\b|\bsys\.stdin|\binput\s*\(|\bSTDIN\b|<STDIN>|\bgets\b|\breadline|\$_(?:GET|POST|SERVER|ENV)\b|\$[0-9NF]\b`)

// identAssign finds name = '…' (or "…") in code.
func identAssign(code, name string) (string, bool) {
	re, err := regexp.Compile(`(?:^|[^\w.$])\$?` + regexp.QuoteMeta(name) + `\s*=\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")`)
	if err != nil {
		return "", false
	}
	m := re.FindStringSubmatch(code)
	if m == nil {
		return "", false
	}
	if lits := Literals(strings.TrimSpace(m[0][strings.IndexAny(m[0], `'"`):])); len(lits) > 0 {
		return lits[0], true
	}
	return "", false
}

// bareIdent matches a first argument that is a plain name (c, cmd, $cmd).
var bareIdent = lazyre.New(`^\s*\$?([A-Za-z_]\w*)\s*$`)

// execArgs returns the first argument of each shell exec call in code.
func execArgs(code string) []string {
	var out []string
	for _, m := range shellExecCall().FindAllStringIndex(code, 16) {
		args := code[m[1]:matchParen(code, m[1])]
		first := args
		depth := 0
		outsideQuotesAt(args, func(i int, c byte) bool {
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case ',':
				if depth == 0 {
					first = args[:i]
					return false
				}
			}
			return true
		})
		if strings.TrimSpace(first) != "" {
			out = append(out, first)
		}
	}
	return out
}

// assignedExecs is the shell code exec calls run through a name the code
// assigned a literal to (cmd = "rm -rf ~"; system(cmd)).
func assignedExecs(code string) []string {
	if !strings.Contains(code, "=") {
		return nil
	}
	var out []string
	for _, a := range execArgs(code) {
		if m := bareIdent.FindStringSubmatch(a); m != nil {
			if s, ok := identAssign(code, m[1]); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// InterpRunsUnseen reports whether interpreter code runs a command read
// from outside the code: os.system(os.environ['CMD']),
// execSync(process.argv[2]), system($ENV{CMD}), awk's system($0).
func InterpRunsUnseen(code string) bool {
	for _, a := range execArgs(code) {
		if t := strings.TrimSpace(a); strings.HasPrefix(t, "[") {
			// ['make', os.environ['TARGET']]: an argument the code does
			// not show is one, as make "$TARGET" is; the program is
			// the list's first element
			t = strings.TrimPrefix(t, "[")
			if end := strings.IndexByte(t, ','); end >= 0 {
				t = t[:end]
			}
			a = t
		}
		// the home directory is a value the line knows (~)
		if outsideValue.MatchString(homeVar.ReplaceAllString(a, "~")) {
			return true // os.system('rm -rf ' + sys.argv[1]) too: its target is unseen
		}
		if m := bareIdent.FindStringSubmatch(a); m != nil {
			// cmd = os.environ['CMD']; os.system(cmd)
			re, err := regexp.Compile(`(?:^|[^\w.$])\$?` + regexp.QuoteMeta(m[1]) + `\s*=\s*([^=\n;][^\n;]*)`)
			if err == nil {
				if v := re.FindStringSubmatch(code); v != nil && outsideValue.MatchString(v[1]) {
					return true
				}
			}
		}
	}
	return false
}

// outsideLookup matches a named value read from outside the code
// (os.environ['CMD'], getenv("CMD"), ENV.fetch("CMD"), process.env.CMD,
// $ENV{CMD}): the name is a key, not a command, and what the call runs
// is unknown.
var outsideLookup = lazyre.New(`(?:\bos\.environ(?:\.get)?\s*[\[(]|\bgetenv\s*\(|\bENV(?:\.fetch)?\s*[\[(])\s*['"][^'"]*['"]\s*[\])]?|\$ENV\{\w+\}|\bprocess\.env\.\w+`)
