package policy

import (
	"fmt"
	"path"
	"strings"
)

// A file whose name marks a credential, wherever it is (s23): in the
// project (deploy/prod.pem, k8s/db-secret.yaml, config/api.token), on
// a server reached by ssh (/etc/acars/arinc-credentials.conf), under
// /srv or /opt. The home-only reader (namedSecretFileRead) and the
// exact-name tables (credentialFiles, keyBase, envFile) miss a name
// that only holds such a word among its parts. Printed into the
// conversation by a reader that shows content (cat, less, head, tail,
// bat, jq, yq, sed, awk, xxd, base64, strings, grep without -l/-c/-q,
// an interpreter), it asks; listing, stat, checksums, counts and
// existence tests read nothing out. Not credentials: code and prose
// about them (token.go, secrets.md), examples, templates and test
// fixtures (secrets.sample.yml, testdata/, fixtures/), public halves
// and certificates (*.pub, *.crt, cert.pem, fullchain.pem), and
// ciphertext (*.enc, *.gpg, *.age, sealed-secret.yaml).

// credNameWords: a part of a file's name (split at . _ -) that says it
// holds a secret.
var credNameWords = map[string]bool{"secret": true, "secrets": true, "credential": true, "credentials": true, "creds": true, "cred": true,
	"password": true, "passwords": true, "passwd": true, "passphrase": true, "passcode": true, "passcodes": true, "token": true, "tokens": true, "apikey": true, "apikeys": true,
	"privkey": true, "privatekey": true, "htpasswd": true, "pgpass": true, "netrc": true, "keystore": true, "kubeconfig": true,
	"oauth": true, "oauth2": true, "oauthtoken": true} // oauth2-proxy.cfg, gmail-oauth.json: a client secret or a refresh token (s23)

// credNameNot: parts that make such a name an example, a template, a
// test's fake, a schema, a public half or ciphertext.
var credNameNot = map[string]bool{"example": true, "examples": true, "sample": true, "samples": true, "template": true, "templates": true, "tmpl": true, "tpl": true,
	"dist": true, "default": true, "defaults": true, "fake": true, "dummy": true, "mock": true, "mocks": true, "test": true, "tests": true, "testing": true, "stub": true,
	"fixture": true, "fixtures": true, "schema": true, "pub": true, "public": true, "crt": true, "cer": true, "csr": true, "enc": true, "encrypted": true, "gpg": true,
	"age": true, "sops": true, "sealed": true, "sealedsecret": true, "vault": true, "sig": true, "asc": true, "sha256": true, "md5": true, "sum": true, "lock": true,
	"placeholder": true, "reset": true, "policy": true, "rotation": true, "scanning": true, "scan": true, "baseline": true, "gitleaks": true, "detect": true}

// credNameExtNot: extensions of files that are no credential store a
// reader prints: code and prose, logs, images, archives.
var credNameExtNot = map[string]bool{".log": true, ".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".svg": true, ".pdf": true, ".zip": true,
	".gz": true, ".tgz": true, ".tar": true, ".xz": true, ".bz2": true, ".7z": true, ".ipynb": true, ".csv": true, ".tsv": true, ".mdx": true,
	".j2": true, ".jinja": true, ".erb": true, ".mustache": true, ".hbs": true, ".tf": true, ".hcl": true, ".proto": true, ".graphql": true}

// certNameWords: parts of a PEM file's name that say it holds a
// certificate or public parameters, not a key.
var certNameWords = map[string]bool{"chain": true, "crt": true, "bundle": true, "root": true, "intermediate": true, "fullchain": true, "dhparam": true, "dh": true,
	"pub": true, "public": true, "csr": true, "trust": true, "ca": true, "crl": true, "admin": true, "client": true, "server": true, "node": true}

// credDirsNot: folders of tests, fixtures and examples: a key there is
// a test's own.
var credDirsNot = []string{"/testdata/", "/test/", "/tests/", "/fixtures/", "/fixture/", "/__fixtures__/", "/spec/", "/specs/", "/mocks/", "/__mocks__/",
	"/examples/", "/example/", "/samples/", "/sample/", "/e2e/", "/docs/", "/doc/", "/node_modules/", "/vendor/", "/site-packages/"}

// contentPrinters print what they read (their own reading of the
// file, or part of it, into the conversation).
var contentPrinters = map[string]bool{"cat": true, "less": true, "more": true, "most": true, "head": true, "tail": true, "bat": true, "batcat": true, "tac": true,
	"nl": true, "view": true, "jq": true, "yq": true, "xxd": true, "od": true, "hexdump": true, "hd": true, "base64": true, "base32": true, "strings": true,
	"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "awk": true, "gawk": true, "sed": true, "cut": true, "sort": true, "column": true, "fold": true,
	"rev": true, "paste": true, "type": true, "get-content": true, "python": true, "python3": true, "node": true, "ruby": true, "perl": true, "php": true, "Read": true}

// fixtureDirs: folders that hold tests' fixtures and mocks.
var fixtureDirs = []string{"/testdata/", "/fixtures/", "/fixture/", "/__fixtures__/", "/__mocks__/", "/mocks/"}

