package callfacts

import "strings"

// remoteListReadsScript: ssh's remote command is a short list whose
// last command is a shell or an interpreter reading its input, after
// steps that only set up where and how it runs (ssh host 'cd /var/www/app
// && bash -s' < fix.sh, 'export RAILS_ENV=production; sudo bash -s'):
// what ssh is fed is the script, run there in that directory, as for a
// bare 'bash -s' (remoteReadsScript).
func remoteListReadsScript(payload string) bool {
	if !strings.ContainsAny(payload, ";&") || strings.ContainsAny(payload, "|<>`$(") {
		return false
	}
	segs := strings.FieldsFunc(payload, func(r rune) bool { return r == ';' || r == '&' })
	if len(segs) < 2 {
		return false
	}
	for _, s := range segs[:len(segs)-1] {
		f := strings.Fields(s)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "cd", "pushd", "export", "set", "umask", "unset", "ulimit", "true", "source", ".":
		default:
			if !strings.Contains(f[0], "=") {
				return false // a command of its own, which may read the input first
			}
		}
	}
	last := strings.TrimSpace(segs[len(segs)-1])
	return last != "" && remoteReadsScript(last)
}
