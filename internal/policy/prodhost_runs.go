package policy

import "iter"

// prodHostRuns yields the production host the line reaches through ssh or
// a remote shell (prodSSHHost) and each command the line runs there
// (runsOverSSH): ssh web-prod-01 'cd /srv/app && git pull' yields cd and
// git with web-prod-01. The rules about what a command does on a live
// machine (prod-host-change, prod-host-volumes, prod-host-glob-delete)
// walk the line through this one loop; a line that names no production
// host yields nothing.
func (e *Env) prodHostRuns() iter.Seq2[string, *Cmd] {
	return func(yield func(string, *Cmd) bool) {
		host := prodSSHHost(e)
		if host == "" {
			return
		}
		for i := range e.F.Commands {
			c := &e.F.Commands[i]
			if !runsOverSSH(c, sshOutermost) {
				continue
			}
			if !yield(host, c) {
				return
			}
		}
	}
}
