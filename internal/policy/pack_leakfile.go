package policy

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
)

// The two-step leak: the environment or a secret file is written to a
// file first (`env > f`, `cat ~/.aws/credentials > /tmp/c`, `tar czf
// k.tgz ~/.ssh`), and a later command of the line uploads that file
// (`curl -F f=@f`, `curl -T f`, `wget --post-file=f`, `nc host < f`,
// `scp f host:`). The pipe form (`env | curl -d @- …`) is judged by the
// exfil rule directly; this finds the file in between.

// dumpsEnv reports whether c prints the environment's values (env,
// printenv, set, export -p, declare -x with nothing else to do):
// `printenv HOME` prints one harmless value, `set -e` prints nothing.
func dumpsEnv(c *Cmd) bool {
	switch c.Name {
	case "env":
		return len(c.Pos) == 0
	case "printenv":
		if len(c.Pos) == 0 {
			return true
		}
		for _, p := range c.Pos {
			if secretName(p) {
				return true
			}
		}
	case "set":
		return len(c.Args) == 0
	case "export", "declare", "typeset":
		return len(c.Pos) == 0 && (len(c.Args) == 0 || c.Has("-p", "-x"))
	}
	return false
}

// secretPath reports whether p holds credentials: an environment or key
// file, or anything under ~/.ssh (public keys, config and known_hosts
// aside), ~/.aws, ~/.gnupg, the cloud CLIs' credential directories.
func secretPath(p, home string) bool {
	if secretFile(p) {
		return true
	}
	if home == "" {
		return false
	}
	if callfacts.IsCredential(p, home) && !credentialNotSecret(p) {
		return true // a tool's token file (~/.cache/huggingface/token, ~/.kaggle/kaggle.json)
	}
	if under(p, path.Join(home, ".ssh")) {
		b := path.Base(p)
		return !strings.HasSuffix(b, ".pub") && b != "config" && b != "known_hosts" && b != "authorized_keys"
	}
	for _, d := range []string{".aws", ".gnupg", ".config/gcloud", ".azure", ".kube/config", ".docker/config.json", ".config/gh/hosts.yml", ".netrc", ".git-credentials"} {
		if under(p, path.Join(home, d)) {
			return true
		}
	}
	return false
}

// secretSource says which secret c emits, "" for none: the environment,
// a credential a CLI prints, or a secret file it reads.
func secretSource(e *Env, c *Cmd) string {
	if dumpsEnv(c) {
		return "the environment (" + c.Name + ")"
	}
	if s := e.printsSecret(c); s != "" {
		return s
	}
	if c.Name == "openssl" && opensslConnects(c) {
		return "" // openssl s_client -key KEY: the client's key, used for the handshake; not packed into a file
	}
	if passThrough[c.Name] || archivers[c.Name] || c.Name == "cp" {
		for _, a := range c.Pos {
			if p := e.abs(c, a); secretPath(p, e.F.Home) {
				return homeRel(p, e.F.Home)
			}
		}
	}
	return ""
}

// archivers pack what they read into the file they write.
var archivers = map[string]bool{"tar": true, "zip": true, "7z": true, "gzip": true, "bzip2": true, "xz": true, "zstd": true, "gpg": true, "openssl": true}

