package policy

import (
	"path"
	"strings"
)

// A search of a credentials file for a field that holds no secret: the
// line it prints is a name, not a key. grep -n keyfile ~/.dbt/profiles.yml
// prints where the key file lies, grep region ~/.aws/config the region,
// grep -E '^(host|user)' ~/.my.cnf the server and account. The field is
// one of a small vocabulary (where and as whom a tool connects) or a
// name ending in file, path, dir or name (accountname, username); any word of a secret (key, token,
// password, secret, auth, private…) keeps it judged. It holds for files
// of one key and value a line: a field-separated file (.pgpass, .netrc,
// .git-credentials) or JSON (one line may hold everything) prints the
// secret beside the field.

// plainFields name where and as whom a tool connects.
var plainFields = map[string]bool{"host": true, "hostname": true, "port": true, "user": true, "username": true, "login": true,
	"dbname": true, "database": true, "schema": true, "dataset": true, "project": true, "account": true, "warehouse": true,
	"role": true, "region": true, "profile": true, "method": true, "type": true, "threads": true, "target": true,
	"location": true, "endpoint": true, "server": true, "cluster": true, "catalog": true, "http_path": true, "output": true,
	"tenant": true, "namespace": true, "workspace": true, "org": true, "organization": true, "zone": true}

// wholeLineFiles print every field of an entry on one line.
var wholeLineFiles = map[string]bool{".pgpass": true, "pgpass.conf": true, ".netrc": true, "_netrc": true, ".git-credentials": true,
	".htpasswd": true, "htpasswd": true}

// plainFieldSearch: every command via that reads p is a search (grep,
// rg) for plain fields only, without context lines or inversion, and
// nothing on the line sends.
func plainFieldSearch(e *Env, via, p string) bool {
	b := path.Base(p)
	if via != "grep" && via != "egrep" && via != "rg" || wholeLineFiles[b] || strings.HasSuffix(b, ".json") || len(e.F.Cmds(senders...)) > 0 {
		return false
	}
	n := 0
	for _, c := range e.F.Cmds(via) {
		if len(c.Pos) == 0 || c.Has("-A", "-B", "-C", "--context", "--after-context", "--before-context", "-v", "--invert-match", "-f", "--file") {
			return false
		}
		var pats []string
		for i, a := range c.Args {
			if (a == "-e" || a == "--regexp") && i+1 < len(c.Args) {
				pats = append(pats, c.Args[i+1])
			}
		}
		if len(pats) == 0 {
			pats = c.Pos[:1]
		}
		for _, pat := range pats {
			if !plainFieldPattern(pat) {
				return false
			}
		}
		n++
	}
	return n > 0
}

// plainFieldPattern: each alternative of pat (a|b, (a|b), ^a:) is a
// plain field.
func plainFieldPattern(pat string) bool {
	if secretField.MatchString(pat) {
		return false
	}
	pat = fieldPatternStrip.Replace(pat)
	n := 0
	for _, f := range strings.Split(pat, "|") {
		f = strings.ToLower(f)
		if f == "" {
			continue
		}
		for _, r := range f {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
				return false
			}
		}
		if !plainFields[f] && !strings.HasSuffix(f, "file") && !strings.HasSuffix(f, "path") && !strings.HasSuffix(f, "dir") && !strings.HasSuffix(f, "name") {
			return false
		}
		n++
	}
	return n > 0
}

// fieldPatternStrip is built once: a Replacer builds its tables on first use.
var fieldPatternStrip = strings.NewReplacer(`\|`, "|", "(", "", ")", "", "^", "", "$", "", `\s`, "", "*", "", ":", "", "=", "", " ", "")
