package policy

import "strings"

// A CLI's option that reads one setting out (--get, --show, --print,
// --export) named with a setting that is a credential
// (security.private_key, wifi.psk, admin_password, api.token) prints
// that credential, whatever the program: a radio's or device's config
// CLI (meshtastic --get security.private_key), an app's settings tool.
// A setting that names where a key is kept (ssl.private_key_file,
// token_path) or only a public half prints no secret; a captured or
// piped-away output is judged where it goes (exfilReasonOnce).

// getSettingOpts: options whose value is the setting read out.
var getSettingOpts = map[string]bool{"--get": true, "--show": true, "--print": true, "--export": true, "--get-value": true, "--read": true}

// secretSettingParts: words of a setting's name that make it a
// credential.
var secretSettingParts = []string{"private_key", "privatekey", "private-key", "secret", "password", "passwd", "passphrase", "token", "psk", "api_key",
	"apikey", "api-key", "mnemonic", "seed", "admin_key", "adminkey", "pin"}

// secretSettingNot: words that make it a place, a flag or a public half.
var secretSettingNot = []string{"file", "path", "dir", "public", "pub", "enabled", "length", "expir", "ttl", "policy", "type", "_id", "url", "name"}

// getSecretOption says which credential c reads out with such an
// option, or "".
func getSecretOption(c *Cmd) string {
	for i, a := range c.Args {
		if !strings.HasPrefix(a, "--") {
			continue
		}
		k, v, eq := strings.Cut(a, "=")
		if !getSettingOpts[k] {
			continue
		}
		if !eq {
			if i+1 >= len(c.Args) {
				continue
			}
			v = c.Args[i+1]
		}
		if secretSetting(v) {
			return "the setting " + v + " (a credential)"
		}
	}
	return ""
}

// secretSetting: name is a setting that holds a credential.
func secretSetting(name string) bool {
	if name == "" || strings.HasPrefix(name, "-") || strings.Contains(name, "/") {
		return false
	}
	n := strings.ToLower(name)
	for _, w := range secretSettingNot {
		if strings.Contains(n, w) {
			return false
		}
	}
	for _, w := range secretSettingParts {
		if w == "pin" || w == "seed" {
			// short words: the last part only (security.pin, wallet.seed), not pinned, seeding or seed_nodes
			ps := strings.FieldsFunc(n, func(r rune) bool { return r == '.' || r == '_' || r == '-' || r == ':' })
			if len(ps) > 0 && ps[len(ps)-1] == w {
				return true
			}
			continue
		}
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
