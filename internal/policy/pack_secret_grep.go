package policy

import (
	"fmt"
	"path"
	"strings"
)

// A search for secrets' key names over configuration rather than code:
// a recursive grep of a config tree (grep -ri 'enable secret' configs/,
// rg -i password /etc/nginx), a device-config grep tool run against a
// switch, or a search of the repository's history (git log -p | grep
// password, git grep token $(git rev-list --all)). Each matching line
// carries the value into the conversation (ask). The same search of
// source code finds variable names (allowed), and a single named config
// file is core.secrets:grep-secret-key's.

// deviceSecretPattern: the keys under which network devices and
// servers keep credentials in their configs (IOS enable secret, SNMP
// communities, IPsec pre-shared keys, key chains, TACACS/RADIUS keys).
var deviceSecretPattern = re(`(?i)\bcommunity\b|enable\s+(secret|password)|pre-?shared|key-string|\bpsk\b|tacacs|radius-server\s+key|wpa-?passphrase|BEGIN [A-Z ]*PRIVATE`)

// credURLPattern: a search for the addresses of a scheme that carries its
// login in the URL (rtsp://user:pass@cam, mongodb://u:p@h, amqp://…):
// each matching config line prints a password.
var credURLPattern = re(`(?i)(?:^|[^a-z])(?:rtsps?|rtmps?|mongodb(?:\+srv)?|postgres(?:ql)?|mysql|mariadb|redis|rediss|amqps?|ftps?|smb|ldaps?|mqtts?|sqlserver|jdbc:[a-z]+):(?://|\\/\\/|$)`)

// secretSearch: a grep pattern names a secret's key.
func secretSearch(pat string) bool {
	if secretKeyPattern.MatchString(pat) || deviceSecretPattern.MatchString(pat) || credURLPattern.MatchString(pat) {
		return true
	}
	if !strings.ContainsAny(pat, "[?*+\\") {
		return false
	}
	// the words of a regular expression (api[_-]?key, pass\w*): classes
	// read as "_", quantifiers and escapes dropped
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		switch ch := pat[i]; ch {
		case '[':
			if j := strings.IndexByte(pat[i:], ']'); j > 0 {
				b.WriteByte('_')
				i += j
			}
		case '?', '*', '+', '\\':
		default:
			b.WriteByte(ch)
		}
	}
	return secretKeyPattern.MatchString(b.String())
}

// configTreeDirs are folder names that hold configuration, device
// configs, inventories and deployments rather than code.
var configTreeDirs = map[string]bool{"config": true, "configs": true, "conf": true, "conf.d": true, "etc": true, "backups": true, "backup": true, "device-configs": true, "device_configs": true,
	"running-configs": true, "startup-configs": true, "inventory": true, "inventories": true, "group_vars": true, "host_vars": true, "secrets": true,
	"k8s": true, "kubernetes": true, "helm": true, "ansible": true, "network-configs": true, "configurations": true, ".git": true, "rancid": true, "oxidized": true}

// codeGlobs: an include or type option that keeps a search to code.
var codeGlobs = []string{".go", ".py", ".js", ".ts", ".tsx", ".jsx", ".rb", ".java", ".kt", ".php", ".rs", ".c", ".h", ".cpp", ".cs", ".swift", ".scala", ".ex", ".md"}

// searchesCode: the search is kept to code files (--include='*.py',
// --type py, -t go, -g '*.ts').
func searchesCode(c *Cmd) bool {
	for i, a := range c.Args {
		v := a
		if k, val, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "--") {
			a, v = k, val
		} else if i+1 < len(c.Args) {
			v = c.Args[i+1]
		} else {
			continue
		}
		switch a {
		case "--include", "-g", "--glob", "--file-type":
			for _, x := range codeGlobs {
				if strings.HasSuffix(strings.Trim(v, `'"`), x) {
					return true
				}
			}
		case "-t", "--type":
			return v != "yaml" && v != "json" && v != "toml" && v != "config" && v != "xml"
		}
	}
	return false
}