// secretFiles maps each file the line fills with a secret to that secret:
// a redirect of a command (or its pipeline) that emits one, tee fed by
// one, cp or an archiver copying a secret path.
func secretFiles(e *Env) map[string]string {
	var out map[string]string
	add := func(p, what string) {
		if out == nil {
			out = map[string]string{}
		}
		out[p] = what
	}
	for _, r := range e.F.Redirects {
		if (r.Cmd == "export" || r.Cmd == "declare" || r.Cmd == "typeset") && strings.HasPrefix(r.Op, ">") {
			add(r.Target, "the environment ("+r.Cmd+")") // only a declDumps clause names itself
		}
	}
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if !mayFillFile(e, c) {
			continue // nothing it emits lands in a file: its secret (the costly read) is not asked
		}
		what := secretSource(e, c)
		if what == "" {
			for _, u := range c.Upstream {
				if s := upstreamSecret(e, i, u); s != "" {
					what = s
				}
			}
		}
		if what == "" {
			continue
		}
		for _, r := range e.F.Redirects {
			if (r.Op == ">" || r.Op == ">>" || r.Op == ">|" || r.Op == "&>" || r.Op == "&>>") && (r.Cmd == c.Name || r.Cmd == "") && strings.HasPrefix(r.Target, "/") {
				add(r.Target, what)
			}
		}
		if c.Name == "tee" || c.Name == "cp" || archivers[c.Name] {
			for _, a := range c.Pos {
				if p := e.abs(c, a); !secretPath(p, e.F.Home) {
					add(p, what)
				}
			}
		}
		if f := outputOptFile(c); f != "" {
			add(e.abs(c, f), what) // deck gateway dump --with-consumers -o /tmp/x.yaml: the dump is the file
		}
	}
	return out
}

// outputOptFile is the file c writes its output to by an option (-o FILE,
// --output FILE, --output-file=FILE), "" for none or standard output.
func outputOptFile(c *Cmd) string {
	if switchO[c.Name] {
		return "" // gopass show -o websites/amazon.de: -o prints the password only; the operand is an entry's name
	}
	for i, a := range c.Args {
		k, v, eq := strings.Cut(a, "=")
		switch k {
		case "-o", "--output", "--output-file", "--out", "--outfile", "--out-file":
		default:
			continue
		}
		if !eq {
			if i+1 >= len(c.Args) {
				return ""
			}
			v = c.Args[i+1]
		}
		if v == "-" || v == "" || strings.HasPrefix(v, "-") || strings.ContainsAny(v, "={}$") ||
			!strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "./") && !strings.HasPrefix(v, "../") && !strings.HasPrefix(v, "~/") && path.Ext(v) == "" {
			return "" // -o json, -o jsonpath={.data.x}, -o -: a format or standard output; gopass show -o prod/db: a switch before a name
		}
		return v
	}
	return ""
}

// switchO: programs whose -o is a switch, not an output file.
var switchO = map[string]bool{"gopass": true, "pass": true}

// mayFillFile: c's output can land in a file secretFiles maps: a redirect
// of it (or of the line) to an absolute path, or c copies (tee, cp, an
// archiver). Most commands do neither; asking first spares secretSource,
// which walks the secret-printer tables, on every command of every line
// with a sender.
func mayFillFile(e *Env, c *Cmd) bool {
	if c.Name == "tee" || c.Name == "cp" || archivers[c.Name] || outputOptFile(c) != "" {
		return true
	}
	for _, r := range e.F.Redirects {
		if (r.Op == ">" || r.Op == ">>" || r.Op == ">|" || r.Op == "&>" || r.Op == "&>>") && (r.Cmd == c.Name || r.Cmd == "") && strings.HasPrefix(r.Target, "/") {
			return true
		}
	}
	return false
}

// upstreamSecret is the secret the pipeline stage named u before
// Commands[i] emits.
func upstreamSecret(e *Env, i int, u string) string {
	for j := i - 1; j >= 0; j-- {
		if e.F.Commands[j].Name == u {
			return secretSource(e, &e.F.Commands[j])
		}
	}
	return ""
}

