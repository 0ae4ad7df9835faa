package policy

import (
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// What a pod or container runs decides whether the exec changes
// production (kubectl exec -n prod … -- CMD, docker exec, heroku run):
// an exec is no change by itself, as ssh host docker exec is not
// (remoteops.txt docker-wrap). innerReads judged a program's own words;
// these are the forms of code it did not read:
//   - a runner that only sets up an environment here (bundle exec, sudo,
//     nohup: callfacts' wrappers labelled by their own name) runs the
//     command after it, and that command decides;
//   - an interpreter's one-liner whose every call reads (sdkReads:
//     print(django.get_version())), an app console's evaluation
//     (rails runner 'puts …': evalReads), a project script's read
//     subcommand (python manage.py showmigrations);
//   - a database client's inline statement that only reads (mongosh
//     --eval 'rs.status()', psql -c 'SELECT …'), as when the client names
//     the production server itself.
// Anything else (a shell, code with one unknown call, a console with no
// code) still counts as a change.

// localRunner: in only runs the next command here (its label in the next
// command's wrappers is its own name), with no code of its own; a remote
// shell or another exec (kubectl exec, docker exec) is no local runner.
func localRunner(e *Env, in *Cmd) bool {
	if in.Payload != "" || in.Name == "ssh" || slices.Contains(callfacts.RemoteShellTools(), in.Name) {
		return false
	}
	for i := range e.F.Commands {
		if &e.F.Commands[i] != in || i+1 >= len(e.F.Commands) {
			continue
		}
		next := &e.F.Commands[i+1]
		return len(next.Wrappers) == len(in.Wrappers)+1 && next.Wrappers[len(in.Wrappers)] == in.Name
	}
	return false
}

// innerCodeReads: ok when in is code (an interpreter's, a console's, a
// client's statement) this reads; r whether it only reads.
func innerCodeReads(e *Env, in *Cmd) (r, ok bool) {
	if slices.Contains(sqlClients, in.Name) {
		if text := sqlOf(in); text != "" && in.Stdin == "" {
			if in.Name == "mongosh" || in.Name == "mongo" {
				// --eval 'rs.status()': JavaScript, read call by call; a
				// collection's name (db.orders.find) is no call
				return exprReads(mongoCollection.ReplaceAllString(text, "db.")), true
			}
			return sqlReadOnly(clientOutfile(in, text)), true
		}
		return false, false
	}
	if !callfacts.IsInterpreter(in.Name) || callfacts.IsShell(in.Name) {
		return false, false
	}
	if in.Payload != "" {
		return sdkReads(in), true
	}
	if evalReads(in) {
		return true, true
	}
	if len(in.Pos) > 1 && strings.ContainsAny(in.Pos[0], "./") && !strings.HasPrefix(in.Pos[0], "-") && in.Stdin == "" {
		return prodAction(e, in) == "read", true
	}
	return false, true
}

// mongoCollection is a collection named after db in mongo's shell.
var mongoCollection = re(`\bdb\.[A-Za-z_]\w*\.`)
