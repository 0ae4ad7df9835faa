package policy

import "strings"

// passwordFileOpts are the options through which a client is handed the
// file its bind or login password is in (ldapadd -y, --password-file,
// --passfile): it reads the password to log in and prints none of it.
var passwordFileOpts = map[string]bool{"--password-file": true, "--passwordfile": true, "--password_file": true, "--passfile": true,
	"--pass-file": true, "--pwfile": true, "--pw-file": true, "--passwd-file": true, "--secret-file": true, "--auth-file": true}

// localPasswordFile: the secret file at p is only the password file a
// client of a server on this machine logs in with — `ldapadd -x -H
// ldap://localhost:1389 -y dev/ldap-admin.pw`, a queue's, a search
// engine's or a mail server's admin client with --password-file, every
// endpoint this machine (as local databases are judged). The dev server's
// own password, kept in the project and used to log in to it, is no
// leak; a password file handed
// to a client of another host, or read by a viewer, still asks.
func localPasswordFile(e *Env, via, p string) bool {
	if secretViewers[via] || privilegeWrappers[via] {
		return false
	}
	found := false
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name != via {
			continue
		}
		fed, vals := false, 0
		for j, a := range c.Args {
			k, v, eq := strings.Cut(a, "=")
			isOpt := passwordFileOpts[k] || k == "-y" && strings.HasPrefix(c.Name, "ldap")
			switch {
			case isOpt && eq && strings.HasPrefix(k, "--"):
			case isOpt && !eq && j+1 < len(c.Args):
				v = c.Args[j+1]
			default:
				continue
			}
			if e.abs(c, v) == p {
				if !inProject(e, c, v) {
					return false // the user's own password file, not the project's dev one
				}
				fed = true
				vals++
			}
		}
		n := 0
		for _, a := range c.Pos {
			if e.abs(c, a) == p {
				n++
			}
		}
		if n > vals {
			return false // also an operand: read as data
		}
		if !fed {
			continue
		}
		if !e.localOnly(i) {
			return false
		}
		found = true
	}
	return found
}