// sentSecretFile says how a sender uploads a file the line filled with a
// secret (onlyEnv: with the whole environment), "" when none does.
func sentSecretFile(e *Env, onlyEnv bool) string {
	if !e.F.HasCmd(senders...) {
		return "" // most lines: nothing sends, no file to trace
	}
	files := secretFiles(e)
	if onlyEnv {
		for f, what := range files {
			if !strings.HasPrefix(what, "the environment") {
				delete(files, f)
			}
		}
	}
	if len(files) == 0 {
		return ""
	}
	for _, c := range e.F.Cmds(senders...) {
		if c.Name == "openssl" && !opensslConnects(c) {
			continue // openssl req/genrsa/x509 make keys and certificates here
		}
		if f, ok := strings.CutPrefix(c.Stdin, "< "); ok {
			if what := files[e.abs(c, f)]; what != "" {
				return fmt.Sprintf("%s sends %s, which the line filled with %s", c.Name, f, what)
			}
		}
		for _, a := range c.Args {
			for _, f := range uploadOperands(a) {
				if what := files[e.abs(c, f)]; what != "" {
					return fmt.Sprintf("%s sends %s, which the line filled with %s", c.Name, f, what)
				}
			}
		}
		// cat f | nc host: the file reaches the sender through the pipe
		for _, u := range c.Upstream {
			for _, r := range e.F.Cmds(u) {
				for _, a := range r.Pos {
					if what := files[e.abs(r, a)]; what != "" && passThrough[r.Name] {
						return fmt.Sprintf("%s sends %s, which the line filled with %s", c.Name, a, what)
					}
				}
			}
		}
	}
	return ""
}

// uploadOperands are the file names an argument may upload: itself
// (curl -T f, scp f host:), what follows @ or < (curl -F x=@f, -d @f,
// --form "x=<f", httpie file@f) or = (wget --post-file=f).
func uploadOperands(a string) []string {
	if strings.Contains(a, "://") {
		return nil
	}
	out := []string{a}
	if i := strings.LastIndexAny(a, "@<"); i >= 0 {
		out = append(out, strings.SplitN(a[i+1:], ";", 2)[0])
	}
	if i := strings.Index(a, "="); i >= 0 {
		out = append(out, a[i+1:])
	}
	return out
}

// wholeEnv matches interpreter code that takes the whole environment
// (str(os.environ), dict(os.environ), JSON.stringify(process.env),
// ENV.to_h, %ENV) rather than one variable of it (os.environ.get('HOME'),
// process.env.PORT); netCall matches a call that sends over the network.
var (
	wholeEnv = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`os\.environ(?:\.copy\(\)|\.items\(\))?\s*[),}\]]|os\.environ\s*$|process\.env\s*[),}\]]|ENV\.to_[ha]\b|ENV\.inspect|%ENV\b|getenv\(\)\s*[),]`)
	})
	netCall = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`urlopen|requests\.\w+\(|http\.client|httpx\.|socket\.|\bfetch\(|https?\.(?:request|get)\(|require\(\s*['"](?:node:)?https?['"]\s*\)|axios|Net::HTTP|LWP::|HTTP::Tiny|curl_exec|file_get_contents\(\s*['"]https?:|XMLHttpRequest|WebSocket`)
	})
)

// interpSendsEnv says which interpreter one-liner sends the whole
// environment over the network, "" for none.
func interpSendsEnv(e *Env) string {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Payload == "" || !callfacts.IsInterpreter(c.Name) {
			continue
		}
		if wholeEnv().MatchString(c.Payload) && netCall().MatchString(c.Payload) {
			return c.Name + " sends the whole environment, with its secrets, over the network: send only the values the request needs"
		}
	}
	return ""
}

// opensslConnects: an openssl subcommand that talks to another host.
func opensslConnects(c *Cmd) bool {
	switch sub(c) {
	case "s_client", "s_time", "ocsp":
		return true
	}
	return false
}

// generatesKeys: a command that writes new keys and certificates (its key
// options name outputs, not secrets it reads).
func generatesKeys(e *Env, via string) bool {
	for _, c := range e.F.Cmds(via) {
		switch c.Name {
		case "openssl":
			switch sub(c) {
			case "req", "genrsa", "genpkey", "ecparam", "x509", "rand", "dhparam":
				return !opensslConnects(c)
			}
		case "ssh-keygen", "mkcert", "step", "certstrap", "cfssl":
			return true
		}
	}
	return false
}
