package callfacts

import "strings"

// An application's config getter asked for one key prints that key's
// value: occ config:system:get dbpassword, wp option get mailserver_pass,
// bench get-config smtppass, app settings get adminPassword. The getter
// is a read verb joined to (or right after) a config noun; the key is a
// secret when its name, its separators dropped, holds a secret's stem
// (dbpassword, passwordsalt, securitySalt, smtppwd, mailserver_pass) —
// words segmentCredWord cannot split. A key that names a setting about
// the secret (password_policy, token_expiry, max_tokens, the file or URL
// where it is kept) is no secret.

// configNouns say a getter reads configuration.
var configNouns = map[string]bool{"config": true, "configuration": true, "configure": true, "conf": true, "cfg": true, "option": true, "options": true,
	"setting": true, "settings": true, "env": true, "variable": true, "variables": true, "var": true, "vars": true, "param": true, "params": true,
	"parameter": true, "parameters": true, "property": true, "properties": true, "pref": true, "prefs": true, "preference": true, "preferences": true}

// configGetVerbs read one key.
var configGetVerbs = map[string]bool{"get": true, "show": true, "read": true, "pluck": true, "cget": true, "print": true}

// secretKeyStems: a key whose joined name holds one is a secret's.
var secretKeyStems = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "privatekey", "accesskey", "authkey",
	"securitysalt", "passwordsalt", "hashsalt", "authsalt", "noncesalt"}

// secretKeySuffixes: a joined key that ends in one (dbpass, smtppwd).
var secretKeySuffixes = []string{"pass", "pwd", "pw"}

// settingWords name a setting about a secret, not the secret.
var settingWords = map[string]bool{"enforce": true, "enforced": true, "policy": true, "length": true, "min": true, "max": true, "expire": true,
	"expiry": true, "expiration": true, "expires": true, "ttl": true, "lifetime": true, "timeout": true, "reset": true, "required": true,
	"require": true, "enabled": true, "enable": true, "disabled": true, "disable": true, "strength": true, "complexity": true, "url": true,
	"uri": true, "endpoint": true, "file": true, "path": true, "dir": true, "type": true, "mode": true, "hint": true, "label": true,
	"format": true, "algorithm": true, "algo": true, "rounds": true, "cost": true, "name": true, "user": true, "username": true, "count": true,
	"limit": true, "validity": true, "rotation": true, "history": true, "method": true, "backend": true, "provider": true, "header": true,
	"field": true, "prompt": true, "tokens": true, "id": true, "store": true, "storage": true, "encoding": true, "size": true}

// configGetSecretKey: among c's first len(low) positional words (low:
// those words lowered, as printsCredentialByWords read them) a config
// getter is followed by a key that names a secret. The key is read as
// written: its camelCase splits its words.
func configGetSecretKey(c *Cmd, low []string) bool {
	pos := c.Pos[:len(low)]
	for i := range low {
		if !configGetter(low[i], i, low) {
			continue
		}
		for _, k := range pos[i+1 : min(len(pos), i+4)] {
			if secretKeyName(k) {
				return true
			}
		}
		return false
	}
	return false
}

// configGetter: w (the i-th word of low, the words lowered) is a getter: config:system:get,
// config-get, cget, or get/show right after a config noun (option get).
func configGetter(w string, i int, low []string) bool {
	// the parts are read in place, not split into a slice: this runs for
	// every word of every command of a line (printsSecret), and most
	// words have one part
	n, noun, verb := 0, false, false
	if strings.IndexFunc(w, configSep) >= 0 {
		start := -1
		for j := 0; j <= len(w); j++ {
			if j == len(w) || configSep(rune(w[j])) {
				if start >= 0 {
					p := w[start:j]
					n++
					noun = noun || configNouns[p]
					verb = verb || configGetVerbs[p]
					start = -1
				}
			} else if start < 0 {
				start = j
			}
		}
	} else if w != "" {
		n = 1
	}
	if n == 1 {
		if w == "cget" {
			return true
		}
		return configGetVerbs[w] && i > 0 && configNouns[low[i-1]]
	}
	return verb && (noun || i > 0 && configNouns[low[i-1]]) // config get-value KEY
}

// configSep separates the parts of a getter word (config:system:get,
// config-get); all are ASCII, so a byte of a multi-byte rune is none.
func configSep(r rune) bool { return r == ':' || r == '-' || r == '_' || r == '.' || r == '/' }

// secretKeyName: a key whose name holds a secret's stem and no word of a
// setting about it.
func secretKeyName(k string) bool {
	if k == "" || k[0] == '-' || strings.ContainsAny(k, "$ =") {
		return false
	}
	// camelCase split too: adminPassword, securitySalt
	var words []string
	start := 0
	for j := 1; j <= len(k); j++ {
		if j == len(k) || k[j] == '_' || k[j] == '-' || k[j] == '.' || k[j] == ':' || k[j] == '/' || k[j] >= 'A' && k[j] <= 'Z' && k[j-1] >= 'a' && k[j-1] <= 'z' {
			if w := strings.Trim(strings.ToLower(k[start:j]), "_-.:/"); w != "" {
				words = append(words, w)
			}
			start = j
		}
	}
	for _, w := range words {
		if settingWords[w] {
			return false
		}
	}
	joined := strings.Join(words, "")
	for _, s := range secretKeyStems {
		if strings.Contains(joined, s) {
			return true
		}
	}
	for _, s := range secretKeySuffixes {
		if strings.HasSuffix(joined, s) && len(joined) > len(s)+1 && !strings.HasSuffix(joined, "bypass") && !strings.HasSuffix(joined, "compass") {
			return true
		}
	}
	return false
}
