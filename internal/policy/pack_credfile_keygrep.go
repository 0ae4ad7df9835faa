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
		if !oneKeyGrep(c) && !secretKeyDropped(c) {
			return false
		}
	}
	return len(cs) > 0
}

// catIntoKeyGrep: the file cat prints goes straight down a pipe into a
// search for one non-secret key (cat ~/.odbc.ini | grep -i server), which
// prints what grep -i server ~/.odbc.ini would: only that key's lines.
func catIntoKeyGrep(e *Env, via, p string) bool {
	return callfacts.AppSecretFile(p) != "" && catIntoKeyGrepAny(e, via, p)
}

// catIntoKeyGrepAny is catIntoKeyGrep for any file but an environment
// file or a key (whose every line is a secret).
func catIntoKeyGrepAny(e *Env, via, p string) bool {
	if via != "cat" || len(e.F.Cmds(senders...)) > 0 || envFile(path.Base(p)) || keyFile(p) {
		return false
	}
	n := 0
	for i := range e.F.Commands {
		if e.F.Commands[i].Name != "cat" {
			continue
		}
		if i+1 >= len(e.F.Commands) {
			return false
		}
		g := &e.F.Commands[i+1]
		if !keyGreps[g.Name] || len(g.Upstream) == 0 || g.Upstream[len(g.Upstream)-1] != "cat" || len(g.Pos) != 1 || !keyGrepPattern(g) {
			return false
		}
		n++
	}
	return n > 0
}

// oneKeyGrep: c's pattern is a single key named whole, not a secret's,
// and c prints only the lines that match it.
func oneKeyGrep(c *Cmd) bool {
	return len(c.Pos) >= 2 && keyGrepPattern(c)
}

// keyGrepPattern: c's first positional is a single key named whole, not
// a secret's, and c prints only the lines that match it (whatever it
// searches: the files after the key, or its input).
func keyGrepPattern(c *Cmd) bool {
	if len(c.Pos) < 1 || c.Has("-e", "--regexp", "-f", "--file", "-v", "--invert-match", "-r", "-R", "--recursive") {
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
	if strings.ContainsAny(k, "_.") {
		return true // WP_DEBUG, db.host: a key's whole name
	}
	return plainSettingWord(k) // maxmemory, StorageHost: one word of a daemon's settings (s23)
}

// plainSettingWord: k is one word of letters, long enough to be a
// setting's whole name (redis.conf's maxmemory, slurmdbd.conf's
// StorageHost), with no part that names or neighbours a credential: a
// search for "user", "StorageUser" or "dburl" can match the login's line.
func plainSettingWord(k string) bool {
	if len(k) < 6 {
		return false
	}
	for _, r := range k {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	lk := strings.ToLower(k)
	for _, w := range credNearWords {
		if strings.Contains(lk, w) {
			return false
		}
	}
	return true
}

// credNearWords: parts of a setting's name that hold or sit beside a
// credential.
var credNearWords = []string{"pass", "pw", "key", "secret", "token", "auth", "cred", "user", "login", "sign", "salt", "cert", "ssl", "tls", "priv",
	"hash", "cipher", "crypt", "psk", "pin", "session", "cookie", "dsn", "url", "uri", "conn", "account", "access", "identity", "master"}

// secretKeyDropped: c is an inverted search (grep -v -i StoragePass
// slurmdbd.conf, grep -v password app.ini) for a credential's key: it
// prints the settings with the secret's line taken out, which is what
// the user asked for (an environment file or a key is all secrets, and
// is never judged here).
func secretKeyDropped(c *Cmd) bool {
	if len(c.Pos) < 2 || !c.Has("-v", "--invert-match") || c.Has("-e", "--regexp", "-f", "--file", "-r", "-R", "--recursive", "-o", "--only-matching") {
		return false
	}
	for _, fl := range c.Flags {
		if !strings.HasPrefix(fl, "--") && strings.ContainsAny(fl, "ABCrRo") {
			return false
		}
	}
	k := strings.Trim(c.Pos[0], `"'`)
	if secretKeyPattern.MatchString(k) {
		return true
	}
	lk := strings.ToLower(k)
	for _, w := range []string{"pass", "secret", "token", "key", "cred", "auth"} {
		if strings.Contains(lk, w) {
			return true // StoragePass, AdminKey: a key named in one word
		}
	}
	return false
}
