package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Production read, not written: what a command writes decides, not the
// first production name on its line.
//
// A copy whose destination is a dev or test place (bq cp
// acme-prod:x acme-dev:scratch.y, gsutil cp gs://app-prod/f
// gs://app-dev-fixtures/f, rclone copy prod:bucket/x dev-minio:x) reads
// production and writes the developer's own copy: like a mirror into a
// local folder. The other way round (bq cp acme-dev:x acme-prod:y) the
// destination names production and it is a change.
//
// An application's console evaluating an expression on a production
// host (fly ssh console -C "bin/app rpc 'IO.inspect(Repo.aggregate(User,
// :count))'", heroku run -- rails runner 'puts User.where(x).count')
// reads when every call of the expression is a read (the words are data:
// remoteops.txt console-eval, expr-read); one call that deletes, updates,
// inserts, runs migrations or anything unknown makes it a change.

// copiesIntoDev: c copies and its destination (the last operand) is
// named for development or tests and names no production.
func copiesIntoDev(c *Cmd) bool {
	if len(c.Pos) < 3 || !anyPos(c, "sync", "rsync", "cp", "mirror", "copy") {
		return false
	}
	d := c.Pos[len(c.Pos)-1]
	if prodWord.MatchString(d) || callfacts.UnknownValue(d) || strings.HasPrefix(d, "-") {
		return false
	}
	return devName(d)
}

// consoleReads: c runs commands on a production host or container, and
// each one is an application console's evaluation whose calls only read,
// or a program that only reports (exec-read).
func consoleReads(e *Env, c *Cmd) bool {
	at := -1
	for i := range e.F.Commands {
		if &e.F.Commands[i] == c {
			at = i
			break
		}
	}
	if at < 0 {
		return false
	}
	evals, reports := opsList("console-eval"), opsList("exec-read")
	n, code := 0, 0
	for j := at + 1; j < len(e.F.Commands); j++ {
		in := &e.F.Commands[j]
		if len(in.Wrappers) <= len(c.Wrappers) {
			break // back at c's level: no longer what c runs
		}
		n++
		if reports[in.Name] && len(in.Wrappers) == len(c.Wrappers)+1 {
			continue
		}
		if callfacts.IsShell(in.Name) || callfacts.IsInterpreter(in.Name) || in.Payload != "" {
			return false
		}
		k := -1
		for i, p := range in.Pos {
			if i > 1 {
				break
			}
			if evals[p] {
				k = i
				break
			}
		}
		if k < 0 || k+1 >= len(in.Pos) || !exprReads(strings.Join(in.Pos[k+1:], " ")) {
			return false
		}
		code++
	}
	return n > 0 && code > 0
}

// exprCall finds the functions and methods an expression calls: the
// name after a dot (Repo.aggregate, .where(…).count) or before a
// parenthesis (inspect(x)).
var exprCall = re(`(?:\.|\b)([A-Za-z_]\w*[?!]?)\s*\(|\.([A-Za-z_]\w*[?!]?)`)

// exprReads: every call of code is a read (expr-read, sdk-read) or
// neutral (sdk-neutral), at least one a read. Module and class names
// (capitalised) are not calls.
func exprReads(code string) bool {
	read, sdk, neutral := opsList("expr-read"), opsList("sdk-read"), opsList("sdk-neutral")
	reads := 0
	for _, m := range exprCall.FindAllStringSubmatch(code, 64) {
		name := m[1] + m[2]
		if name == "" || name[0] >= 'A' && name[0] <= 'Z' {
			continue
		}
		name = strings.TrimRight(name, "?!")
		first := camelFirst(name)
		switch {
		case read[name] || read[first] || sdk[first]:
			reads++
		case neutral[name] || neutral[first]:
		default:
			return false
		}
	}
	return reads > 0
}
