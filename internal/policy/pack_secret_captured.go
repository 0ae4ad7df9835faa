package policy

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A secret taken by a command substitution is not printed by the command
// that reads it ($(security find-generic-password -w)), but the line may
// print it next: TOKEN=$(security … -w); echo "$TOKEN", or echo
// "$(op read op://…)". The reading of the line replaces both with the
// substitution's placeholder, so the line's text says which variable
// holds the secret and whether an echo, printf or print shows it whole
// (${#TOKEN}, ${TOKEN:0:4} show a length or a piece).

// assignSubst finds NAME=$(COMMAND… (also after export, local, declare).
var assignSubst = re(`([A-Za-z_][A-Za-z0-9_]*)=["']?\$\(\s*([^)]*)`)

// printerNames print their arguments into the conversation.
var printerNames = map[string]bool{"echo": true, "printf": true, "print": true}

// capturedSecretPrinted says which printer shows a captured secret, "".
func capturedSecretPrinted(e *Env) string {
	var src *Cmd
	what := ""
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Captured {
			if s := e.printsSecret(c); s != "" {
				src, what = c, s
				break
			}
			if s := capturedHolderRead(e, c); s != "" {
				src, what = c, s
				break
			}
		}
	}
	if src == nil || !printerShows(e) {
		return ""
	}
	text := e.F.Command
	for _, m := range assignSubst.FindAllStringSubmatch(text, -1) {
		if callfacts.ProgramName(firstWord(strings.TrimSpace(m[2]))) != src.Name {
			continue
		}
		if shows(text, `\$\{?`+regexp.QuoteMeta(m[1])+`(?:\}|[^A-Za-z0-9_:#}\[]|$)`) {
			return fmt.Sprintf("the line prints %s (kept in $%s) into the conversation", what, m[1])
		}
	}
	if shows(text, `\$\(\s*`+regexp.QuoteMeta(src.Raw)+`\b`) {
		return fmt.Sprintf("the line prints %s into the conversation", what)
	}
	return ""
}

// printerShows: the line has an echo, printf or print whose output
// reaches the conversation (not captured, not piped into a consumer or a
// reducer, not a printf of pieces).
func printerShows(e *Env) bool {
	for j := range e.F.Commands {
		p := &e.F.Commands[j]
		if printerNames[p.Name] && !p.Captured && !printfPieces(p) && !consumedByPipe(e.F.Commands, j) && !reducedDownstream(e, j) && !redirected(e, p.Name) {
			return true
		}
	}
	return false
}

// redirected: a command named name writes its output to a file.
func redirected(e *Env, name string) bool {
	for _, r := range e.F.Redirects {
		if r.Cmd == name && strings.HasPrefix(r.Op, ">") && !strings.HasPrefix(r.Target, "&") && r.Target != "/dev/stdout" && r.Target != "/dev/stderr" {
			return true
		}
	}
	return false
}

// shows: an echo, printf or print in text has an argument matching arg.
func shows(text, arg string) bool {
	ok, _ := regexp.MatchString(`\b(?:echo|printf|print)\b[^;&|\n]*`+arg, text)
	return ok
}

// capturedHolderRead: a captured whole print of a file that holds a
// credential by what it is (HQ=$(cat ~/.config/survey-solutions/api.json)):
// echoed later, the file's login is in the conversation (secret_toolfile.go).
func capturedHolderRead(e *Env, c *Cmd) string {
	if !wholePrinters[c.Name] {
		return ""
	}
	for _, p := range e.F.Paths {
		if p.Op == OpRead && p.Via == c.Name && toolSecretFile(p.Path, e.F.Home, e.F.Project) != "" {
			return homeRel(p.Path, e.F.Home)
		}
	}
	return ""
}
