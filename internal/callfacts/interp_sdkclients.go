package callfacts

import (
	"strings"

	"github.com/warden-dev/warden/internal/lazyre"
)

// s28: a service's client is often made with no URL and no key on the
// line: the SDK reads its own config or environment (pyodk's Client()
// reads ~/.config/pyodk, Clerk's module reads CLERK_SECRET_KEY, a
// websocket client connects later). What marks it as a service's client
// is the package it comes from: a package named for an SDK, an API, a
// client, an RPC or a websocket (@clerk/clerk-sdk-node, particle-api-js,
// obs-websocket-js, pyodk.client). The names code binds to such a
// package, to a class it imports from one, or to an instance made of
// either, are clients as clientBound's are: a method named for a change
// or a destroy on them (c.users.deleteUser(…), c.forms.update(…)) acts
// on the service.

// sdkPackageWords: words of a package's name that say it talks to a
// service elsewhere.
var sdkPackageWords = map[string]bool{"sdk": true, "api": true, "client": true, "rpc": true, "xmlrpc": true, "jsonrpc": true, "websocket": true, "ws": true, "rest": true, "graphql": true, "remote": true}

// sdkPackage: a package's name carries one of sdkPackageWords (split on
// the characters between words: @clerk/clerk-sdk-node, pyodk.client).
func sdkPackage(name string) bool {
	if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "/") || strings.HasPrefix(name, "node:") {
		return false // a local module, a builtin
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if sdkPackageWords[w] {
			return true
		}
	}
	return false
}

// sdkRequire: JavaScript's NAME = require('PKG') or { A, B } =
// require('PKG') (also import NAME from 'PKG').
var sdkRequire = lazyre.New(`(?:\b(?:const|let|var)\s+)?(?:(\w+)|\{([^{}]*)\})\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)|\bimport\s+(?:(\w+)|\{([^{}]*)\}|\*\s+as\s+(\w+))\s+from\s+['"]([^'"]+)['"]`)

// sdkPyImport: Python's from PKG import A, B [as C] and import PKG [as N].
var sdkPyImport = lazyre.New(`(?m)\bfrom\s+([\w.]+)\s+import\s+([\w ,]+?)\s*(?:$|;)|\bimport\s+([\w.]+)(?:\s+as\s+(\w+))?`)

// sdkMade: NAME = [await] [new] ROOT[.x](…) and with ROOT(…) as NAME.
var sdkMade = lazyre.New(`\b(\w+)\s*=\s*(?:await\s+)?(?:new\s+)?(\w+)(?:\.\w+)*\s*\(|\bwith\s+(?:await\s+)?(\w+)(?:\.\w+)*\s*\([^\n]*?\)\s+as\s+(\w+)`)

// sdkAnonymous: a method called on an instance made in place
// (new P().callFunction(…), Client().forms.update(…)).
var sdkAnonymous = lazyre.New(`\b(?:new\s+)?(\w+)\s*\([^()]*\)((?:\s*\.\s*\w+)+)\s*\(`)

// sdkClientNames: the names code binds to an SDK package, a class it
// imports from one, or an instance made of them.
func sdkClientNames(code string) map[string]bool {
	if !strings.Contains(code, "require") && !strings.Contains(code, "import") && !strings.Contains(code, "://") {
		return nil
	}
	names := map[string]bool{}
	add := func(list string) {
		for _, n := range strings.Split(list, ",") {
			f := strings.Fields(strings.ReplaceAll(n, ":", " "))
			if len(f) > 0 {
				names[f[len(f)-1]] = true // { Client as C }, { default: O }: the local name
			}
		}
	}
	for _, m := range sdkRequire.FindAllStringSubmatch(code, 8) {
		pkg := m[3] + m[7]
		if !sdkPackage(pkg) {
			continue
		}
		add(m[1] + "," + m[2] + "," + m[4] + "," + m[5] + "," + m[6])
	}
	for _, m := range sdkPyImport.FindAllStringSubmatch(code, 8) {
		if m[1] != "" && sdkPackage(m[1]) {
			for _, n := range strings.Split(m[2], ",") {
				f := strings.Fields(n)
				if len(f) > 0 && f[len(f)-1] != "*" {
					names[f[len(f)-1]] = true
				}
			}
		} else if m[3] != "" && sdkPackage(m[3]) {
			n := m[4]
			if n == "" {
				n, _, _ = strings.Cut(m[3], ".")
			}
			names[n] = true
		}
	}
	for _, m := range netURLBound.FindAllStringSubmatch(code, 8) {
		if !localHostName(m[2]) {
			names[m[1]] = true // l = ldap.initialize('ldap://dc1.acme.io'): a connection to that server
		}
	}
	delete(names, "")
	if len(names) == 0 {
		return nil
	}
	for round := 0; round < 2; round++ {
		for _, m := range sdkMade.FindAllStringSubmatch(code, 16) {
			if m[1] != "" && names[m[2]] {
				names[m[1]] = true
			}
			if m[4] != "" && names[m[3]] {
				names[m[4]] = true
			}
		}
	}
	return names
}

