package policy

// A token or password file fed on standard input to a client that reads
// its credential there (gh auth login --with-token < .gh-token, docker
// login --password-stdin < .registry-pass) is used to log in, not printed:
// the < redirect is then no secret read. The same file piped
// through cat is consumedByPipe's.

// stdinCredFlags make a client read its credential from standard input.
var stdinCredFlags = []string{"--with-token", "--password-stdin", "--token-stdin", "--secret-stdin", "--passphrase-stdin"}

// fedToLogin: every redirect from p feeds a command that reads its
// credential on standard input.
func fedToLogin(e *Env, via, p string) bool {
	if via != "<" {
		return false
	}
	n := 0
	for _, r := range e.F.Redirects {
		if r.Op != "<" || r.Target != p {
			continue
		}
		n++
		ok := false
		for _, c := range e.F.Cmds(r.Cmd) {
			ok = ok || c.Has(stdinCredFlags...)
		}
		if !ok {
			return false
		}
	}
	return n > 0
}
