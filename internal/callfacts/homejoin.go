package callfacts

import (
	"regexp"
	"strings"
	"sync"
)

// homeJoined finds paths an interpreter one-liner builds from the home
// directory and literals: getenv("HOME")."/.ssh/authorized_keys" (PHP,
// Perl), os.homedir()+"/.ssh/x" (Node), path.join(os.homedir(), ".aws",
// "credentials"), Path.home() / ".ssh" / "x", File.join(Dir.home,
// ".ssh"), os.path.expanduser("~") + "/.x". Each becomes ~/… so the path
// is judged by its zone like a literal one.
func homeJoined(code string) []string {
	if !strings.Contains(code, "home") && !strings.Contains(code, "HOME") && !strings.Contains(code, "~") {
		return nil
	}
	var out []string
	for _, loc := range homeExpr().FindAllStringIndex(code, -1) {
		var parts []string
		rest := code[loc[1]:]
		for {
			// a separator then a literal: . + / , (inside join) ..
			t := strings.TrimLeft(rest, " \t")
			sep := strings.IndexFunc(t, func(r rune) bool {
				return r != '.' && r != '+' && r != '/' && r != ',' && r != ' ' && r != ')' && r != '\t'
			})
			if sep < 0 || sep == 0 || sep > 4 || strings.Count(t[:sep], ")") > 1 {
				break
			}
			t = t[sep:]
			if len(t) == 0 || t[0] != '"' && t[0] != '\'' {
				break
			}
			end := strings.IndexByte(t[1:], t[0])
			if end < 0 {
				break
			}
			lit := t[1 : end+1]
			if strings.ContainsAny(lit, " \n$") || lit == "" {
				break
			}
			parts = append(parts, strings.Trim(lit, "/"))
			rest = t[end+2:]
		}
		if len(parts) > 0 {
			out = append(out, "~/"+strings.Join(parts, "/"))
		}
	}
	// "$ENV{HOME}/.ssh/x" (Perl), "${HOME}/x" and "$HOME/x" inside a
	// string the interpreter interpolates
	for _, lit := range Literals(code) {
		for _, pre := range []string{"$ENV{HOME}/", "${HOME}/", "$HOME/", "{$_SERVER['HOME']}/"} {
			if rest, ok := strings.CutPrefix(lit, pre); ok && rest != "" && !strings.ContainsAny(rest, " \n$") {
				out = append(out, "~/"+rest)
			}
		}
	}
	return out
}

// homeExpr is compiled on first use: most payloads never name home.
var homeExpr = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:(?:os\.)?getenv\(\s*['"]HOME['"]\s*\)|\$_SERVER\[['"]HOME['"]\]|\$ENV\{HOME\}|process\.env\.HOME\b|(?:require\(['"](?:node:)?os['"]\)|\bos)\.homedir\(\)|Path\.home\(\)|expanduser\(\s*['"]~['"]\s*\)|ENV\[['"]HOME['"]\]|ENV\.fetch\(['"]HOME['"]\)|Dir\.home\b|os\.environ\[['"]HOME['"]\]|os\.environ\.get\(['"]HOME['"]\)|System\.getProperty\(['"]user\.home['"]\)|(?:Deno\.)?env\.get\(['"]HOME['"]\)|homedir\(\))`)
})
