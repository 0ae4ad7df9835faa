package policy

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// A file the line names only by a variable whose NAME says it holds a
// secret (s26): cat "$KEY_FILE", head -1 "$TOKEN_FILE", jq . "$SA_JSON",
// echo "$(<"$PASSFILE")". The value is not on the line, so no file
// table can read it, but people name such variables for what the file
// holds: a key, token, password, secret or credentials file (or a
// service account's JSON). Printed whole into the conversation it asks,
// like the file it stands for; the length, a checksum, a listing, a
// picked field, the name itself (echo "$KEY_FILE") and a file fed to a
// consumer (cat "$KEY_FILE" | ssh-add -) stay allowed, as do public
// halves (PUBKEY_FILE, "$KEY_FILE.pub") and names where "key" is a
// keyboard's or a map's (KEYMAP_FILE).

// varSecretWords: parts of a variable's name that say what it holds is
// a secret.
var varSecretWords = map[string]bool{"key": true, "token": true, "secret": true, "secrets": true, "cred": true, "creds": true, "credential": true,
	"credentials": true, "pass": true, "password": true, "passwd": true, "pw": true, "apikey": true, "privkey": true, "private": true,
	"keyfile": true, "tokenfile": true, "passfile": true, "pwfile": true, "passwordfile": true, "secretfile": true, "credfile": true, "credsfile": true,
	"keypath": true, "tokenpath": true, "pat": true, "auth": true, "htpasswd": true, "pgpass": true, "netrc": true, "kubeconfig": false}

// varFileWords: parts that say the variable holds a file's path.
var varFileWords = map[string]bool{"file": true, "path": true, "json": true, "pem": true, "loc": true, "location": true, "filename": true, "fn": true}

// varSecretNot: parts that make it a public half, a key map or a list
// of names, not a secret.
var varSecretNot = map[string]bool{"pub": true, "public": true, "pubkey": true, "keymap": true, "keyboard": true, "keys": true, "known": true, "hosts": true,
	"cert": true, "crt": true, "ca": true, "id": true, "hash": true, "sha": true, "sum": true, "checksum": true, "fingerprint": true, "example": true, "sample": true,
	"template": true, "test": true, "dummy": true, "fake": true, "mock": true, "list": true, "names": true, "log": true}

// varPathRef: a path that is only a variable (optionally with a
// directory before it): …/$KEY_FILE, ${SA_JSON}.
var varPathRef = re(`\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$`)

// secretFileVarName: the variable's name says it holds a secret file.
func secretFileVarName(name string) bool {
	parts := strings.Split(strings.ToLower(name), "_")
	secret, file, sa := false, false, false
	for _, w := range parts {
		if varSecretNot[w] {
			return false
		}
		secret = secret || varSecretWords[w]
		file = file || varFileWords[w]
		sa = sa || w == "sa" || w == "gsa" || w == "serviceaccount"
	}
	if sa && file {
		return true
	}
	if !secret {
		return false
	}
	if file {
		return true
	}
	// A name that is one file word (PASSFILE, KEYFILE), or a private
	// key's (SSH_KEY, PRIVATE_KEY, TLS_KEY): a path, printed whole.
	last := parts[len(parts)-1]
	if strings.HasSuffix(last, "file") || strings.HasSuffix(last, "path") {
		return true
	}
	for _, w := range parts {
		if w == "ssh" || w == "private" || w == "priv" || w == "tls" || w == "ssl" || w == "deploy" {
			return last == "key"
		}
	}
	return false
}

// capturedVarShown: the file read inside $(…) reaches an echo or printf
// (echo "$(<"$PASSFILE")", K=$(cat "$KEY_FILE"); echo "$K").
func capturedVarShown(e *Env, name string) bool {
	if !printerShows(e) {
		return false
	}
	text := e.F.Command
	q := regexp.QuoteMeta(name)
	if shows(text, `\$\(\s*(?:<|cat\b|head\b|tail\b)[^)]*\$\{?`+q+`\b`) {
		return true
	}
	for _, m := range assignSubst.FindAllStringSubmatch(text, -1) {
		if strings.Contains(m[2], name) && shows(text, `\$\{?`+regexp.QuoteMeta(m[1])+`(?:\}|[^A-Za-z0-9_:#}\[]|$)`) {
			return true
		}
	}
	return false
}

func secretVarPathRule() Rule {
	return Rule{ID: "core.secrets:print-secret-variable-file", Mode: Ask, Reads: true, Tools: []string{"Bash", "PowerShell"},
		On:   On(FactPath),
		Desc: "Printing a file named only by a variable whose name says it holds a secret (cat \"$KEY_FILE\", head -1 \"$TOKEN_FILE\", jq . \"$SA_JSON\", echo \"$(<\"$PASSFILE\")\") into the conversation; its length, checksum, a listing, a picked field, the variable's name itself, a public half (PUBKEY_FILE, $KEY_FILE.pub) and the file fed to a consumer (| ssh-add -) stay allowed",
		Match: func(e *Env) string {
			for _, p := range e.F.Paths {
				if p.Op != OpRead || !(wholePrinters[p.Via] || p.Via == "<") {
					continue
				}
				m := varPathRef.FindStringSubmatch(path.Base(p.Path))
				if m == nil || !secretFileVarName(m[1]) {
					continue
				}
				if p.Via == "<" {
					if capturedVarShown(e, m[1]) {
						return fmt.Sprintf("the line prints the file in $%s, whose name says it holds a secret, into the conversation", m[1])
					}
					continue
				}
				if !wholeQuery(e, p.Via) {
					continue
				}
				shown := printedRead(e, p.Via)
				if !shown {
					shown = capturedVarShown(e, m[1])
				} else if generatesKeys(e, p.Via) || usesSecretQuietly(e, p.Via) || reducedOutput(e, p.Via) || namesOnlyRead(e, p.Via) || tokenFileFedToAuth(e, p.Via) {
					shown = false
				}
				if shown {
					return fmt.Sprintf("%s prints the file in $%s, whose name says it holds a secret, into the conversation", p.Via, m[1])
				}
			}
			return ""
		},
		Catch: []string{`cat "$KEY_FILE"`, "head -1 $TOKEN_FILE", `jq . "$SA_JSON"`, `echo "$(<"$PASSFILE")"`, `less ${SECRET_PATH}`, `echo "token: $(cat "$TOKEN_PATH")"`},
		Allow: []string{`wc -c "$KEY_FILE"`, `cat "$KEYMAP_FILE"`, `cat "$KEY_FILE.pub"`, `echo "$KEY_FILE"`, `cat "$LOG_FILE"`, `jq -r .client_email "$SA_JSON"`, `cat "$KEY_FILE" | ssh-add -`}}
}
