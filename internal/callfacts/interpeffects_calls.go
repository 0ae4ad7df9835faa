package callfacts

import (
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// More library calls spelled as the command line that does the same (see
// interpeffects.go), whatever the language:
//   - a signal sent to pid -1 (os.kill(-1, SIGKILL), Process.kill(:KILL,
//     -1), kill 9, -1) is kill -9 -1: every process;
//   - a signal sent to the pid a pid file holds
//     (os.kill(int(open('/run/x.pid').read()), …), process.kill(Number(
//     fs.readFileSync('/var/run/x.pid')))) is kill $(cat FILE);
//   - truncate(F, 0), os.truncate, fs.truncateSync, File.truncate is
//     truncate -s 0 F;
//   - a variable of the environment printed by name
//     (print(os.environ['AWS_SECRET_ACCESS_KEY']), console.log(
//     process.env.GITHUB_TOKEN), puts ENV['X'], print $ENV{X},
//     echo getenv('X')) is echo $NAME;
//   - a request whose method is an option or an argument
//     (fetch(url, {method:'POST'}), axios({method:'delete', url}),
//     requests.request('DELETE', url), Request(url, method='PUT'),
//     http.NewRequest("DELETE", url, nil), Net::HTTP::Delete) is curl -X
//     METHOD URL.
// The shell reading then judges that line on its target as it judges the
// CLI's.

// effectKillAll: a signal sent to pid -1.
var effectKillAll = lazyre.New(`(?:\bos\.killpg?|\bprocess\.kill|\bProcess\.kill|\bposix\.kill|\bposix_kill|\bsyscall\.Kill|\bunix\.Kill|\bkill)\s*\(?\s*(?:-1\s*,|[:'"]?-?\w+['"]?\s*,\s*-1\s*[,);\n]|[:'"]?-?\w+['"]?\s*,\s*-1\s*$)`)

// effectSignal: a call that sends a process a signal (Perl's kill 'TERM',
// $pid too).
var effectSignal = lazyre.New(`(?:\b(?:os\.killpg?|process\.kill|Process\.kill|posix\.kill|posix_kill|syscall\.Kill|unix\.Kill|kill)\s*\(|\bkill\s+['"]?-?[A-Z0-9]+['"]?\s*,|\.(?:kill|terminate|send_signal)\s*\()`)

// effectSignalPid: a signal sent to a process named by a literal pid
// (os.kill(2211, 9), process.kill(2211), Process.kill("KILL", 2211),
// Perl's kill 9, 2211): kill 2211, a process the line did not start (s24).
var effectSignalPid = lazyre.New(`\bos\.kill\s*\(\s*(\d{2,})\b|\bprocess\.kill\s*\(\s*(\d{2,})\b|\b(?:Process\.kill|posix\.kill|posix_kill|kill)\s*\(?\s*[:'"]?-?\w+['"]?\s*,\s*(\d{2,})\b`)

// effectKillGroup: a signal sent to a process group (os.killpg).
var effectKillGroup = lazyre.New(`\bos\.killpg\s*\(|\bkillpg\s*\(`)

// effectPgrep: pgrep or pidof run by the code with a literal pattern
// (['pgrep','-f','bitbake-server'], "pgrep -f celery", Perl's
// `pgrep -f node-red`): with a signal
// call on the line, the processes matched are the ones signalled, as
// kill -9 $(pgrep -f PATTERN).
var effectPgrep = lazyre.New(`['"` + "`" + `](pgrep|pidof)(?:['"]\s*,\s*['"]|\s+)(?:-[a-z]+(?:['"]\s*,\s*['"]|\s+))*([\w.:/@-]+)['"` + "`" + `]`)

// effectTruncate: a call that empties a file to a length.
var effectTruncate = lazyre.New(`(?:\bos\.truncate|\bfs\.(?:promises\.)?truncate(?:Sync)?|\btruncateSync|\bFile\.truncate|\bftruncate|\btruncate)\s*\(`)

// effectEnvNamed: one variable of the environment read by name.
var effectEnvNamed = lazyre.New(`(?:\bos\.environ(?:\.get)?\s*[\[(]\s*|\b(?:os\.)?getenv\(\s*|\bprocess\.env\.|\bprocess\.env\[\s*|\bENV(?:\.fetch)?\s*[\[(]\s*|\$ENV\{\s*|\bSystem\.getenv\(\s*|\bSys\.getenv\(\s*|\bos\.Getenv\(\s*|\bDeno\.env\.get\(\s*|\bBun\.env\.|\benv::var\(\s*|\$_ENV\[\s*|\$_SERVER\[\s*)['"]?([A-Za-z_][A-Za-z0-9_]*)`)

// effectPrintCall: a call or statement that prints what follows it.
var effectPrintCall = lazyre.New(`(?:\bprint|\bconsole\.(?:log|error|info|warn|dir)|\bputs|\bp|\bpp|\bsay|\becho|\bprintf|\bprintln|\bSystem\.out\.print(?:ln|f)?|\bwriteln|\bfmt\.Print(?:ln|f)?|\bwarn|\bsys\.stdout\.write|\bprocess\.stdout\.write|\bcat|\bdisplay|\bIO\.puts|\bprint_r|\bvar_dump)(?:\s*\(|\s+)`)

// effectNotValue: a printed expression that shows something about a
// value, not the value (its length, whether it is set, a hash or a mask
// of it).
var effectNotValue = lazyre.New(`\blen\(|\.length|\blength\(|\bbool\(|\bis\s+(?:not\s+)?None|\bin\s+os\.environ|\[\s*:\s*\d|\[\s*-?\d+\s*:|\bslice\(|\bsubstr|\bsubstring\(|\bhash|\bsha\d*|\bmd5|\bmask|\bif\b|\?|\bdefined\b|\bexists|\bnil\?|!!|\bpresent\?|\bstartswith|\bstartsWith|\bendswith|\bis_some|\bisset\(|\bempty\(|\bnot\b|!=|==|\bcount\(`)

// effectMethodOpt: a request method given as an option or an argument.
var effectMethodOpt = lazyre.New(`(?i)(?:\bmethod\s*[:=]>?\s*|\.request\(\s*|\bNewRequest(?:WithContext)?\(\s*(?:ctx\s*,\s*)?|\.open\(\s*|HTTP::Request->new\(\s*|\bNet::HTTP::|\bHttpMethod\.|\.method\(\s*|\bcurl_setopt\([^,]*,\s*CURLOPT_CUSTOMREQUEST\s*,\s*)['":]?(post|put|patch|delete)\b`)

// effectURLLit: a URL literal.
var effectURLLit = lazyre.New(`['"` + "`" + `](https?://[^'"` + "`" + `\s]+)`)

// effectArgvArray: a Java or Kotlin argv handed to exec or ProcessBuilder
// as an array or a list (Runtime.getRuntime().exec(new String[]{"rm",
// "-rf", d}), new ProcessBuilder(List.of("sudo", …))).
var effectArgvArray = lazyre.New(`(?:\bexec|\bProcessBuilder|\.command)\s*\(\s*(?:new\s+String\s*\[\s*\]\s*\{|(?:List\.of|Arrays\.asList|listOf|arrayOf)\s*\()([^{}()]*)`)

// effectURLJoin: a URL literal's close, then a value and the next
// literal joined to it ('…/zones/' + process.env.ZONE + '/purge_cache').
var effectURLJoin = lazyre.New(`^['"` + "`" + `]\s*(?:\+|\.)\s*[\w.\[\]'"()$]+?\s*(?:\+|\.)\s*['"` + "`" + `]([^'"` + "`" + `\s]*)['"` + "`" + `]`)

// effectURLRest is the rest of a URL built by joining a value and
// literals to it (after the first literal's text), a hole spelled x for
// each value.
func effectURLRest(after string) string {
	var b strings.Builder
	for i := 0; i < 4; i++ {
		ms := effectURLJoin.FindAllStringSubmatchIndex(after, 1)
		if ms == nil {
			break
		}
		m := ms[0]
		b.WriteString("x" + after[m[2]:m[3]])
		after = after[m[3]:]
	}
	return b.String()
}

// effectStatementEnd: where a printed expression ends.
func effectStatementEnd(code string, from int) int {
	for i := from; i < len(code); i++ {
		if code[i] == ';' || code[i] == '\n' {
			return i
		}
	}
	return len(code)
}

// moreInterpEffects is the command lines of the calls above (code is
// interpEffects', with $HOME spelled ~).
func moreInterpEffects(code string) []string {
	var out []string
	if effectKillAll.MatchString(code) {
		out = append(out, "kill -9 -1")
	} else if effectSignal.MatchString(code) {
		group := effectKillGroup.MatchString(code)
		for _, l := range Literals(code) {
			if (strings.HasSuffix(l, ".pid") || strings.HasSuffix(l, ".pgid")) && !strings.ContainsAny(l, " \n$`") {
				if group {
					out = append(out, "pkill -g $(cat "+argvCode([]string{l})+")") // os.killpg: the whole group
				} else {
					out = append(out, "kill $(cat "+argvCode([]string{l})+")")
				}
			}
		}
		for _, m := range effectSignalPid.FindAllStringSubmatch(code, 4) {
			out = append(out, "kill "+m[1]+m[2]+m[3])
		}
		if strings.Contains(code, "pgrep") || strings.Contains(code, "pidof") {
			for _, m := range effectPgrep.FindAllStringSubmatch(code, 2) {
				out = append(out, "kill -9 $("+m[1]+" -f "+argvCode([]string{m[2]})+")")
			}
		}
	}
	if effectTruncate.MatchString(code) {
		cmd := []string{"truncate", "-s", "0"}
		for _, l := range Literals(code) {
			if PathLike(l) && !strings.ContainsAny(l, " \n") {
				cmd = append(cmd, l)
			}
		}
		if len(cmd) > 3 {
			out = append(out, argvCode(cmd))
		}
	}
	if strings.Contains(code, "env") || strings.Contains(code, "ENV") || strings.Contains(code, "getenv") || strings.Contains(code, "_SERVER") {
		seen := map[string]bool{}
		for _, loc := range effectPrintCall.FindAllStringIndex(code, 16) {
			seg := code[loc[1]:effectStatementEnd(code, loc[1])]
			if t := strings.TrimSpace(seg); strings.HasPrefix(t, "=") && !strings.HasPrefix(t, "==") || strings.HasPrefix(t, "in ") {
				continue // p = process.env.KEY, for p in …: a name assigned, not a print
			}
			if effectNotValue.MatchString(seg) {
				continue
			}
			for _, ix := range effectEnvNamed.FindAllStringSubmatchIndex(seg, 4) {
				m := []string{seg[ix[0]:ix[1]], seg[ix[2]:ix[3]]}
				if strings.Count(seg[:ix[0]], "(") > strings.Count(seg[:ix[0]], ")") {
					continue // an argument of another call (requests.get(…, headers={…: os.environ['KEY']})): sent, not printed
				}
				if !seen[m[1]] {
					seen[m[1]] = true
					out = append(out, "echo \"$"+m[1]+"\"")
				}
			}
		}
	}
	for _, m := range effectArgvArray.FindAllStringSubmatch(code, 4) {
		if argv := Literals(m[1]); len(argv) > 0 {
			out = append(out, argvCode(argv))
		}
	}
	if m := effectMethodOpt.FindStringSubmatch(code); m != nil {
		if locs := effectURLLit.FindAllStringSubmatchIndex(code, 1); locs != nil {
			loc := locs[0]
			u := code[loc[2]:loc[3]] + effectURLRest(code[loc[1]:])
			out = append(out, "curl -X "+strings.ToUpper(m[1])+" "+argvCode([]string{effectURLHole.ReplaceAllString(u, "x")}))
		}
	}
	return out
}
