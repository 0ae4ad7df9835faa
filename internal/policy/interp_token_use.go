package policy

import (
	"regexp"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// s24 interpreter code that reads a token file to log a client in:
// Project('https://redcap…/api/', open('/home/dev/.redcap/token').read()
// .strip()), Canvas(url, open('~/.canvas_token').read()), a token
// read into t and handed to Gitlab(url, private_token=t). The token goes
// to the client, not into the conversation; what the code prints is the
// service's metadata (len(p.metadata), course names). It is the code
// spelling of curl -H "Authorization: Bearer $(cat ~/.token)", which
// tokenFileFedToAuth already leaves allowed; what the client then changes
// or sends is judged by the client readers (interp_client_change.go,
// interp_listed_destroy.go). A token printed (print(open(…).read()),
// print(t)) or read with no client to take it stays a secret read.

// codeFileRead: a call that reads a whole file in code.
var codeFileRead = re(`\bopen\s*\(|\bFile\.read\s*\(|\bIO\.read\s*\(|readFileSync\s*\(|\breadLines\s*\(|\bread_file\s*\(|\breadline\s*\(\s*file\s*\(|Get-Content\b`)

// codePrintCall: the calls that put a value into the output.
var codePrintCall = re(`\b(?:print|pprint|console\.log|console\.dir|puts|p|pp|cat|writeLines|message|println|echo|Write-Output|Write-Host|sys\.stdout\.write)\s*\(`)

// enclosingCall is the name of the call whose argument list holds
// position i of code ("" at statement level).
func enclosingCall(code string, i int) string {
	depth := 0
	for j := i - 1; j >= 0; j-- {
		switch code[j] {
		case ')', ']', '}':
			depth++
		case '[', '{':
			if depth == 0 {
				return "" // a list or a dict literal: not a call's argument
			}
			depth--
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			k := j
			for k > 0 && (code[k-1] == '.' || code[k-1] == '_' || code[k-1] == ':' || code[k-1] >= '0' && code[k-1] <= '9' || code[k-1] >= 'a' && code[k-1] <= 'z' || code[k-1] >= 'A' && code[k-1] <= 'Z') {
				k--
			}
			return strings.TrimSpace(code[k:j])
		case ';', '\n':
			if depth == 0 {
				return ""
			}
		}
	}
	return ""
}

// tokenClientCall: a call that logs a client in with what it is given.
func tokenClientCall(name string) bool {
	if name == "" {
		return false
	}
	l := strings.ToLower(name)
	if strings.Contains(l, "print") || strings.Contains(l, "log") && !strings.Contains(l, "login") || strings.HasSuffix(l, "write") || strings.HasSuffix(l, "dump") || strings.HasSuffix(l, "dumps") {
		return false
	}
	return listedClientCall(name) || strings.Contains(l, "auth") || strings.Contains(l, "login") || strings.Contains(l, "token") || strings.Contains(l, "credential")
}

// codeFeedsTokenToClient: every file the code reads goes into a client's
// making (directly or through a name it binds), and nothing it prints
// holds the read.
func codeFeedsTokenToClient(code string) bool {
	locs := codeFileRead.FindAllStringIndex(code, 8)
	if len(locs) == 0 {
		return false
	}
	for _, l := range locs {
		encl := enclosingCall(code, l[0])
		// .strip() and .read() after the open are the read's own
		// wrappers: Project(url, open(p).read().strip()) is enclosed by Project
		if tokenClientCall(encl) {
			continue
		}
		if encl != "" {
			return false
		}
		// t = open(p).read().strip(); … Client(url, private_token=t)
		head := code[:l[0]]
		if k := strings.LastIndexAny(head, ";\n"); k >= 0 {
			head = head[k+1:]
		}
		m := regexp.MustCompile(`^\s*(?:const\s+|let\s+|var\s+|\$)?(\w+)\s*=\s*(?:await\s+)?$`).FindStringSubmatch(head)
		if m == nil {
			return false
		}
		use := regexp.MustCompile(`\b` + regexp.QuoteMeta(m[1]) + `\b`)
		fed := false
		for _, u := range use.FindAllStringIndex(code, 16) {
			if u[0] <= l[0] {
				continue
			}
			e := enclosingCall(code, u[0])
			if e == "" && strings.HasPrefix(strings.TrimSpace(code[u[1]:]), "=") {
				continue
			}
			if !tokenClientCall(e) {
				return false // printed, sent or sliced: not only a client's login
			}
			fed = true
		}
		if !fed {
			return false
		}
	}
	// nothing printed holds a file's read
	for _, p := range codePrintCall.FindAllStringIndex(code, 16) {
		arg := code[p[1]:]
		if k := strings.IndexAny(arg, ";\n"); k >= 0 {
			arg = arg[:k]
		}
		if codeFileRead.MatchString(arg) {
			return false
		}
	}
	return true
}

// codeCallsOnlyReads: every method the code calls reads the service
// (get_, list_, search, export…) or shapes a value (strip, read, split,
// json…). A token fed to a client whose code calls anything else keeps
// the secret read's ask: the client readers may not know that verb
// (stop_vm, reboot, kick), and the person confirms what the code does.
func codeCallsOnlyReads(code string) bool {
	for _, m := range codeMethodCall.FindAllStringSubmatch(code, 64) {
		if m[2][0] >= 'A' && m[2][0] <= 'Z' {
			continue // gitlab.Gitlab(…): a class constructed, the client's making
		}
		parts := splitMethodName(m[2])
		if len(parts) == 0 {
			continue
		}
		if !clientReadVerbs[parts[0]] && !codeValueMethods[parts[0]] {
			return false
		}
	}
	return true
}

// codeValueMethods: methods that shape a value in the code's own memory.
var codeValueMethods = map[string]bool{"strip": true, "rstrip": true, "lstrip": true, "read": true, "readline": true, "readlines": true, "decode": true, "encode": true, "split": true,
	"splitlines": true, "join": true, "lower": true, "upper": true, "format": true, "items": true, "keys": true, "values": true, "json": true, "to": true, "as": true, "trim": true,
	"chomp": true, "strftime": true, "isoformat": true, "sort": true, "filter": true, "map": true, "all": true, "first": true, "len": true, "size": true, "dumps": true, "loads": true,
	"load": true, "dump": true, "path": true, "exists": true, "expanduser": true, "sum": true, "groupby": true, "agg": true, "describe": true, "print": true, "log": true, "pformat": true, "pprint": true}

// interpTokenFedToClient: via is an interpreter whose code on the line
// reads its token files only into a client's login.
func interpTokenFedToClient(e *Env, via string) bool {
	if !callfacts.IsInterpreter(via) {
		return false
	}
	seen := false
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name != via {
			continue
		}
		code := c.Payload
		if code == "" {
			code = c.Heredoc
		}
		if code == "" || !codeFeedsTokenToClient(code) || !codeCallsOnlyReads(code) {
			return false
		}
		seen = true
	}
	return seen
}
