package policy

import (
	"fmt"
	"strings"
)

// sed and awk used as grep: sed -n '/password/p' app.ini, awk
// '/authtok/' sssd.conf, awk -F= '/db_pass/{print $2}' .my.cnf print the
// lines (or the values) of a credential's key in a config file, as grep
// does (core.secrets:grep-secret-key); an awk that prints only the first
// field (the key's name) does not.

// filterPattern matches a sed or awk address /PATTERN/.
var filterPattern = re(`^\s*/((?:[^/\\]|\\.)+)/`)

// filtersSecretKey says which config file a sed -n '/KEY/p' or awk
// '/KEY/…' prints a credential's lines from, "".
func filtersSecretKey(e *Env, c *Cmd) string {
	if len(c.Pos) < 2 || c.Has("-i", "--in-place") {
		return "" // sed -i edits; the file's own rules judge the write
	}
	prog := c.Pos[0]
	m := filterPattern.FindStringSubmatch(prog)
	if m == nil || !secretKeyPattern.MatchString(m[1]) {
		return ""
	}
	switch c.Name {
	case "sed", "gsed":
		if !c.Has("-n", "--quiet", "--silent") || !strings.HasSuffix(strings.TrimSpace(prog), "p") {
			return ""
		}
	default: // awk
		if strings.Contains(prog, "print") && !strings.Contains(strings.ReplaceAll(prog, " ", ""), "print$2") && !strings.Contains(prog, "print $0") && !strings.Contains(strings.ReplaceAll(prog, " ", ""), "print}") && !strings.Contains(prog, "$NF") {
			return "" // awk '/password/{print $1}': the key's name only
		}
	}
	if reducedDownstream(e, slicesIndex(e, c)) {
		return ""
	}
	for _, f := range c.Pos[1:] {
		if p := e.abs(c, f); configFile(p) && !throwawayKey(p, e.F.Project) {
			return fmt.Sprintf("%s prints the lines of %s in %s: they carry the credential's value", c.Name, m[1], homeRel(p, e.F.Home))
		}
	}
	return ""
}

func filterSecretKeyRule() Rule {
	return readsOnly(cmdRule("core.secrets:filter-secret-key", Ask, "Printing a credential's key from a config file with sed or awk (sed -n '/password/p' app.ini, awk -F= '/db_pass/{print $2}' .my.cnf): the lines carry the values into the conversation, as grep-secret-key's do; an awk printing only the key's name, and in-place edits, stay allowed", []string{"sed", "gsed", "awk", "gawk", "mawk", "nawk"},
		filtersSecretKey,
		[]string{`sed -n '/password/p' config/app.ini`, `awk -F= '/db_pass/{print $2}' conf/app.conf`, `awk '/authtok/' /etc/sssd/conf.d/ldap.conf`},
		[]string{`awk -F= '/password/{print $1}' config/app.ini`, `sed -i 's/password=.*/password=x/' config/app.ini`, `sed -n '/listen/p' nginx.conf`, `sed -n '/password/p' src/auth.py`}))
}
