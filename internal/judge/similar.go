package judge

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
)

// Similar calls (workaround detection). After a denial Claude tends to
// retry the same action in another spelling: `rm -rf build/` after
// `rm -rf ./build`, `sudo rm -r -f build`, `bash -c 'rm -fr build'`, a
// Write of the file an Edit could not change. SimilarKey maps such
// variants to one key: the tool (file-writing tools share one) and the
// normalized target. It is deliberately a light tokenizer rather than the
// policy engine's shell parser: the key only has to be stable across
// spellings, and the judge package stays free of the policy engine.

// maxKeyLen bounds a key (keys live in the signed session state).
const maxKeyLen = 160

// writeFamily is the key prefix shared by the file-writing tools.
const writeFamily = "write"

// SimilarKey returns the similarity key of a tool call. project and home
// make absolute paths under them relative ("~/…" for home).
func SimilarKey(tool string, input json.RawMessage, project, home string) string {
	var in map[string]any
	_ = json.Unmarshal(input, &in)
	str := func(k string) string { s, _ := in[k].(string); return s }
	var key string
	switch {
	case tool == "Bash":
		key = "Bash: " + NormalizeCommand(str("command"), project, home)
	case FileTools[tool]:
		p := firstSet(str("file_path"), str("notebook_path"))
		key = writeFamily + ": " + similarPath(p, project, home)
	case str("file_path") != "" || str("path") != "":
		key = tool + ": " + similarPath(firstSet(str("file_path"), str("path")), project, home)
	default:
		// Other tools (MCP, WebFetch…): the whole input, keys sorted by
		// json.Marshal, numbers folded.
		b, _ := json.Marshal(in)
		key = tool + ": " + foldDigits(string(b))
	}
	return clip(key, maxKeyLen)
}

// NormalizeCommand reduces a shell command to its simple commands, each as
// name, sorted short and long flags, and normalized arguments, joined with
// " ; ". Navigation (cd, pushd, popd) and variable assignments are left
// out; wrappers (sudo, env, nohup, time, nice, timeout, command, exec) are
// looked through; `sh -c '…'` payloads are normalized in place.
func NormalizeCommand(cmd, project, home string) string {
	return strings.Join(normalizeCommand(cmd, project, home, 0), " ; ")
}

