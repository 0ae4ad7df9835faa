package callfacts

import "strings"

// An scp or rsync operand written [user@]host:path (web1:/var/www/,
// backup@nas:data/, rsync's host::module/path) names a file on another
// host: it is no path of this machine, so it is neither recorded as one
// (./web1:/var/www would read as a project file) nor judged in this
// machine's zones. The policy reads it in the other host's zones
// (policy/remote_target_zones.go).

// RemoteOperand splits an scp/rsync operand that names another host's
// file into its login (user@host, as written) and path; ok is false for
// a local path or a URL.
func RemoteOperand(op string) (login, p string, ok bool) {
	if _, _, ok := remoteHost(op); !ok {
		return "", "", false
	}
	if strings.HasPrefix(op, "[") { // [2001:db8::1]:/tmp
		if i := strings.Index(op, "]:"); i > 0 {
			return op[:i+1], op[i+2:], true
		}
	}
	login, p, _ = strings.Cut(op, ":")
	p = strings.TrimPrefix(p, ":") // rsync host::module/path
	return login, p, true
}

// withoutRemoteOperands drops the operands that name another host's
// files, keeping pos's order.
func withoutRemoteOperands(pos []string) []string {
	for _, p := range pos {
		if _, _, ok := RemoteOperand(p); ok {
			kept := make([]string, 0, len(pos))
			for _, q := range pos {
				if _, _, ok := RemoteOperand(q); !ok {
					kept = append(kept, q)
				}
			}
			return kept
		}
	}
	return pos
}