// fixturePath: p lies in a tests' fixtures folder: a key or .env there
// is the test's fake, not the user's credential.
func fixturePath(p string) bool {
	if !strings.Contains(p, "/") {
		return false
	}
	for _, d := range fixtureDirs {
		if strings.Contains(p, d) {
			return true
		}
	}
	return false
}

// credNamedData says whether p's name marks a credential by its parts
// (not the exact names other tables hold).
func credNamedData(p string) bool {
	b := strings.ToLower(path.Base(p))
	ext := path.Ext(b)
	if codeExts[ext] || credNameExtNot[ext] || strings.HasPrefix(b, ".") && ext == b && !credNameWords[b[1:]] {
		return false
	}
	if b == "passwd" || b == "passwd-" || b == "group" {
		return false // /etc/passwd: accounts, no password (the shadow file is /etc's own rule)
	}
	if ext == "" && !strings.Contains(p, "/.") && !strings.HasPrefix(p, "/etc/") && !strings.HasPrefix(p, "/srv/") && !strings.HasPrefix(p, "/opt/") && !strings.HasPrefix(p, "/var/") {
		return false // gh auth token, vault kv get secret: a word, not a file (a path the reading made absolute); a file without an extension counts in a dot folder or a server's tree
	}
	lp := strings.ToLower(p)
	for _, d := range credDirsNot {
		if strings.Contains(lp, d) {
			return false
		}
	}
	parts := strings.FieldsFunc(b, func(r rune) bool { return r == '.' || r == '_' || r == '-' })
	hit := false
	for _, w := range parts {
		if credNameNot[w] || strings.HasPrefix(w, "example") || strings.HasPrefix(w, "sample") {
			return false
		}
		hit = hit || credNameWords[w]
	}
	if hit {
		return true
	}
	// a PEM file named for no certificate (deploy/prod.pem, aws-bastion.pem):
	// EC2's and most services' key pairs come as NAME.pem
	if ext == ".pem" {
		if strings.ContainsAny(b, "*?[") {
			return false // certs/*.pem: a glob, read by what the line does with each
		}
		d := strings.ToLower(path.Dir(p))
		if strings.Contains(d, "cert") || strings.Contains(d, "/pki/") || strings.Contains(d, "/issued") || strings.Contains(d, "/ca") {
			return false // certs/web01.pem, /etc/pki/issued/x.pem: a certificates folder
		}
		for _, x := range parts {
			if certNameWords[x] || strings.HasPrefix(x, "cert") || strings.HasSuffix(x, "cert") || strings.HasSuffix(x, "ca") && len(x) <= 6 {
				return false
			}
		}
		return true
	}
	return ext == ".token"
}

func secretNamedAnywhereRule() Rule {
	return Rule{ID: "core.secrets:print-secret-named-file", Mode: Ask, Reads: true, Tools: credentialReaders,
		On:   On(FactPath),
		Desc: "Printing a file whose name marks a credential wherever it is (deploy/prod.pem, k8s/db-secret.yaml, config/api.token, ssh host 'cat /etc/app/arinc-credentials.conf') into the conversation; listings, counts, checksums, code about secrets, examples, templates, test fixtures, public keys, certificates and ciphertext stay allowed",
		Match: func(e *Env) string {
			for _, p := range e.F.Paths {
				if p.Op != OpRead || !contentPrinters[p.Via] {
					continue
				}
				if !credNamedData(p.Path) || !printedRead(e, p.Via) {
					continue
				}
				if generatesKeys(e, p.Via) || usesSecretQuietly(e, p.Via) || reducedOutput(e, p.Via) || nonSecretColumns(e, p.Via, p.Path) || namesOnlyRead(e, p.Via) || columnsDownstream(e, p.Via, p.Path) || plainFieldSearch(e, p.Via, p.Path) || tokenFileFedToAuth(e, p.Via) || nonSecretKeyGrep(e, p.Via, p.Path) {
					continue
				}
				return fmt.Sprintf("%s prints %s, whose name marks a credential, into the conversation", p.Via, homeRel(p.Path, e.F.Home))
			}
			return ""
		},
		Catch: []string{"cat deploy/prod.pem", "yq . k8s/db-secret.yaml", "tac config/api.token", "ssh ops@gw-02 'cat /etc/acars/arinc-credentials.conf'", "head -5 /srv/app/db_password.txt", "jq . smtp-credentials.json"},
		Allow: []string{"cat certs/fullchain.pem", "cat src/token.go", "cat config/secrets.sample.yml", "cat testdata/api.token", "ls -l deploy/prod.pem", "sha256sum deploy/prod.pem", "wc -l config/api.token", "cat k8s/sealed-secret.yaml", "grep -c x db-secret.yaml", "cat docs/secrets.md"}}
}

// printedRead: a command named via prints what it reads into the
// conversation: its output is neither taken by a substitution ($(cat
// .token) in a header) nor piped into a program that consumes it
// (openssl x509 -noout, docker login --password-stdin).
func printedRead(e *Env, via string) bool {
	if via == "Read" {
		return true
	}
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name != via || c.Captured {
			continue
		}
		if !consumedByPipe(e.F.Commands, i) {
			return true
		}
	}
	return false
}
