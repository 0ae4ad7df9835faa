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
	if !strings.Contains(code, "home") && !strings.Contains(code, "HOME") && !strings.Contains(code, "Home") && !strings.Contains(code, "~") {
		return nil
	}
	var out []string
	locs := homeExpr().FindAllStringIndex(code, -1)
	homeVars := map[string]bool{}
	// h, _ := os.UserHomeDir(); home := os.Getenv("HOME"): the variable
	// stands for home where it is used
	for _, m := range homeAssign().FindAllStringSubmatch(code, -1) {
		homeVars[m[1]] = true
		for i := 0; ; {
			j := strings.Index(code[i:], m[1])
			if j < 0 {
				break
			}
			at := i + j
			end := at + len(m[1])
			if (at == 0 || !identByte(code[at-1])) && (end == len(code) || !identByte(code[end])) {
				locs = append(locs, []int{at, end})
			}
			i = end
		}
	}
	for _, loc := range locs {
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
		} else if homeWiped(code[:loc[0]]) {
			out = append(out, "~") // remove_dir_all(env::var("HOME")…), rmtree(Path.home()): home itself
		}
	}
	// format!("{}/.ssh", home), format!("{}/x", env::var("HOME")…): Rust
	// puts home in front of the literal's rest
	if strings.Contains(code, "format!(") {
		for _, m := range homeFormat().FindAllStringSubmatch(code, -1) {
			if homeVars[m[2]] || strings.Contains(m[2], "HOME") || strings.Contains(m[2], "home_dir") {
				out = append(out, "~/"+m[1])
			}
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

// homeWiped: the code before a home expression ends in a tree delete's
// opening parenthesis, so home itself is what it deletes.
func homeWiped(before string) bool {
	before = strings.TrimRight(before, " \t&")
	if !strings.HasSuffix(before, "(") {
		return false
	}
	before = strings.TrimSuffix(before, "(")
	if len(before) > 40 {
		before = before[len(before)-40:]
	}
	for _, f := range []string{"remove_dir_all", "rmtree", "RemoveAll", "rm_rf", "rimraf", "rmSync", "remove_tree", "deleteRecursively", "del_tree"} {
		if strings.HasSuffix(before, f) {
			return true
		}
	}
	return false
}

func identByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// homeAssign finds a variable given the home directory: h, _ :=
// os.UserHomeDir() (Go), home = os.path.expanduser("~") (Python), const
// home = os.homedir() (Node), $home = getenv("HOME") (PHP, Perl).
var homeAssign = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\b(?:let|const|var|my)\s+)?(\$?[A-Za-z_]\w*)\s*(?:,\s*\w+\s*)?:?=\s*(?:os\.UserHomeDir\(\)|os\.Getenv\(\s*"HOME"\s*\)|(?:os\.)?getenv\(\s*['"]HOME['"]\s*\)|os\.path\.expanduser\(\s*['"]~['"]\s*\)|(?:require\(['"](?:node:)?os['"]\)|\bos)\.homedir\(\)|Path\.home\(\)|Dir\.home\b|ENV\[['"]HOME['"]\]|\$ENV\{HOME\}|dirs::home_dir\(\)|(?:std::)?env::var\(\s*"HOME"\s*\))`)
})

// homeFormat is Rust's format!("{}/REST", ARG): REST and ARG.
var homeFormat = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`format!\(\s*"\{\}/([^"{}\s]+)"\s*,\s*([A-Za-z_][\w:]*(?:\(\s*"HOME"\s*\))?)`)
})

// homeExpr is compiled on first use: most payloads never name home.
var homeExpr = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:os\.Getenv\(\s*"HOME"\s*\)|(?:os\.)?getenv\(\s*['"]HOME['"]\s*\)|\$_SERVER\[['"]HOME['"]\]|\$ENV\{HOME\}|process\.env\.HOME\b|(?:require\(['"](?:node:)?os['"]\)|\bos)\.homedir\(\)|Path\.home\(\)|expanduser\(\s*['"]~['"]\s*\)|ENV\[['"]HOME['"]\]|ENV\.fetch\(['"]HOME['"]\)|Dir\.home\b|os\.environ\[['"]HOME['"]\]|os\.environ\.get\(['"]HOME['"]\)|System\.getProperty\(['"]user\.home['"]\)|(?:Deno\.)?env\.get\(['"]HOME['"]\)|homedir\(\)|(?:std::)?env::var\(\s*"HOME"\s*\)(?:\.unwrap\(\)|\?)?|dirs::home_dir\(\)(?:\.unwrap\(\))?)`)
})
