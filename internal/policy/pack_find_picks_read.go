package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Secrets read through what find picks. find ~/.kube -name 'config*'
// -exec cat {} \;, find . -name '*.env' | xargs -I{} sh -c 'cat {}': the
// reader's path is the pick ({}, xargs' input), which names no file, but
// the find's start folder and name pattern say which files it is: read
// as the file the pattern names there (~/.kube/config, ./.env), judged as
// reading that file. Public keys stay allowed.

// pickedFiles are the files the line's finds name by start folder and
// -name pattern, with the pattern's wildcards dropped or read as a key's
// name (config* → config, *.env → .env, *.pem → key.pem), made absolute.
func pickedFiles(e *Env) []string {
	var out []string
	for _, l := range e.F.Cmds("ls") {
		// s29: ls ~/vpn/clients/*.ovpn | head -1 | xargs cat: the glob
		// ls lists names the files handed on, as find's -name does; a
		// wildcard is read as nothing only (audit_*.json is no key file)
		for _, a := range l.Pos {
			if strings.ContainsAny(a, "*?") {
				out = append(out, absUnder(e, strings.NewReplacer("*", "", "?", "").Replace(a)))
			}
		}
	}
	for _, f := range e.F.Cmds("find", "fd", "fdfind") {
		var pats []string
		for i, a := range f.Args {
			if (a == "-name" || a == "-iname" || a == "-path" || a == "-ipath") && i+1 < len(f.Args) {
				pats = append(pats, f.Args[i+1])
			}
		}
		if len(pats) == 0 {
			continue
		}
		roots := findRootsOf(f)
		for _, r := range roots {
			r = absUnder(e, r)
			for _, p := range pats {
				// config* → config; *.pem → .pem and key.pem
				for _, w := range []string{"", "key"} {
					n := path.Base(strings.NewReplacer("*", w, "?", "", "[", "", "]", "").Replace(p))
					if n != "" && n != "." && n != "/" {
						out = append(out, path.Join(r, n))
					}
				}
			}
		}
	}
	return out
}

// findStartArgs are the arguments of find before its first option or
// expression (the folders it walks), nil for none: unlike
// callfacts.FindRoots, no "." for none and no -L/-H/-P skipped.
func findStartArgs(c *Cmd) []string {
	var out []string
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		out = append(out, a)
	}
	return out
}

func findRootsOf(c *Cmd) []string {
	if c.Name != "find" {
		if len(c.Pos) > 1 {
			return c.Pos[1:]
		}
		return []string{"."}
	}
	return callfacts.FindRoots(c)
}

func absUnder(e *Env, p string) string {
	switch {
	case p == "~" || p == "$HOME":
		return e.F.Home
	case strings.HasPrefix(p, "~/"):
		return path.Join(e.F.Home, p[2:])
	case strings.HasPrefix(p, "$HOME/"):
		return path.Join(e.F.Home, p[6:])
	case strings.HasPrefix(p, "/"):
		return path.Clean(p)
	}
	return path.Join(e.F.Cwd, p)
}

// readsAPick: p is a read of what a find or xargs hands on.
func readsAPick(p callfacts.PathRef) bool {
	b := path.Base(p.Path)
	// ls GLOB | xargs cat: the names ls prints read as GLOB/*
	return p.Op == OpRead && !listing[p.Via] && (b == "{}" || b == "$INPUT" || b == "*" && strings.ContainsAny(path.Base(path.Dir(p.Path)), "*?"))
}

func findPickReadRule() Rule {
	return Rule{ID: "core.secrets:read-find-picks", Mode: Ask, Tools: shellTools, Reads: true, Cmds: []string{"find", "fd", "fdfind", "ls"},
		Desc: "Reading the secret or credential files a find picks or an ls of a glob lists (find ~/.kube -name 'config*' -exec cat {} \\;, find . -name '*.env' | xargs cat, ls ~/vpn/*.ovpn | xargs cat): judged as reading the file the pattern names there",
		Match: func(e *Env) string {
			read := ""
			for _, p := range e.F.Paths {
				if readsAPick(p) && (passThrough[p.Via] || p.Via == "bat" || p.Via == "nl") {
					read = p.Via
					break
				}
			}
			if read == "" {
				return ""
			}
			for _, f := range pickedFiles(e) {
				if strings.HasSuffix(f, ".pub") || callfacts.PublicKeyMaterial(f) {
					continue
				}
				if secretFile(f) || callfacts.IsCredential(f, e.F.Home) {
					return read + " reads the files find picks as " + homeRel(f, e.F.Home) + ", which hold secrets"
				}
			}
			return ""
		},
		Catch: []string{"find ~/.kube -name 'config*' -exec cat {} \\;", "find . -name '*.env' | xargs cat", "find . -name '*.key' -exec head {} +", "ls ~/vpn/clients/*.ovpn | head -1 | xargs cat"},
		Allow: []string{"find ~/.ssh -name '*.pub' -exec cat {} \\;", "find . -name '*.md' | xargs cat", "find . -name '*.env' | xargs ls -l", "ls docs/*.md | xargs cat", "ls ~/vpn/clients/*.ovpn | xargs ls -l"}}
}

// publicKeyPick: p is a find's start folder or the pick it hands on, and
// every find of the line picks public keys only by name (find ~/.ssh
// -name '*.pub' | xargs cat): what is read is the public halves, as cat
// ~/.ssh/id_ed25519.pub is. A find that deletes or runs a writer is not.
func publicKeyPick(e *Env, p callfacts.PathRef) bool {
	if p.Op == OpWrite || p.Op == OpDelete {
		return false
	}
	pick := readsAPick(p)
	if !pick && !(p.Op == OpArg && (p.Via == "find" || p.Via == "fd" || p.Via == "fdfind")) {
		return false
	}
	finds := e.F.Cmds("find", "fd", "fdfind")
	if len(finds) == 0 {
		return false
	}
	for _, f := range finds {
		n := 0
		for i, a := range f.Args {
			switch a {
			case "-name", "-iname":
				if i+1 >= len(f.Args) || !strings.HasSuffix(f.Args[i+1], ".pub") {
					return false
				}
				n++
			case "-path", "-ipath", "-regex", "-iregex", "-o", "-or", "-not", "!", "-delete", "-fprint", "-fprintf", "-fls":
				return false
			case "-exec", "-execdir", "-ok", "-okdir":
				if i+1 < len(f.Args) && !passThrough[f.Args[i+1]] && !listing[f.Args[i+1]] && f.Args[i+1] != "ssh-keygen" {
					return false
				}
			}
		}
		if f.Name != "find" {
			return false // fd's pattern is a regexp: not read here
		}
		if n == 0 {
			return false
		}
	}
	return true
}