// configTree: a search target lies in a folder of configuration
// (configs/, /etc/nginx, ansible/group_vars) or is one.
func configTree(p string) bool {
	if p == "/etc" || strings.HasPrefix(p, "/etc/") || strings.HasPrefix(p, "/var/backups") || strings.HasPrefix(p, "/usr/local/etc") {
		return true
	}
	for _, seg := range strings.Split(strings.ToLower(p), "/") {
		if configTreeDirs[seg] {
			return true
		}
	}
	return false
}

// listsOrCounts: the grep prints no matching line (counts, file lists,
// a quiet test, an inverted match).
func listsOrCounts(c *Cmd) bool {
	if c.Has("-c", "--count", "-l", "-L", "--files-with-matches", "--files-without-match", "-q", "--quiet", "-v", "--invert-match") {
		return true
	}
	for _, fl := range c.Args {
		if len(fl) > 1 && fl[0] == '-' && fl[1] != '-' && strings.ContainsAny(fl[1:], "clLqv") && !strings.ContainsAny(fl[1:], "=") {
			return true
		}
	}
	return false
}

// grepPattern is what a grep looks for: its -e value or first operand.
func grepPattern(c *Cmd) string {
	for i, a := range c.Args {
		if (a == "-e" || a == "--regexp") && i+1 < len(c.Args) {
			return c.Args[i+1]
		}
	}
	if len(c.Pos) > 0 {
		return c.Pos[0]
	}
	return ""
}

// standardGreps are the greps whose operands are files.
var standardGreps = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true, "zgrep": true, "ugrep": true, "pcregrep": true, "git-grep": true}

// secretGrep says what a search for secrets over configuration, a
// device or history prints, "".
func secretGrep(e *Env, i int) string {
	c := &e.F.Commands[i]
	git := c.Name == "git"
	if git && sub(c) != "grep" && sub(c) != "log" {
		return ""
	}
	if !git && !standardGreps[c.Name] && !strings.HasSuffix(c.Name, "grep") {
		return ""
	}
	if listsOrCounts(c) || namesOnlyCmd(c) || c.Captured || reducedDownstream(e, i) {
		return ""
	}
	if git {
		return gitHistorySecretGrep(e, c)
	}
	pat := grepPattern(c)
	if !secretSearch(pat) || searchesCode(c) {
		return ""
	}
	if !standardGreps[c.Name] {
		// a grep tool of devices or a service (netmiko-grep PATTERN
		// core-sw1): what it searches is a live config
		return fmt.Sprintf("%s searches for secrets (%s) and prints the matching config lines: %s", c.Name, pat, c.String())
	}
	if len(c.Upstream) > 0 && len(c.Pos) < 2 {
		for _, u := range c.Upstream {
			for _, g := range e.F.Cmds(u) {
				if g.Name == "git" && (sub(g) == "log" || sub(g) == "show") && g.Has("-p", "--patch", "-u") {
					return fmt.Sprintf("%s searches the repository's history (git %s -p) for secrets (%s): removed credentials are printed again", c.Name, sub(g), pat)
				}
				if settingsDump(g) {
					return fmt.Sprintf("%s searches the settings %s prints (a process's properties, a container's or unit's environment) for secrets (%s) and prints them", c.Name, g.Name, pat)
				}
			}
		}
		return ""
	}
	recursive := c.Name != "grep" && c.Name != "egrep" && c.Name != "fgrep" && c.Name != "zgrep" || c.Has("-r", "-R", "--recursive") || hasShortFlag(c, 'r') || hasShortFlag(c, 'R')
	for _, t := range c.Pos[1:] {
		p := e.abs(c, t)
		if !configTree(p) || !recursive && (configFile(p) || strings.HasPrefix(p, "/etc/")) {
			continue // one config file by name: core.secrets:grep-secret-key's (and fp13's non-secret keys)
		}
		if ext := path.Ext(p); !recursive && ext != "" && !configExts[ext] && ext != ".txt" && ext != ".bak" && ext != ".log" {
			continue // code kept in a config folder (config/app.py)
		}
		return fmt.Sprintf("%s searches %s, configuration, for secrets (%s) and prints the matching lines with their values", c.Name, homeRel(p, e.F.Home), pat)
	}
	return ""
}

