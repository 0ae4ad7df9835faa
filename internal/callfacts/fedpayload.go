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
	if (name == "ssh" || innerName == "ssh") && (remoteReadsScript(payload) || remoteListReadsScript(payload) || remotePowerShellStdin(payload)) {
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
