package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A search of a settings file that also holds secrets (wp-config.php,
// settings.local.php, application-prod.properties) for one key that is no
// secret (grep -n WP_DEBUG wp-config.php, rg DB_NAME wp-config.php) prints
// that key's line, not the passwords beside it: a read, not a secret
// read. The key must be written out whole — a prefix (DB_), a short word
// (DB) or a regular expression may match the secret lines too — and the
// search must print only the matching lines: context (-A, -B, -C) and an
// inverted match (-v) print the rest of the file.

// keyGreps are the searches judged here.
var keyGreps = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true}

// nonSecretKeyGrep: every command named via searches p for one
// non-secret key, and nothing on the line sends.
func nonSecretKeyGrep(e *Env, via, p string) bool {
	if !keyGreps[via] || len(e.F.Cmds(senders...)) > 0 || envFile(path.Base(p)) || keyFile(p) || callfacts.AppSecretFile(p) == "" {
		return false // an environment file or a key is secrets line by line: grep API_URL .env still reads one
	}
	cs := e.F.Cmds(via)
	for _, c := range cs {
		if !oneKeyGrep(c) {
			return false
		}
	}
	return len(cs) > 0
}

// oneKeyGrep: c's pattern is a single key named whole, not a secret's,
// and c prints only the lines that match it.
func oneKeyGrep(c *Cmd) bool {
	if len(c.Pos) < 2 || c.Has("-e", "--regexp", "-f", "--file", "-v", "--invert-match", "-r", "-R", "--recursive") {
		return false
	}
	for _, fl := range c.Flags {
		if strings.HasPrefix(fl, "--") {
			if strings.HasPrefix(fl, "--context") || strings.HasPrefix(fl, "--after") || strings.HasPrefix(fl, "--before") || strings.HasPrefix(fl, "--passthru") {
				return false
			}
			continue
		}
		if strings.ContainsAny(fl, "ABCvrR") {
			return false // -A3, -C 2, -rn: context, inverted, recursive
		}
	}
	k := strings.Trim(c.Pos[0], `"'`)
	if w, ok := strings.CutPrefix(k, "^"); ok && len(w) >= 5 && !strings.ContainsAny(w, `|*+?[]{}\$._-`) && !secretKeyPattern.MatchString(w) {
		return true // ^registry, ^external_url: a setting's lines by its name's start
	}
	if len(k) < 5 || strings.ContainsAny(k, `|*+?[]{}\$`) || secretKeyPattern.MatchString(k) {
		return false
	}
	if last := k[len(k)-1]; last == '_' || last == '.' || last == '-' {
		return false // DB_: a prefix of every database key, the password's too
	}
	return strings.ContainsAny(k, "_.") // WP_DEBUG, db.host: a key's whole name
}
