package policy

import (
	_ "embed"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/datatable"
)

// Secrets decrypted into a file or onto the screen: the tools and their
// options are policy/decrypters.txt. The secret store keeps them
// encrypted on purpose; a plain copy in the tree or in /tmp is one
// `git add .`, upload or backup away from leaking, and a printed one is
// in the conversation.

//go:embed decrypters.txt
var decryptersText string

// decrypter is one decrypters.txt line.
type decrypter struct {
	vault                            bool // a secrets tool (else a general cipher)
	words                            map[string]bool
	any                              bool // * : it does nothing but decrypt
	inPlace                          bool // the default is the input file
	inPlaceOpts, outOpts, stdoutOpts map[string]bool
}

var decrypters = sync.OnceValue(func() map[string]decrypter {
	m := map[string]decrypter{}
	set := func(s string) map[string]bool {
		out := map[string]bool{}
		if s != "-" && s != "*" {
			for _, w := range strings.Split(s, "|") {
				out[w] = true
			}
		}
		return out
	}
	datatable.Must("decrypters.txt", decryptersText, 7, func(l datatable.Line) error {
		f := l.Fields
		if f[1] != "vault" && f[1] != "cipher" || f[3] != "file" && f[3] != "stdout" {
			return l.Errorf("kind must be vault or cipher, default file or stdout")
		}
		m[f[0]] = decrypter{vault: f[1] == "vault", words: set(f[2]), any: f[2] == "*", inPlace: f[3] == "file",
			inPlaceOpts: set(f[4]), outOpts: set(f[5]), stdoutOpts: set(f[6])}
		return nil
	})
	return m
})

// secretWords in a file's name say a general cipher's file is a secret.
var secretWords = []string{"secret", "cred", "passw", "token", "vault", ".env", "apikey", "api_key", "api-key", "private", "tfvars", "master.key"}

