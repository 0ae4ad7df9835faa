package callfacts

import (
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// s28: an SSH library runs its command on the host it connects to, not
// here: paramiko's c.connect('web1'); c.exec_command('…'), fabric's
// Connection('web1').run('…'), Net::SSH::Perl->new("plc-3") then
// $s->cmd("…"), Net::OpenSSH's $s->system("…"), node-ssh's
// execCommand('…'). Each such command is spelled as ssh HOST 'CMD', and
// the remote readings judge it as they judge ssh's (a service restarted
// there, an admin command sent to a device's shell).

// sshLibModule: code that uses an SSH client library.
var sshLibModule = lazyre.New(`\bparamiko\b|\bfabric\b|Net::SSH|Net::OpenSSH|\basyncssh\b|node-ssh|\bssh2\b|\bspur\b|\bpssh\b|\bNet::Telnet\b|\bsshkit\b|\bNodeSSH\b`)

// sshLibHost: the host the client connects to, as a literal.
var sshLibHost = lazyre.New(`(?:\bConnection|->new|\.connect|asyncssh\.connect|\bSshShell|\bSSHClient)\s*\(\s*(?:\{\s*)?(?:(?:hostname|host|Host)\s*[=:]\s*|(?:['"]?host['"]?\s*=>\s*))?['"]([\w.@-]+)['"]`)

// sshLibRun: a call that runs a command literal over the connection.
var sshLibRun = lazyre.New(`(\w+)\s*(?:\([^()]*\))?\s*(?:\.|->)\s*(?:exec_command|run|sudo|cmd|system|capture|capture2|execCommand|exec|shell|execute)\s*\(\s*[rf]?(?:"([^"]+)"|'([^']+)')`)

// sshLibEffects is ssh HOST 'CMD' for each command code runs through an
// SSH library on a named host.
func sshLibEffects(code string) []string {
	if !sshLibModule.MatchString(code) {
		return nil
	}
	h := sshLibHost.FindStringSubmatch(code)
	if h == nil || h[1] == "" {
		return nil
	}
	host := h[1]
	var out []string
	for _, m := range sshLibRun.FindAllStringSubmatch(code, 4) {
		if dispatchSkip[m[1]] {
			continue // subprocess.run, os.system: this machine's (the shell readers')
		}
		cmd := strings.TrimSpace(m[2] + m[3])
		if cmd == "" {
			continue
		}
		out = append(out, argvCode([]string{"ssh", host, cmd}))
	}
	return out
}
