package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Administrators' tools whose query form is an option or the absence of
// one (fpround). postmap builds a lookup table, but postmap -q KEY only
// looks a key up; postconf edits main.cf with -e/-X/-# or NAME=VALUE, but
// postconf NAME only prints a parameter; zpool import POOL imports, but a
// bare zpool import only lists what could be imported. Their setting
// forms (postmap -d, postconf -e, zpool import -a, zpool import tank)
// stay asked as root.

// adminQueryForm says what the query form of name reads, "" when the
// arguments ask for a change (or name has no query form here).
func adminQueryForm(name string, args []string) string {
	has := func(flags ...string) bool { return callfacts.HasArg(args, flags...) }
	switch name {
	case "postmap", "postalias":
		// -q looks up, -s dumps; -d and -i delete or add keys
		if has("-q", "-s") && !has("-d", "-i") {
			return name + " only looks keys up"
		}
	case "postconf":
		if has("-e", "-X", "-#") {
			return "" // edit, remove or comment out a parameter
		}
		for _, a := range args {
			if strings.Contains(a, "=") {
				return "" // postconf myhostname=x sets a parameter
			}
		}
		return "postconf only prints parameters"
	case "zpool":
		if len(args) == 1 && args[0] == "import" {
			return "zpool import without a pool only lists the pools that could be imported"
		}
	}
	return ""
}

// joinedReadWord: a read word joined to its noun by _ or - (list_hosts,
// show-config, get_status) with no change or destroy word among the
// pieces (list_and_delete is not one).
func joinedReadWord(v string) bool {
	parts := strings.Split(strings.ReplaceAll(strings.ToLower(v), "_", "-"), "-")
	if len(parts) < 2 || !callfacts.ReadWord(parts[0]) {
		return false
	}
	for _, p := range parts[1:] {
		if callfacts.DestroyOrChangeWord(p) {
			return false
		}
	}
	return true
}

// sqlCompared is a string literal a query compares with (ILIKE '%drop
// table%', = 'TRUNCATE', IN ('a', 'b')): data the query searches for in
// its rows, never a statement it runs. A literal that is run (EXECUTE
// 'DROP TABLE x', dblink_exec('…'), a \gexec of a SELECT 'DROP …') is
// not after a comparison and stays read.
var sqlCompared = re(`(?i)(\b(?:i?like|similar\s+to|regexp|rlike)\s*|(?:=|<>|!=|~\*?|!~\*?)\s*)'(?:[^']|'')*'`)

// sqlComparedOut blanks the literals sqlCompared finds, keeping the
// operator, so the statement readers see the query's own words only.
func sqlComparedOut(s string) string {
	if !strings.Contains(s, "'") || strings.Contains(strings.ToLower(s), "gexec") {
		return s
	}
	return sqlCompared.ReplaceAllString(s, "$1''")
}

// vaultPublicFields are the fields of Vault's PKI engine that are
// published by design: a certificate, its CA chain, the revocation list.
var vaultPublicFields = map[string]bool{"certificate": true, "ca_chain": true, "issuing_ca": true, "crl": true, "serial_number": true, "expiration": true}

// vaultPublicRead: vault read prints only public PKI material — a field
// above (-field=certificate), or a PKI path that holds nothing else
// (pki/cert/ca, pki_int/cert/<serial>, pki/ca_chain, pki/crl). A
// private_key field, a key path (pki/key/…) or any other secret path is
// not one.
func vaultPublicRead(c *Cmd) bool {
	field := ""
	for i, a := range c.Args {
		if v, ok := strings.CutPrefix(a, "-field="); ok {
			field = v
		} else if v, ok := strings.CutPrefix(a, "--field="); ok {
			field = v
		} else if (a == "-field" || a == "--field") && i+1 < len(c.Args) {
			field = c.Args[i+1]
		}
	}
	if field != "" {
		return vaultPublicFields[strings.ToLower(field)]
	}
	if len(c.Pos) < 2 {
		return false
	}
	p := strings.Trim(strings.ToLower(c.Pos[1]), "/")
	mount, rest, ok := strings.Cut(p, "/")
	if !ok || !strings.HasPrefix(mount, "pki") {
		return false
	}
	return strings.HasPrefix(rest, "cert/") || rest == "ca" || rest == "ca_chain" || rest == "crl" || rest == "cert/ca_chain"
}