// remoteInvoke: a method that runs a named function, action or command
// on the service or device the client reaches (callFunction,
// invoke_action, runCommand, executeProcedure).
func remoteInvoke(parts []string) bool {
	if len(parts) != 2 {
		return false
	}
	switch parts[0] {
	case "call", "invoke", "run", "execute", "exec", "trigger":
	default:
		return false
	}
	switch parts[1] {
	case "function", "method", "action", "command", "procedure", "job", "workflow", "macro", "script":
		return true
	}
	return false
}

// sdkClientCall reads code for a change or destroy method called on an
// SDK package's client (see above): the call in words, whether it
// destroys; "" for none.
func sdkClientCall(code string) (string, bool) {
	names := sdkClientNames(code)
	if names == nil {
		return "", false
	}
	for _, m := range sdkClientMethod.FindAllStringSubmatch(code, 32) {
		if !names[m[1]] {
			continue
		}
		if q := sdkQuoted().FindStringSubmatch(code[strings.Index(code, m[0])+len(m[0])-1:]); q != nil && SDKTestName(q[1]) {
			continue // delete_collection('tmp_emb_run7'): what the tests made
		}
		if w, d := methodVerb(m[2]); w != "" {
			return m[1] + "." + m[2] + "(…)", d
		}
	}
	for _, m := range sdkAnonymous.FindAllStringSubmatch(code, 16) {
		if !names[m[1]] {
			continue
		}
		if q := sdkQuoted().FindStringSubmatch(code[strings.Index(code, m[0])+len(m[0])-1:]); q != nil && SDKTestName(q[1]) {
			continue
		}
		chain := strings.Split(m[2], ".")
		meth := strings.TrimSpace(chain[len(chain)-1])
		if w, d := methodVerb(meth); w != "" {
			return m[1] + "()." + meth + "(…)", d
		}
	}
	return "", false
}

// sdkClientMethod: NAME[.x…].method( — the name and the last method.
var sdkClientMethod = lazyre.New(`\b(\w+)(?:\s*\.\s*\w+)*\s*\.\s*(\w+)\s*\(`)

// netURLBound: a name bound to a call given a URL of a network protocol
// other than the web's (ldap://, amqp://, ws://, opc.tcp://, tcp://,
// redis://, mqtt://, nats://, grpc://): the call connects to that server.
var netURLBound = lazyre.New(`\b(\w+)\s*=\s*(?:await\s+)?(?:new\s+)?[\w.]+\s*\(\s*[^\n;]*?['"](?:ldaps?|amqps?|wss?|opc\.tcp|tcp|redis|rediss|mqtts?|nats|grpc|thrift|xmlrpc|telnet|ssh|smb|nfs|ftp|sftp|mongodb(?:\+srv)?|postgres(?:ql)?|mysql|mssql|kafka)://(?:[^@/'"\s]*@)?([\w.-]+)`)

// localHostName: a host of this machine.
func localHostName(h string) bool {
	return h == "localhost" || h == "127.0.0.1" || h == "0.0.0.0" || h == "::1" || strings.HasSuffix(h, ".localhost")
}

// SDKClientNames is sdkClientNames for the policy's client readings: the
// names code binds to an SDK package's client, its classes, or a
// connection to a network URL; nil for none.
func SDKClientNames(code string) map[string]bool { return sdkClientNames(code) }
