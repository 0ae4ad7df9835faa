package callfacts

import (
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// An interpreter's library calls are effects as a CLI's are (d4, #30):
// os.chmod(…, 0o777) over os.walk('/home/dev') is chmod -R 777 /home/dev,
// os.kill(…, SIGKILL) over /proc's listing is kill -9 -1,
// console.log(process.env) is printenv, shutil.rmtree(sys.argv[1]) is
// rm -rf "$1", requests.post('https://…/purge_cache') is curl -X POST
// to that URL, move("$ENV{HOME}/Videos/x", "/tmp/") is mv ~/Videos/x
// /tmp/. interpEffects spells each such call as the command line that
// does the same, and the reading judges that line on its target's zone
// as it judges the CLI's: whatever the language or library.

// effectHTTP: a call that sends a request with a method to a URL literal
// (requests.post, httpx.delete, axios.put, session.patch, HTTP::Tiny's
// ->post, Faraday's .delete).
var effectHTTP = lazyre.New(`(?i)(?:\.|->|\b)(post|put|patch|delete)\s*\(\s*[fr]?['"` + "`" + `](https?://[^'"` + "`" + `\s]+)`)

// effectURLHole: a hole a URL template leaves for a value (%s, {zone},
// ${id}, #{id}).
var effectURLHole = lazyre.New(`%[sdr]|\$?\{[^}]*\}|#\{[^}]*\}`)

// effectMode: a permission mode literal (0o777, 0777, 0o600).
var effectMode = lazyre.New(`\b0o?([0-7]{3,4})\b`)

// effectChmod: a call that changes a file's mode or owner.
var effectChmod = lazyre.New(`\b(?:os\.(?:l?chmod|l?chown)|chmodSync|chownSync|fs\.(?:promises\.)?ch(?:mod|own)|File\.ch(?:mod|own)|FileUtils\.ch(?:mod|own)(?:_R)?|\.chmod|\.chown|chmod|chown)\s*\(`)

// effectWalk: code that goes over every file under a folder.
var effectWalk = lazyre.New(`\bos\.walk\(|\.rglob\(|\bglob\([^)]*\*\*|recursive\s*[:=]\s*(?:true|True)|File::Find|\bfind\s*\(|Dir\.glob\([^)]*\*\*|\bwalkdir\b|WalkDir|FileUtils\.ch(?:mod|own)_R`)

// effectKill: a call that sends a process a signal.
var effectKill = lazyre.New(`\b(?:os\.kill|os\.killpg|process\.kill|Process\.kill|\.kill|\.terminate|kill)\s*\(|\bkill\s+(?:9|-?KILL|'KILL'|"KILL"|\d+)\s*,`)

// effectEveryProcess: code that goes over every process of the machine
// (/proc's listing, psutil's or ps's).
var effectEveryProcess = lazyre.New(`['"]/proc/?['"]|process_iter\(|psutil\.pids\(|\bpids\(\)|Sys::ProcessTable|ps-list|ps\s+-e|ps\s+aux`)

// effectEnvWhole: the environment printed whole (console.log(process.env),
// print(os.environ), p ENV, print %ENV, print_r(getenv())) rather than a
// variable of it read by name.
var effectEnvWhole = lazyre.New(`(?:\bprint|console\.(?:log|dir|table|error)|\bputs|\bpp?\b|\bsay|\bprint_r|\bvar_dump|\bvar_export|json\.dumps|JSON\.(?:stringify|generate|dump|pretty_generate)|Dumper|\bpprint|\becho|\bwrite|\bdisplay)\s*\(?[^;\n]{0,40}?(?:\bos\.environ\b(?:\.(?:items|copy)\(\))?|\bprocess\.env|\bENV\b(?:\.(?:to_h|to_a|inspect|sort|each))?|\\?%ENV|\$_ENV|\$_SERVER|\bgetenv\(\s*\)|System\.getenv\(\s*\)|Deno\.env\.toObject\(\))\s*(?:[),;\n}]|$)|\bENV\.each\b|\bos\.environ\.items\(\)|Object\.entries\(process\.env\)|\beach\s*%ENV|\bfor\s+\w+\s+in\s+os\.environ\b|\$ENV\{\$_\}|\$ENV\{\$\w+\}[^;]*\b(?:for|foreach)\b[^;]*%ENV`)

// envMembership: a print of whether a named variable is set
// (print('API_KEY' in os.environ)): a yes or no, not the environment.
var envMembership = lazyre.New(`['"]\s+(?:not\s+)?in\s+(?:os\.environ|process\.env|ENV)\b`)

// effectMove: a call that moves a file (the source is gone from where it
// was).
var effectMove = lazyre.New(`(?:\bshutil\.move|\bFileUtils\.(?:mv|move)|\bmove|\bos\.rename|\bos\.replace|\brenameSync|\bFile\.rename|\brename)\s*\(`)

// effectMoveBare: Perl's rename called without parentheses (rename
// "$ENV{HOME}/.config/x", "/tmp/x-old").
var effectMoveBare = lazyre.New(`\brename\s+['"]`)

// effectExists: calls that only ask whether a path is there or what it
// is (not its text).
var effectExists = lazyre.New(`\b(?:exists|lexists|isfile|isdir|islink|is_file|is_dir|existsSync|exist\?|exists\?|file\?|directory\?|file_exists|is_readable|is_file|is_dir|access|accessSync|getsize|getmtime|stat|statSync|lstat)\s*\(`)

// interpEffects is the command lines that do what code's library calls
// do (see above); each is parsed and judged as shell.
func interpEffects(code string) []string {
	var out []string
	if strings.Contains(code, "HOME") {
		code = homeInString.ReplaceAllStringFunc(code, func(m string) string {
			if strings.HasSuffix(m, "/") {
				return "~/"
			}
			return "~"
		})
	}
	for _, ix := range effectHTTP.FindAllStringSubmatchIndex(code, 4) {
		u := effectURLHole.ReplaceAllString(code[ix[4]:ix[5]], "x")
		cmd := []string{"curl", "-X", strings.ToUpper(code[ix[2]:ix[3]])}
		out = append(out, argvCode(append(append(cmd, httpCallOpts(code, ix[1])...), u)))
	}
	if locs := effectChmod.FindAllStringIndex(code, 1); locs != nil {
		loc := locs[0]
		args := code[loc[1]:matchParen(code, loc[1])]
		if mode := effectMode.FindStringSubmatch(args); mode != nil {
			verb := "chmod"
			if strings.Contains(code[loc[0]:loc[1]], "own") {
				verb = "chown"
			}
			var targets []string
			for _, l := range Literals(code) {
				if PathLike(l) && !strings.ContainsAny(l, " \n") {
					targets = append(targets, l)
				}
			}
			if len(targets) > 0 {
				cmd := []string{verb}
				if effectWalk.MatchString(code) {
					cmd = append(cmd, "-R")
				}
				if verb == "chmod" {
					cmd = append(cmd, mode[1])
				} else {
					cmd = append(cmd, "nobody")
				}
				out = append(out, argvCode(append(cmd, targets...)))
			}
		}
	}
	if effectKill.MatchString(code) && effectEveryProcess.MatchString(code) {
		out = append(out, "kill -9 -1") // every process listed is signalled
	}
	if m := effectEnvWhole.FindString(code); m != "" && (!strings.Contains(m, "keys") || strings.Contains(m, "$ENV{$")) && !envMembership.MatchString(m) {
		out = append(out, "printenv")
	}
	for _, loc := range DeleteCall.FindAllStringIndex(code, 8) {
		open := loc[1]
		for open < len(code) && (identByte(code[open]) || code[open] == ' ') {
			open++
		}
		if strings.HasSuffix(code[loc[0]:loc[1]], "(") {
			open = loc[1] - 1 // rm(, rmdir(: the pattern holds the parenthesis
		}
		if open >= len(code) || code[open] != '(' {
			continue
		}
		args := code[open+1 : matchParen(code, open+1)]
		if outsideValue.MatchString(args) && len(Literals(outsideLookup.ReplaceAllString(args, "$$UNSEEN"))) == 0 {
			out = append(out, `rm -rf "$UNSEEN"`) // rmtree(sys.argv[1]): a target the line does not show
			break
		}
	}
	for _, loc := range effectMove.FindAllStringIndex(code, 4) {
		lits := Literals(code[loc[1]:matchParen(code, loc[1])])
		if len(lits) >= 2 && PathLike(lits[0]) {
			out = append(out, argvCode([]string{"mv", lits[0], lits[1]}))
		}
	}
	for _, loc := range effectMoveBare.FindAllStringIndex(code, 4) {
		lits := Literals(code[loc[1]-1 : effectStatementEnd(code, loc[1])])
		if len(lits) >= 2 && PathLike(lits[0]) {
			out = append(out, argvCode([]string{"mv", lits[0], lits[1]}))
		}
	}
	return append(append(append(out, moreInterpEffects(code)...), boto3CLI(code)...), fileDeviceEffects(code)...)
}

// effectKeysOnly: a structure's keys taken from what a call returned
// (load_file(…).keys, json.load(…).keys(), Object.keys(JSON.parse(…))).
var effectKeysOnly = lazyre.New(`\)\s*\.keys\b|\bObject\.keys\(\s*JSON\.parse\(|\bkeys\s*%\{`)

// effectPrint: a call that prints.
var effectPrint = lazyre.New(`\b(?:print|puts|pp?|say|echo|console\.log|print_r|var_dump|printf)\b`)

// existsOnly: the literals of code handed only to calls that ask whether
// a path exists or what it is (os.path.exists(expanduser('~/.aws/x'))):
// the code never reads their text.
func existsOnly(code string) map[string]bool {
	if effectKeysOnly.MatchString(code) && len(effectPrint.FindAllStringIndex(code, 2)) == 1 {
		// puts YAML.load_file("config/database.yml").keys: the names
		// printed, no value
		in := map[string]bool{}
		for _, l := range Literals(code) {
			in[l] = true
		}
		return in
	}
	locs := effectExists.FindAllStringIndex(code, 8)
	if locs == nil {
		return nil
	}
	in := map[string]bool{}
	covered := make([]bool, len(code))
	for _, loc := range locs {
		end := matchParen(code, loc[1])
		for _, l := range Literals(code[loc[1]:end]) {
			in[l] = true
		}
		for i := loc[0]; i < end; i++ {
			covered[i] = true
		}
	}
	var b strings.Builder
	for i := 0; i < len(code); i++ {
		if !covered[i] {
			b.WriteByte(code[i])
		}
	}
	rest := b.String()
	for _, l := range Literals(rest) {
		delete(in, l)
	}
	return in
}

// effectArgvRef: code's reference to one of its arguments
// (sys.argv[1], process.argv[1], ARGV[0], $ARGV[0]).
var effectArgvRef = lazyre.New(`\b(?:sys\.argv|process\.argv)\[(\d)\]|\$?\bARGV\[(\d)\]`)

// bindArgv is code with references to its arguments replaced by the
// arguments the line gives after it, when they are plain words
// (python3 -c "os.remove(sys.argv[1])" out.log removes out.log); an
// argument the line does not show ("$TARGET_DIR") stays unknown.
func bindArgv(code string, args []string) string {
	at := -1
	for i, a := range args {
		if a == code {
			at = i
			break
		}
	}
	if at < 0 || at+1 >= len(args) || !strings.Contains(code, "argv[") && !strings.Contains(code, "ARGV[") {
		return code
	}
	rest := args[at+1:]
	return effectArgvRef.ReplaceAllStringFunc(code, func(m string) string {
		k := int(m[len(m)-2] - '0')
		if !strings.Contains(m, "ARGV") {
			k-- // sys.argv[0] is the program
		}
		if k < 0 || k >= len(rest) || strings.ContainsAny(rest[k], "$`'\"\\") {
			return m
		}
		return "'" + rest[k] + "'"
	})
}
