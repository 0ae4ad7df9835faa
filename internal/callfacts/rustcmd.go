package callfacts

import "strings"

// builderCommands reads the commands a builder-style process API runs:
// Rust's Command::new("sh").arg("-c").arg("…"), .args(["-rf", "/x"]),
// and the same chain in Java's and Kotlin's ProcessBuilder is a list
// already (execFuncs). The program and the literals of its .arg(…) and
// .args(…) calls, up to the end of the statement, are one command; a
// shell's -c takes the code that follows. A build script (build.rs) is
// mostly written this way.
func builderCommands(code string) []string {
	var out []string
	for i := 0; ; {
		j := strings.Index(code[i:], "Command::new(")
		if j < 0 {
			return out
		}
		start := i + j + len("Command::new(")
		end := matchParen(code, start)
		words := Literals(code[start:end])
		if len(words) != 1 {
			i = start
			continue
		}
		stmt := code[end:]
		if k := strings.IndexByte(stmt, ';'); k >= 0 {
			stmt = stmt[:k]
		}
		for k := 0; ; {
			a := strings.Index(stmt[k:], ".arg")
			if a < 0 {
				break
			}
			open := k + a + len(".arg")
			if strings.HasPrefix(stmt[open:], "s(") {
				open++
			}
			if !strings.HasPrefix(stmt[open:], "(") {
				k = open
				continue
			}
			close := matchParen(stmt, open+1)
			words = append(words, Literals(stmt[open+1:close])...)
			k = close
		}
		if len(words) >= 3 && IsShell(words[0]) && words[1] == "-c" {
			out = append(out, words[2])
		} else {
			out = append(out, strings.Join(words, " "))
		}
		i = start
	}
}
