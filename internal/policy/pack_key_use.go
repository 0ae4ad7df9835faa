package policy

import "strings"

// key files used, not shown. A command that derives the
// public half of a private key (ssh-keygen -y, ssh-keygen -l's
// fingerprint, openssl rsa|pkey|ec -pubout without -text) reads the key
// but prints nothing secret; a Kerberos client that lists a keytab's
// principals (klist -k, not -K, which prints the keys) or logs in with
// it (kinit -kt) uses it without showing it.

// printsPublicHalf: every command named via only prints a key's public
// half or fingerprint.
func printsPublicHalf(e *Env, via string) bool {
	if via == "<" {
		return stdinPublicHalf(e)
	}
	if via != "ssh-keygen" && via != "openssl" && via != "klist" && via != "kinit" && via != "k5start" {
		return false
	}
	cs := e.F.Cmds(via)
	if len(cs) == 0 {
		return false
	}
	for _, c := range cs {
		switch c.Name {
		case "ssh-keygen":
			// -y: the public key; -l: the fingerprint; -p, -c, -N, -e, -m
			// rewrite or export the key
			if !c.Has("-y", "-l") || c.Has("-p", "-c", "-N", "-e", "-m", "-t") {
				return false
			}
		case "openssl":
			if s := sub(c); s != "rsa" && s != "pkey" && s != "ec" && s != "dsa" || !c.Has("-pubout") || c.Has("-text", "-out") {
				return false
			}
		case "klist":
			if hasShortFlag(c, 'K') || c.Has("--keys") {
				return false // klist -kK prints the keys themselves
			}
		}
	}
	return true
}

// interpKeyVar: a variable named for a secret that is never an API's
// credential of its own service (PRIVATE_KEY, SECRET_KEY, DB_PASSWORD's
// generic spellings, a passphrase): sent anywhere, it leaks.
func interpKeyVar(v string) bool {
	u := strings.ToUpper(v)
	return strings.Contains(u, "PRIVATE") || strings.Contains(u, "PASSWORD") || strings.Contains(u, "PASSWD") || strings.Contains(u, "PASSPHRASE") ||
		u == "SECRET_KEY" || u == "SECRET" || strings.HasSuffix(u, "_SECRET_KEY")
}

// interpShellSend matches code that runs a network client through the
// shell (os.system('curl -d …'), system("curl", …), subprocess.run(['curl' …])).
var interpShellSend = re(`['"\[]\s*(?:curl|wget|nc|ncat|socat|http|xh)[\s'"]`)

// codeCaptureHost: a URL or host of the code is a capture or paste
// service (policy/remoteops.txt capture-host): any secret sent there
// leaks, whoever's it is.
func codeCaptureHost(host string) bool {
	h := strings.ToLower(host)
	for _, w := range opsWords("capture-host") {
		if strings.Contains(h, w) {
			return true
		}
	}
	return false
}

// loginKeyArg: c.Args[i] is the identity or config file scp or sftp logs
// in with (-i KEY, -F CONFIG), not a file it copies.
func loginKeyArg(c *Cmd, i int) bool {
	return i > 0 && (c.Name == "scp" || c.Name == "sftp") && (c.Args[i-1] == "-i" || c.Args[i-1] == "-F")
}

// stdinPublicHalf: every command fed a file on stdin derives the public
// half of the key it is fed (wg pubkey < private.key), and nothing sends.
func stdinPublicHalf(e *Env) bool {
	if len(e.F.Cmds(senders...)) > 0 {
		return false
	}
	n := 0
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if !strings.HasPrefix(c.Stdin, "< ") {
			continue
		}
		if i+1 < len(e.F.Commands) && len(e.F.Commands[i+1].Wrappers) > len(c.Wrappers) {
			c = &e.F.Commands[i+1] // timeout 10 wg pubkey < key: the wrapped command is fed
		}
		if c.Name != "wg" || sub(c) != "pubkey" {
			return false
		}
		n++
	}
	return n > 0
}
