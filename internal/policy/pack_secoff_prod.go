package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Security switched off on production through a tool that manages it:
// a CMS's security, SSL or two-factor plugin deactivated (wp @production
// plugin deactivate wordfence, drush @prod pm:uninstall tfa), a web
// server's security module disabled (a2dismod security2 on a prod host),
// SELinux or a host firewall turned off through configuration management
// (ansible prod -m selinux -a state=disabled, -m service -a
// 'name=firewalld state=stopped'). On a target named for production the
// live service loses its guard: deny. Elsewhere the tools' own rules
// judge the change. The words are data (remoteops.txt secoff-*).

// secoffWhat says what security c switches off, "" for none.
func secoffWhat(c *Cmd) string {
	sec, verbs, off := opsList("secoff-words"), opsList("secoff-verbs"), opsList("off-values")
	secWord := func(s string) bool {
		for _, w := range wordsOf(s) {
			if sec[strings.TrimRight(w, "0123456789")] {
				return true
			}
		}
		return false
	}
	// a configuration manager's module and its arguments
	if m := optValue(c, "-m") + " " + optValue(c, "--module-name"); strings.TrimSpace(m) != "" {
		args := optValue(c, "-a") + " " + optValue(c, "--args")
		offArg := false
		for _, kv := range strings.Fields(strings.ToLower(args)) {
			k, v, ok := strings.Cut(strings.Trim(kv, `"'`), "=")
			if ok && (k == "state" || k == "enabled" || k == "policy" || k == "status") && (off[v] || v == "stopped" || v == "absent") {
				offArg = true
			}
		}
		if offArg && (secWord(m) || secWord(args)) {
			return strings.TrimSpace(m) + " " + strings.TrimSpace(args)
		}
		return ""
	}
	// salt TARGET selinux.setenforce 0: a function named for a guard, given an off value
	if c.Name == "salt" || c.Name == "salt-ssh" || c.Name == "salt-call" {
		for i, p := range c.Pos {
			if strings.Contains(p, ".") && secWord(p) && i+1 < len(c.Pos) && off[strings.ToLower(c.Pos[i+1])] {
				return p + " " + c.Pos[i+1]
			}
		}
		return ""
	}
	// a verb that disables, then a plugin, module or extension named for a guard
	verbAt := -1
	if opsList("secoff-progs")[c.Name] {
		verbAt = 0 // a2dismod security2: the program is the verb
	}
	for i, p := range c.Pos {
		if i > 4 {
			break
		}
		if verbAt < 0 {
			for _, w := range wordsOf(p) {
				if verbs[w] {
					verbAt = i + 1
				}
			}
			continue
		}
		if i >= verbAt && secWord(p) && !strings.Contains(p, "/") {
			return p
		}
	}
	return ""
}

// prodTargetOf is what names production as the place c acts on: an
// argument (@production, -i inventories/prod/hosts.ini, --url
// https://shop-prod…) or the host a remote shell runs it on.
func prodTargetOf(e *Env, c *Cmd) string {
	for _, a := range c.Args {
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
			a = v
		}
		if prodValue(a) {
			return a
		}
	}
	if len(c.Wrappers) > 0 {
		// ssh web-prod-01 'sudo a2dismod security2': the host the remote shell runs it on
		for _, s := range e.F.Cmds("ssh", "autossh", "mosh") {
			if len(s.Pos) > 0 && prodWord.MatchString(s.Pos[0]) {
				return s.Pos[0]
			}
		}
		for i := range e.F.Commands {
			for _, p := range callfacts.RemoteShellWhere(&e.F.Commands[i]) {
				if prodWord.MatchString(p) {
					return p
				}
			}
		}
	}
	if c.Remote != "" && prodWord.MatchString(c.Remote) {
		return c.Remote
	}
	return ""
}

func securityOffProdRule() Rule {
	match := func(e *Env, c *Cmd) string {
		if onlyHelp(c) || e.dryRun(c) {
			return ""
		}
		what := secoffWhat(c)
		if what == "" {
			return ""
		}
		where := prodTargetOf(e, c)
		if where == "" {
			return ""
		}
		return c.Name + " switches off " + what + " on production (" + where + "): " + short80(c.String())
	}
	return Rule{ID: "external.systems:security-off-prod", Mode: Deny, Tools: shellTools, On: On(0).OrText("prod", "Prod", "PROD", "prd", "PRD"),
		Match: func(e *Env) string {
			if !mayNameProd(e.F.Command) {
				return "" // the everyday command: no word for production on the line
			}
			for i := range e.F.Commands {
				if e.quiet(i) {
					continue
				}
				if r := match(e, &e.F.Commands[i]); r != "" {
					return r
				}
			}
			return ""
		},
		Desc: "A security plugin, module or guard switched off on a target named for production: a CMS's security, SSL or two-factor plugin deactivated (wp @production plugin deactivate wordfence), a web server's security module disabled, SELinux or a firewall turned off through configuration management (ansible -i inventories/prod -m selinux -a state=disabled); the words are data (policy/remoteops.txt secoff-words, secoff-verbs)",
		Catch: []string{"wp @production plugin deactivate wordfence really-simple-ssl", "ansible webservers -i inventories/prod/hosts.ini -b -m ansible.posix.selinux -a 'state=disabled'", "drush @prod pm:uninstall tfa -y",
			"ansible all -i prod.ini -b -m service -a 'name=firewalld state=stopped enabled=no'", "ssh web-prod-01 'sudo a2dismod security2'", "wp --url=https://shop.prod.example.com plugin deactivate two-factor", "salt 'web*' selinux.setenforce 0 --out=json -c /etc/salt-prod"},
		Allow: []string{"wp plugin deactivate wordfence", "wp @production plugin list", "wp @production plugin activate wordfence", "ansible webservers -i inventories/prod/hosts.ini -b -m ansible.posix.selinux -a 'state=enforcing policy=targeted'",
			"ansible all -i inventories/staging -b -m selinux -a state=disabled", "wp @production plugin deactivate hello-dolly", "drush @prod pm:enable tfa -y", "ansible all -i prod.ini -m service -a 'name=nginx state=restarted'"},
	}
}