// secretNamed: p is a secret file (secretFile) or named for one: its
// name or a directory it is in (~/secrets/aws.txt.gpg) says secret, or
// its name says key (aws-keys.txt.gpg, signing.key.age).
func secretNamed(p string) bool {
	l := strings.ToLower(p)
	b := path.Base(l)
	if b == ".env" || strings.HasPrefix(b, ".env.") || strings.HasPrefix(b, "env.") || strings.Contains(b, "key") || secretFile(p) {
		return true
	}
	for _, w := range secretWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// decryptsTo says where c puts the plain text of what it decrypts: a
// file ("" plus the file), "stdout", or "" when c decrypts nothing (or
// nothing named a secret). secret reports whether the decrypted thing
// is a secret by the tool's kind or the files' names.
func decryptsTo(e *Env, c *Cmd, d decrypter) (where string, file string) {
	decrypting := d.any
	for _, a := range c.Args {
		if d.words[a] {
			decrypting = true
			break
		}
	}
	if !decrypting || onlyHelp(c) {
		return "", ""
	}
	var inputs []string
	idents := c.OptValues(decryptKeyOpts)
	for _, p := range c.Pos {
		if !d.words[p] && !strings.HasPrefix(p, "-") && !slices.Contains(idents, p) {
			inputs = append(inputs, p) // not age -i KEY, gpg --passphrase-file F: the key, not what is decrypted
		}
	}
	outs := c.OptValues(d.outOpts)
	named := false
	for _, f := range append(append([]string(nil), inputs...), outs...) {
		if secretNamed(f) {
			named = true
		}
	}
	secret := d.vault || named
	var redirect string
	for _, r := range e.F.Redirects {
		if (r.Op == ">" || r.Op == ">>" || r.Op == ">|" || r.Op == "&>") && r.Cmd == c.Name && strings.HasPrefix(r.Target, "/") && !strings.HasPrefix(r.Target, "/dev/") {
			redirect = r.Target
			if secretNamed(r.Target) {
				secret = true
			}
		}
	}
	if !secret {
		if len(outs) == 0 && redirect == "" && !d.inPlace && !c.Has(keys(d.inPlaceOpts)...) && homeDataInput(e, c, inputs) {
			return "stdout", "" // gpg -d ~/Documents/letter.txt.gpg: a file the user keeps encrypted, printed
		}
		return "", ""
	}
	switch {
	case len(outs) > 0 && outs[0] != "-" && outs[0] != "/dev/stdout" && !strings.HasPrefix(outs[0], "/dev/"):
		if !named && !d.vault {
			return "", "" // age -d -o findings.md: a general cipher's file no name says is a credential; a vault's files are secrets whatever their names
		}
		return "file", outs[0]
	case len(outs) > 0 || c.Has(keys(d.stdoutOpts)...):
		// --output - or --stdout: printed
	case d.inPlace || c.Has(keys(d.inPlaceOpts)...):
		if len(inputs) == 0 {
			return "file", "the repository's encrypted files"
		}
		return "file", strings.Join(inputs, " ")
	}
	if redirect != "" {
		return "file", homeRel(redirect, e.F.Home)
	}
	return "stdout", ""
}

// homeDataInput: one of the files c decrypts is the user's own, under
// home outside the project (~/Documents/…): whatever its name, the user
// encrypted it to keep it private.
func homeDataInput(e *Env, c *Cmd, inputs []string) bool {
	if e.F.Home == "" {
		return false
	}
	for _, p := range inputs {
		if z := callfacts.ZoneOf(e.abs(c, p), e.F.Home, e.F.Project); z == callfacts.ZoneHomeData || z == callfacts.ZoneHomeConfig {
			return true
		}
	}
	return false
}

// decryptKeyOpts name the key or passphrase a decrypter uses (age -i,
// gpg --passphrase-file, openssl enc -kfile): not the file it decrypts.
var decryptKeyOpts = map[string]bool{"-i": true, "--identity": true, "-k": true, "-kfile": true, "-pass": true, "--passphrase-file": true,
	"--keyfile": true, "--key-file": true, "-K": true, "--secret-keyring": true}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// decryptOutRule: a secret decrypted into a file, or printed by a
// tool the print rule (core.secrets:exfil) does not know.
func decryptOutRule() Rule {
	names := []string{"java"}
	for n := range decrypters() {
		names = append(names, n)
	}
	return cmdRule("core.secrets:decrypt-out", Ask, "Secrets decrypted into plain text: in place over the encrypted file (ansible-vault decrypt, sops -d -i), to an output file or a redirect (gpg -d secrets.gpg > secrets.env), or printed into the conversation; piped into a program or captured they are judged where used; the tools are data (policy/decrypters.txt)", names,
		func(e *Env, c *Cmd) string {
			d, ok := decrypters()[c.Name]
			if !ok && c.Name == "java" {
				d, ok = javaDecrypter(c)
			}
			if !ok {
				return ""
			}
			where, file := decryptsTo(e, c, d)
			switch where {
			case "file":
				return c.Name + " writes decrypted secrets in plain text into " + file + ": " + c.String()
			case "stdout":
				i := cmdIndex(e, c)
				if c.Captured || i >= 0 && (consumedByPipe(e.F.Commands, i) || reducedDownstream(e, i)) {
					return ""
				}
				return c.Name + " prints decrypted secrets into the conversation: " + c.String()
			}
			return ""
		},
		[]string{"ansible-vault decrypt group_vars/prod/vault.yml", "sops -d -i secrets/prod.enc.yaml", "gpg -d secrets.gpg > secrets.env", "age -d -i key.txt -o .env prod.env.age", "ansible-vault decrypt vault.yml --output /tmp/v.yml", "ejson decrypt config/secrets.production.ejson", "gpg --decrypt credentials.json.gpg", "gpg --decrypt ~/Documents/letters/2019-03.txt.gpg"},
		[]string{"ansible-vault encrypt group_vars/prod/vault.yml", "ansible-vault decrypt --help", "gpg -d release.tar.gz.gpg > release.tar.gz", "gpg --decrypt backup.tar.gz.gpg | tar xz", "sops -d secrets.yaml | kubectl apply -f -", "export TOKEN=$(sops -d --extract '[\"token\"]' secrets.yaml)", "sops -e -i secrets.yaml", "age -e -r age1x secrets.env > secrets.env.age", "gpg -d notes.txt.gpg", "gpg -o /tmp/letter.txt -d ~/Documents/letter.txt.gpg", "gpg -d ~/Backups/photos.tar.gpg | tar tv"})
}

// cmdIndex is c's index in the call's commands, -1 if it is not one.
func cmdIndex(e *Env, c *Cmd) int {
	for i := range e.F.Commands {
		if &e.F.Commands[i] == c {
			return i
		}
	}
	return -1
}

// javaDecrypter finds the decrypters.txt line of a Java tool run by its
// jar or main class (java -cp secure-properties-tool.jar
// com.mulesoft.tools.SecurePropertiesTool string decrypt …, java -jar
// jasypt-cli.jar decrypt …): the table names it by the class's simple
// name or the jar's base name, in lower case.
func javaDecrypter(c *Cmd) (decrypter, bool) {
	for _, a := range c.Args {
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "-") {
			continue
		}
		for _, n := range []string{strings.TrimSuffix(path.Base(l), ".jar"), l[strings.LastIndex(l, ".")+1:]} {
			if d, ok := decrypters()[n]; ok && n != "" {
				return d, true
			}
		}
	}
	return decrypter{}, false
}