func normalizeCommand(cmd, project, home string, depth int) []string {
	var out []string
	for _, seg := range shellSegments(cmd) {
		words := stripWrappers(seg)
		if len(words) == 0 {
			continue
		}
		name := path.Base(strings.TrimPrefix(words[0].text, `\`))
		if navigation[name] {
			continue
		}
		args := words[1:]
		if shells[name] && depth < 2 {
			if i := wordIndex(args, "-c"); i >= 0 && i+1 < len(args) {
				out = append(out, normalizeCommand(args[i+1].text, project, home, depth+1)...)
				continue
			}
		}
		out = append(out, normalizeSimple(name, args, project, home))
	}
	return out
}

var (
	navigation = map[string]bool{"cd": true, "pushd": true, "popd": true, "export": true, "set": true, ":": true, "true": true}
	wrappers   = map[string]bool{"sudo": true, "doas": true, "env": true, "nohup": true, "time": true, "nice": true,
		"timeout": true, "command": true, "exec": true, "builtin": true}
	shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true}
)

// sameAsShort folds the long options that mean the same short one for
// every command an agent retries with them (rm, cp, mv, ln, git push, docker
// rm…), so "git push -f" and "git push --force" count as one attempt. Only
// these two: elsewhere long and short letters differ by command (-n is
// --dry-run for git push, --no-verify for git commit).
var sameAsShort = map[string]string{"--force": "-f", "--recursive": "-r"}

// normalizeSimple renders one simple command: flags are split ("-rf" is
// "-r -f"), stripped of values ("--force=x" is "--force") and sorted, so
// the order and grouping of options do not matter; arguments keep their
// order.
func normalizeSimple(name string, args []shWord, project, home string) string {
	flags := map[string]bool{}
	var pos []string
	ended := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		if op, target, ok := redirection(a); ok {
			if target == "" && i+1 < len(args) {
				i++
				target = args[i].text
			}
			if !strings.HasPrefix(target, "&") { // 2>&1 and the like say nothing
				pos = append(pos, op+foldDigits(similarPath(target, project, home)))
			}
			continue
		}
		switch {
		case !ended && t == "--":
			ended = true
		case !ended && !a.quoted && strings.HasPrefix(t, "--") && len(t) > 2:
			f, _, _ := strings.Cut(t, "=")
			if short, ok := sameAsShort[f]; ok {
				f = short
			}
			flags[f] = true
		case !ended && !a.quoted && strings.HasPrefix(t, "-") && len(t) > 1 && !numeric(t[1:]):
			for _, r := range t[1:] {
				flags["-"+string(r)] = true
			}
		default:
			pos = append(pos, normArg(a, project, home))
		}
	}
	fs := make([]string, 0, len(flags))
	for f := range flags {
		fs = append(fs, f)
	}
	sort.Strings(fs)
	return strings.Join(append(append([]string{name}, fs...), pos...), " ")
}

// redirection splits a redirection word (>f, >> f, 2>&1, &>f, <in) into
// its operator (without the descriptor) and target ("" when the target is
// the next word).
func redirection(a shWord) (op, target string, ok bool) {
	if a.quoted {
		return "", "", false
	}
	t := strings.TrimLeft(a.text, "0123456789&")
	if t == "" || t[0] != '>' && t[0] != '<' {
		return "", "", false
	}
	n := 1
	if len(t) > 1 && t[1] == t[0] {
		n = 2
	}
	return t[:n], t[n:], true
}

// normArg: free text (an argument with spaces, like a commit message) is
// one placeholder; paths are cleaned and made relative; digits fold to N
// so that retries with another number or temp name still match.
func normArg(a shWord, project, home string) string {
	t := a.text
	switch {
	case strings.ContainsAny(t, " \t\n"):
		return "<text>"
	case strings.Contains(t, "/") || strings.HasPrefix(t, ".") || strings.HasPrefix(t, "~"):
		t = similarPath(t, project, home)
	}
	return foldDigits(t)
}

// similarPath cleans p and makes it relative to the project (or "~/…" under
// home). Relative paths are taken as they are: the command's directory
// is not tracked.
func similarPath(p, project, home string) string {
	if p == "" {
		return ""
	}
	if strings.Contains(p, "://") {
		return p // a URL
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		return path.Clean(p)
	}
	p = path.Clean(p)
	for _, root := range []struct{ dir, as string }{{project, ""}, {home, "~/"}} {
		if root.dir == "" || root.dir == "/" {
			continue
		}
		if p == root.dir {
			return firstSet(strings.TrimSuffix(root.as, "/"), ".")
		}
		if strings.HasPrefix(p, root.dir+"/") {
			return root.as + p[len(root.dir)+1:]
		}
	}
	return p
}

func foldDigits(s string) string {
	var b strings.Builder
	inRun := false
	for _, r := range s {
		if r >= '0' && r <= '9' {
			if !inRun {
				b.WriteByte('N')
			}
			inRun = true
			continue
		}
		inRun = false
		b.WriteRune(r)
	}
	return b.String()
}

func numeric(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '.' {
			return false
		}
	}
	return true
}

func firstSet(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// shWord is one shell word, unquoted; quoted tells that some of it was in
// quotes (so "-rf" in quotes is an argument, not flags).
type shWord struct {
	text   string
	quoted bool
}

func wordIndex(ws []shWord, s string) int {
	for i, w := range ws {
		if w.text == s && !w.quoted {
			return i
		}
	}
	return -1
}

// stripWrappers drops leading assignments (FOO=1) and wrapper commands with
// their options (sudo -u x, env -i A=1, timeout 10, nice -n 5).
func stripWrappers(ws []shWord) []shWord {
	for len(ws) > 0 {
		w := ws[0]
		switch {
		case !w.quoted && isAssignment(w.text):
			ws = ws[1:]
		case !w.quoted && wrappers[path.Base(w.text)]:
			name := path.Base(w.text)
			ws = ws[1:]
			for len(ws) > 0 && !ws[0].quoted && (strings.HasPrefix(ws[0].text, "-") || isAssignment(ws[0].text)) {
				opt := ws[0].text
				ws = ws[1:]
				// Options that take a value as the next word.
				if (name == "sudo" && (opt == "-u" || opt == "-g")) || (name == "nice" && opt == "-n") {
					if len(ws) > 0 {
						ws = ws[1:]
					}
				}
			}
			if name == "timeout" && len(ws) > 0 && ws[0].text != "" && ws[0].text[0] >= '0' && ws[0].text[0] <= '9' {
				ws = ws[1:]
			}
		default:
			return ws
		}
	}
	return ws
}

func isAssignment(s string) bool {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return false
	}
	for _, r := range s[:i] {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// shellSegments splits a command line into simple commands (at ; & && ||
// | and newlines, outside quotes) made of unquoted words. Redirections are
// kept as words; subshell parentheses and braces are dropped.
func shellSegments(s string) [][]shWord {
	var segs [][]shWord
	var cur []shWord
	var b strings.Builder
	inWord, quoted := false, false
	endWord := func() {
		if inWord {
			cur = append(cur, shWord{text: b.String(), quoted: quoted})
		}
		b.Reset()
		inWord, quoted = false, false
	}
	endSeg := func() {
		endWord()
		if len(cur) > 0 {
			segs = append(segs, cur)
		}
		cur = nil
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
				inWord = true
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord, quoted = true, true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				b.WriteByte(s[i])
			}
			inWord, quoted = true, true
		case c == '&' && (strings.HasSuffix(b.String(), ">") || strings.HasSuffix(b.String(), "<") || i+1 < len(s) && s[i+1] == '>'):
			b.WriteByte(c) // a redirection (2>&1, &>file), not a separator
			inWord = true
		case c == ';' || c == '&' || c == '|' || c == '\n':
			endSeg()
		case c == ' ' || c == '\t' || c == '(' || c == ')' || (c == '{' || c == '}') && !inWord:
			endWord()
		case c == '#' && !inWord:
			// A comment runs to the end of the line.
			for i+1 < len(s) && s[i+1] != '\n' {
				i++
			}
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	endSeg()
	return segs
}
