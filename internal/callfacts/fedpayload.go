package callfacts

import "strings"

// Text fed to a command line that is itself a payload: ssh db1 'psql app'
// <<EOF DROP TABLE users; EOF, bash -c 'mysql -h prod' <<< 'DELETE …',
// ssh hist01 'piconfig' <<EOF @mode delete … EOF. The remote or inner
// command reads what the outer one is fed, so the text reaches it as
// its own here-document: the SQL reader judges the statements, a
// console's word readers its lines, exactly as for psql app <<EOF run
// here. A payload that is itself a shell reading its input (ssh host
// 'bash -s') is read as a script elsewhere (remoteReadsScript), so it
// takes no feed here.

// feedPayload sets the text the payload's first reading command takes.
func (n *normalizer) feedPayload(name, innerName, payload string, stdin *text, depth int) {
	n.feed = nil
	if stdin == nil || !stdin.known || strings.TrimSpace(stdin.s) == "" || payload == stdin.s {
		return
	}
	if (name == "ssh" || innerName == "ssh") && (remoteReadsScript(payload) || remoteListReadsScript(payload) || remotePowerShellStdin(payload)) && !remoteInterpreter(payload) {
		return // the remote shell runs it as a script (command.go)
	}
	if strings.Contains(payload, "<<") {
		return // the payload feeds its own command
	}
	t := *stdin
	n.feed, n.feedDepth = &t, depth
}

// takesFeed: a command that reads its input, not a step that only sets
// up where and how the next one runs (cd /srv && psql app).
func takesFeed(name string) bool {
	switch name {
	case "cd", "pushd", "popd", "export", "set", "unset", "umask", "ulimit", "true", ":", "source", ".", "echo", "printf", "sleep", "test", "[":
		return false
	}
	return !strings.Contains(name, "=")
}

// modeDirective: a console script's directive that sets what the lines
// under it do (piconfig's @mode delete, a loader's .mode or @action
// purge): the word after it is the act, read like a fed command's verb.
func modeDirective(w string) bool {
	if len(w) < 3 || w[0] != '@' && w[0] != '.' {
		return false
	}
	switch strings.ToLower(w[1:]) {
	case "mode", "action", "op", "operation", "cmd", "command":
		return true
	}
	return false
}

// remoteInterpreter: ssh's remote command is a language's interpreter
// reading its input (ssh h python3 - <<EOF, ssh h 'sudo node'): what ssh
// is fed is that language's code, not shell code, so it goes to the
// interpreter as its here-document, the way python3 - <<EOF run here
// reads it.
func remoteInterpreter(payload string) bool {
	f := strings.Fields(payload)
	for len(f) > 0 && (f[0] == "sudo" || f[0] == "exec" || strings.HasPrefix(f[0], "-") || strings.Contains(f[0], "=")) {
		f = f[1:]
	}
	if len(f) == 0 {
		return false
	}
	name := ProgramName(f[0])
	return IsInterpreter(name) && !IsShell(name) && name != "su"
}

// scriptArgs: the arguments a script the line wrote is run with (sh
// /tmp/x.sh ~/Pictures/a.jpg, /tmp/x.sh prod): its $1, $2 and $@.
// ok is false when c runs no script the line wrote.
func (n *normalizer) scriptArgs(c *Cmd, payload string) ([]string, bool) {
	if len(n.files) == 0 {
		return nil, false
	}
	if t, ok := n.files[NormPath(c.Raw, n.cwd, n.home)]; ok && t.known && t.s == payload {
		return c.Args, true
	}
	if !IsShell(c.Name) {
		return nil, false
	}
	for i, a := range c.Args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if t, ok := n.files[NormPath(a, n.cwd, n.home)]; ok && t.known && t.s == payload {
			return c.Args[i+1:], true
		}
		return nil, false
	}
	return nil, false
}

// withArgs runs fn with the positional parameters set to args, as the
// script sees them, and restores the line's own afterwards.
func (n *normalizer) withArgs(args []string, fn func()) {
	if n.vars == nil {
		n.vars = map[string][]string{}
	}
	names := []string{"@", "*", "#", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
	saved := map[string][]string{}
	for _, k := range names {
		if v, ok := n.vars[k]; ok {
			saved[k] = v
		}
		delete(n.vars, k)
	}
	if len(args) > 0 {
		n.vars["@"] = []string{strings.Join(args, " ")}
		n.vars["*"] = []string{strings.Join(args, " ")}
	}
	for i := 0; i < 9 && i < len(args); i++ {
		n.vars[string(rune('1'+i))] = []string{args[i]}
	}
	fn()
	for _, k := range names {
		delete(n.vars, k)
		if v, ok := saved[k]; ok {
			n.vars[k] = v
		}
	}
}

// sqlIncludeArg: a database client's own command that runs a file's
// statements (psql -c '\i /tmp/x.sql', mysql -e 'source /tmp/x.sql',
// sqlite3 app.db '.read /tmp/x.sql'): the file, "" for none. A file the
// line wrote is then the client's input, as with psql -f.
func sqlIncludeArg(name, a string) string {
	var verbs []string
	switch name {
	case "psql":
		verbs = []string{`\i`, `\include`, `\ir`, `\include_relative`}
	case "mysql", "mariadb":
		verbs = []string{"source", `\.`}
	case "sqlite3", "duckdb":
		verbs = []string{".read"}
	default:
		return ""
	}
	f := strings.Fields(strings.TrimRight(strings.TrimSpace(a), ";"))
	if len(f) != 2 {
		return ""
	}
	for _, v := range verbs {
		if strings.EqualFold(f[0], v) {
			return strings.Trim(f[1], `'"`)
		}
	}
	return ""
}