// gitHistorySecretGrep: git grep over every commit (git grep password
// $(git rev-list --all)) or a pickaxe search with patches (git log -p -S
// token) prints secrets the history still holds.
func gitHistorySecretGrep(e *Env, c *Cmd) string {
	pat := ""
	switch sub(c) {
	case "grep":
		revs := c.Has("--all")
		for _, g := range e.F.Cmds("git") {
			revs = revs || g.Captured && sub(g) == "rev-list" // $(git rev-list --all): every commit
		}
		if !revs {
			return ""
		}
		for _, a := range c.Args[1:] {
			if !strings.HasPrefix(a, "-") {
				pat = a
				break
			}
		}
		if c.Has("-e") {
			for i, a := range c.Args {
				if a == "-e" && i+1 < len(c.Args) {
					pat = c.Args[i+1]
				}
			}
		}
	case "log":
		if !c.Has("-p", "--patch", "-u") {
			return ""
		}
		for i, a := range c.Args {
			if (a == "-S" || a == "-G") && i+1 < len(c.Args) {
				pat = c.Args[i+1]
			} else if (strings.HasPrefix(a, "-S") || strings.HasPrefix(a, "-G")) && len(a) > 2 {
				pat = a[2:]
			}
		}
	}
	if pat == "" || !secretSearch(pat) {
		return ""
	}
	return fmt.Sprintf("git %s searches the whole history for secrets (%s): credentials removed long ago are printed again", sub(c), pat)
}

// grepSecretTreeRule: greps for secrets over configuration, devices or
// history (ask).
func grepSecretTreeRule() Rule {
	return readsOnly(Rule{ID: "core.secrets:grep-secret-tree", Mode: Ask, Tools: shellTools, On: On(FactGrepName, "git", "rg", "ag", "ack"), // the programs Match reads: git, rg, ag, ack and any name ending in grep
		Desc: "Searching configuration, a device or the repository's history for secrets' keys (grep -ri 'enable secret' configs/, rg -i password /etc/nginx, netmiko-grep 'snmp-server community' core-sw1, git log -p | grep -i password, git grep token $(git rev-list --all)): the matching lines print the values; the same search over code, counts and file lists stay allowed",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				if n := e.F.Commands[i].Name; n != "git" && !strings.HasSuffix(n, "grep") && n != "rg" && n != "ag" && n != "ack" {
					continue
				}
				if why := secretGrep(e, i); why != "" {
					return why
				}
			}
			return ""
		},
		Catch: []string{"grep -ri 'enable secret' configs/", "rg -i 'password|secret' /etc/nginx", "netmiko-grep 'snmp-server community|enable secret' core-sw1.dc1.example.net", "git log -p | grep -i password", "git grep -i token $(git rev-list --all)", "git log -p -S AWS_SECRET_ACCESS_KEY"},
		Allow: []string{"grep -rn password src/", "rg -i api_key --type py", "grep -rl 'enable secret' configs/", "git log -S password --oneline", "grep -ri timeout configs/", "git grep -n token", "grep -rc community configs/"}})
}

// settingsDump: c prints a running program's settings with their values
// (jcmd PID VM.system_properties, docker inspect, systemctl show, BSD-style
// ps eww; ps -e is every process, not the environment):
// the passwords passed as properties or environment are among them. The
// programs are data (policy/remoteops.txt settings-dump: prog or
// prog:sub); ps counts when its options ask for the environment (e).
func settingsDump(c *Cmd) bool {
	t := opsList("settings-dump")
	if t[c.Name] || t[c.Name+":"+sub(c)] {
		return true
	}
	if c.Name == "ps" {
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "-") && strings.Contains(a, "e") && strings.Trim(a, "auxwe") == "" {
				return true // ps eww, ps auxwwe: each process's environment
			}
		}
	}
	return false
}
