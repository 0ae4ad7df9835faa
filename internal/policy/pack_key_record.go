package policy

import (
	"os"
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Key material of record replaced by a key generator: openssl genrsa
// -out ~/keys/fw_signing_prod.pem writes a new key over the one every
// device or partner trusts. core.secrets:destroy-key spares a key the
// line makes (openssl req -keyout certs/server.key): this is the other
// half, a generator aimed at a key that already exists or whose name
// says it is the one in use (prod, release, signing).

// keyGenOutputs are the options through which key generators name the
// key file they write.
var keyGenOutputs = map[string][]string{
	"openssl":    {"-out", "-keyout"},
	"ssh-keygen": {"-f"},
	"certtool":   {"--outfile"},
	"step":       {},
	"keytool":    {"-keystore"},
}

// keyOfRecordWords in a key's name say it is the key in use, not a new
// one: a release or production signing key.
var keyOfRecordWords = map[string]bool{"prod": true, "production": true, "release": true, "signing": true, "live": true, "master": true, "root": true, "upload": true}

// keyOfRecord: p names key material that is there now, or whose name
// says it is the key in use.
func keyOfRecord(p string) bool {
	if _, err := os.Lstat(p); err == nil {
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(path.Base(p)), func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if keyOfRecordWords[w] {
			return true
		}
	}
	return false
}

// keyGenerated is the key file c (a key generator) writes, "" for none.
func keyGenerated(e *Env, c *Cmd) string {
	if c.Name == "openssl" {
		switch sub(c) {
		case "genrsa", "genpkey", "req", "ecparam", "dsaparam":
		default:
			return "" // openssl x509 -out, dgst -out: a certificate or a signature
		}
		if sub(c) == "req" && !c.Has("-newkey", "-keyout") {
			return "" // a request from a key that exists
		}
	}
	if c.Name == "ssh-keygen" && c.Has("-y", "-l", "-F", "-R", "-H", "-Y") {
		return "" // prints a public key or a fingerprint, signs, edits known_hosts
	}
	for _, o := range keyGenOutputs[c.Name] {
		v := optJoined(c, o)
		if v == "" || strings.HasPrefix(v, "-") {
			continue
		}
		p := e.abs(c, v)
		if c.Name == "openssl" && o == "-out" && sub(c) == "req" {
			continue // the request itself
		}
		if !keyMaterial(p) && callfacts.AppSecretFile(p) == "" && !(c.Name == "ssh-keygen" && strings.HasPrefix(path.Base(p), "id_")) {
			continue
		}
		switch callfacts.ZoneOf(p, e.F.Home, e.F.Project) {
		case callfacts.ZoneTemp, callfacts.ZoneCache, callfacts.ZoneUnknown, callfacts.ZoneUnknownSub:
			continue
		case callfacts.ZoneProject, callfacts.ZoneRepo:
			if _, err := os.Lstat(p); err != nil {
				continue // a new key in the project: the developer's own
			}
		}
		if throwawayKey(p, e.F.Project) || !keyOfRecord(p) {
			continue
		}
		return v
	}
	return ""
}

// opensToOthers: a chmod mode that gives everyone read access (644, 604,
// o+r, a+r, +r). The group's read is how a service's group reads its key
// or its config (640 with ssl-cert, www-data): not flagged.
func opensToOthers(mode string) bool {
	if mode == "" {
		return false
	}
	if strings.Trim(mode, "01234567") == "" {
		d := strings.TrimLeft(mode, "0")
		return d != "" && strings.ContainsAny(d[len(d)-1:], "4567")
	}
	for _, cl := range strings.Split(mode, ",") {
		i := strings.IndexAny(cl, "+=")
		if i < 0 {
			continue
		}
		who, perms := cl[:i], cl[i+1:]
		if strings.ContainsRune(perms, 'r') && (who == "" || strings.ContainsAny(who, "oa")) {
			return true
		}
	}
	return false
}

// keyRecordRules: a private key made readable by everyone, and key
// material written over by a key generator (core.secrets:key-opened,
// core.secrets:key-regenerate).
func keyRecordRules() []Rule {
	names := make([]string, 0, len(keyGenOutputs))
	for n := range keyGenOutputs {
		names = append(names, n)
	}
	return []Rule{
		cmdRule("core.secrets:key-opened", Deny, "A private key or a credentials file made readable by everyone (chmod 644 /srv/custody/keys/signing.key, chmod o+r deploy/server.key, chmod a+r ~/.pgpass): every account on the machine, and every service it runs, can copy it; a key named for tests or in temp stays allowed", []string{"chmod"},
			func(e *Env, c *Cmd) string {
				if len(c.Pos) < 2 || !opensToOthers(c.Pos[0]) {
					return ""
				}
				for _, a := range c.Pos[1:] {
					p := e.abs(c, a)
					if !keyMaterial(p) && callfacts.AppSecretFile(p) == "" && !secretPath(p, e.F.Home) {
						continue
					}
					if throwawayKey(p, e.F.Project) || callfacts.ZoneOf(p, e.F.Home, e.F.Project) == callfacts.ZoneTemp {
						continue
					}
					return "chmod " + c.Pos[0] + " lets others read " + a + ", key material or credentials"
				}
				return ""
			},
			[]string{"sudo chmod 644 /srv/custody/keys/signing.key", "chmod o+r deploy/server.key", "chmod a+r ~/.pgpass", "chmod 664 /etc/restic/office.pass", "chmod -R 755 ~/keys/fw_signing_prod.pem"},
			[]string{"chmod 600 /srv/custody/keys/signing.key", "chmod 644 certs/server.crt", "chmod 400 ~/.ssh/id_ed25519", "chmod 644 /tmp/test.key", "chmod +x scripts/deploy.sh", "chmod go-r deploy/server.key", "chmod 640 wp-config.php", "chmod g+r /etc/ssl/private/site.key"}),
		cmdRule("core.secrets:key-regenerate", Deny, "A key generator writing over key material that exists or whose name says it is the key in use (openssl genrsa -out ~/keys/fw_signing_prod.pem, keytool -genkeypair -keystore release.jks): the key devices and partners trust is replaced, the old one lost; a new key in the project, in temp or named for tests stays allowed", names,
			func(e *Env, c *Cmd) string {
				if k := keyGenerated(e, c); k != "" {
					return c.Name + " writes a new key over " + k + ", key material in use: the old key is lost"
				}
				return ""
			},
			[]string{"openssl genrsa -out ~/keys/fw_signing_prod.pem 4096", "openssl genpkey -algorithm ed25519 -out /etc/ssl/private/release-signing.key", "openssl req -x509 -newkey rsa:4096 -nodes -keyout ~/keys/release-signing.key -out release.crt -subj /CN=x",
				"keytool -genkeypair -alias upload -keystore ~/keystores/upload.jks -storepass x", "openssl req -newkey rsa:2048 -nodes -keyout /etc/nginx/ssl/prod.key -out /tmp/prod.csr -subj /CN=x"},
			[]string{"openssl genrsa -out certs/server.key 2048", "openssl genrsa -out /tmp/test.key 2048", "openssl rsa -in ~/keys/fw_signing_prod.pem -pubout -out release/fw_pub.pem", "ssh-keygen -y -f ~/.ssh/id_ed25519",
				"openssl req -new -key ~/keys/prod.key -out /tmp/prod.csr -subj /CN=x", "openssl genrsa -out ~/keys/dev-signing.pem 2048", "openssl x509 -req -in a.csr -signkey k.key -out release.crt"}),
	}
}
