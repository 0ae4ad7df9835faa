package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// What a remote command does, by its name. Hosting panels and
// appliances ship their administration as scripts named verb-first
// (cPanel's /scripts/removeacct, killacct, suspendacct, restartsrv_httpd,
// rebuildhttpdconf; a site's delete_user.sh): warden has no table for
// them, but the verb that leads the name says what they do on the host
// they run on. Run there through a remote shell (or as root by a path
// outside the project), a name that leads with a destroying verb is
// denied (an account, a site, a database gone for every customer on the
// server), one that leads with a changing verb asks; a lab host asks for
// both. A file renamed or moved away on another host (mv
// public_html/.htaccess …bak) changes what that host serves: it asks,
// its scratch directories excepted.

// scriptDestroyVerbs and scriptChangeVerbs lead a script's name.
var (
	scriptDestroyVerbs = []string{"remove", "kill", "delete", "destroy", "purge", "wipe", "drop", "terminate", "erase", "nuke", "uninstall", "deprovision", "decommission"}
	scriptChangeVerbs  = []string{"restart", "stop", "suspend", "unsuspend", "reboot", "shutdown", "disable", "enable", "reset", "restore", "rebuild", "reload",
		"upgrade", "update", "install", "migrate", "deploy", "rollback", "modify", "change", "rename", "move", "transfer", "fix", "convert", "park", "unpark", "setup", "create", "add"}
)

// scriptVerb is the destroying ("destroy") or changing ("change") verb
// that leads the name of the program c runs, "" for none or a program
// warden knows by its own table.
func scriptVerb(c *Cmd) (kind, verb string) {
	base := strings.ToLower(path.Base(c.Name))
	if callfacts.Known(base) || callfacts.IsShell(base) || callfacts.IsInterpreter(base) {
		return "", ""
	}
	base = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(base, ".sh"), ".pl"), ".py")
	first := strings.FieldsFunc(base, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	if len(first) == 0 {
		return "", ""
	}
	if len(first) > 1 && first[0] == "rc" {
		// an appliance's rc scripts (pfSense's
		// /etc/rc.filter_configure, rc.reload_all, rc.restart_webgui)
		// name the verb after what it acts on
		for _, w := range first[1:] {
			if k, v := leadVerb(w); k != "" {
				return k, v
			}
			if w == "configure" || w == "apply" || w == "resync" || w == "sync" {
				return "change", w
			}
		}
		return "", ""
	}
	if k, v := leadVerb(first[0]); k != "" {
		return k, v
	}
	if ext := path.Ext(strings.ToLower(c.Name)); strings.Contains(c.Raw, "/") || ext == ".sh" || ext == ".py" || ext == ".pl" {
		return trailVerb(first) // a script by its path or suffix; installed programs (freebsd-update, nixos-rebuild) are judged by their own tables
	}
	return "", ""
}

// trailVerb reads a product's own updater, named product first and verb
// last (btcpay-update.sh, nextcloud_upgrade.sh, mailcow-restart): the
// last word is one of the changing verbs, whole, and the first is no
// read verb (check-update.sh only looks). Only a change: a destroying
// verb must lead the name to deny.
func trailVerb(words []string) (kind, verb string) {
	if len(words) < 2 || opsList("script-read-verb")[words[0]] {
		return "", ""
	}
	last := words[len(words)-1]
	for _, v := range scriptChangeVerbs {
		if last == v {
			return "change", v
		}
	}
	return "", ""
}

// leadVerb is the destroying or changing verb word w starts with.
func leadVerb(w string) (kind, verb string) {
	for _, v := range scriptDestroyVerbs {
		if strings.HasPrefix(w, v) {
			return "destroy", v
		}
	}
	for _, v := range scriptChangeVerbs {
		if strings.HasPrefix(w, v) {
			return "change", v
		}
	}
	return "", ""
}

// adminScriptRun judges the i-th command: a verb-named script run on
// another host, or as root by a path outside the project.
func adminScriptRun(e *Env, i int) (string, string) {
	c := &e.F.Commands[i]
	if onlyHelp(c) || e.dryRun(c) {
		return "", ""
	}
	remote := remotePayload(c) || c.RunsElsewhere()
	root := !remote && underSudo(c) && strings.HasPrefix(c.Raw, "/") && !under(c.Raw, e.F.Project)
	if !remote && !root {
		return "", ""
	}
	kind, verb := scriptVerb(c)
	where := "another host"
	if root {
		where = "this server (run as root)"
	}
	switch {
	case kind == "change" && !root && sshLab(e):
		return "", "" // a lab, dev or test host's change (ssh lab-fw1 …) is the developer's own
	case kind == "destroy" && (root || !launcherOnLab(e, i)):
		return "deny", c.Name + " (its name leads with " + verb + ") destroys on " + where + ": " + c.String()
	case kind != "":
		return "ask", c.Name + " (its name says " + verb + ") changes " + where + ": " + c.String()
	}
	return "", ""
}

// underSudo: c runs as root through sudo or doas.
func underSudo(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if w == "sudo" || w == "doas" {
			return true
		}
	}
	return false
}

// remoteRename: c, run on another host through a remote shell, moves or
// renames a file there outside its scratch directories; the source, ""
// for none. A relative path there is below the remote user's home.
func remoteRename(e *Env, c *Cmd) string {
	if c.Name != "mv" || !c.RunsElsewhere() || len(c.Pos) < 2 || onlyHelp(c) {
		return ""
	}
	for _, s := range c.Pos[:len(c.Pos)-1] {
		if remoteKept(e, c, s) {
			return s
		}
	}
	return ""
}

// remoteKept: s, a path argument of c run on another host, is outside
// that host's scratch (a relative path there is below the remote home).
func remoteKept(e *Env, c *Cmd, s string) bool {
	if !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "~") && !strings.HasPrefix(s, "$") {
		return !remoteScratchRel(s)
	}
	p := e.abs(c, s)
	return !strings.HasPrefix(p, "/dev/") && !tempDir(p) && !callfacts.UserScratch(p, e.F.Home) && !callfacts.RemoteScratch(c, p, e.F.Home)
}

// remoteWorldOpen: c, run on another host (ssh, an FTP client's script),
// makes a whole tree writable by every account there (chmod -R 777
// public_html): a web root or a home anyone on the server, or any site
// script, can then rewrite; the path, "" for none.
func remoteWorldOpen(e *Env, c *Cmd) string {
	if c.Name != "chmod" && c.Name != "setfacl" || !sshPayload(c) && !c.RunsElsewhere() || !worldWritable(c) || !treeWide(c) {
		return ""
	}
	for i, s := range c.Pos {
		if c.Name == "chmod" && i == 0 {
			continue // the mode
		}
		if remoteKept(e, c, s) {
			return s
		}
	}
	return ""
}

// remoteScratchRel: rel, a path relative to the remote home, lies in a
// tmp, cache or scratch folder there.
func remoteScratchRel(rel string) bool {
	for _, d := range strings.Split(rel, "/") {
		switch strings.ToLower(d) {
		case "tmp", "temp", ".cache", "cache", "scratch":
			return true
		}
	}
	return false
}

func remoteScriptNameRules() []Rule {
	launchers := append(callfacts.RemoteShellTools(), "ssh", "mosh", "autossh", "sudo", "doas", "pwsh", "powershell", "powershell.exe", "pwsh.exe", "pdsh", "clush", "pssh")
	judge := func(want string) func(e *Env) string {
		return func(e *Env) string {
			for i := range e.F.Commands {
				if lvl, why := adminScriptRun(e, i); lvl == want {
					return why
				}
			}
			return ""
		}
	}
	return append(apiRPCRules(), []Rule{ // pack_api_rpcget.go
		{ID: "external.systems:remote-script-destroy", Mode: Deny, Tools: shellTools, Cmds: launchers,
			Desc:  "A script whose name leads with a destroying verb (removeacct, killacct, delete_site.sh, purge-db) run on another host or as root by its path: a hosting panel's or an appliance's own administration, an account, site or database gone for everyone on the server; a lab host asks",
			Match: judge("deny"),
			Catch: []string{"ssh root@whm.example.net '/scripts/removeacct --force shopdemo'", "ssh root@panel '/scripts/killacct bakery'", "ssh admin@web2 '/opt/tools/delete_site.sh shop'", "sudo /usr/local/cpanel/scripts/removeacct olduser"},
			Allow: []string{"ssh root@whm '/scripts/restartsrv_httpd --status'", "ssh web1 'ls /scripts'", "./scripts/remove-build.sh", "ssh dev-box '/scripts/removeacct test1'", "ssh h 'rm -rf /tmp/x'"}},
		{ID: "external.systems:remote-script-change", Mode: Ask, Tools: shellTools, Cmds: launchers,
			Desc:  "A script whose name leads with a changing verb (restartsrv_httpd, suspendacct, rebuildhttpdconf, update_users.sh) run on another host or as root by its path: the host and what it serves change",
			Match: judge("ask"),
			Catch: []string{"ssh root@whm.example.net '/scripts/restartsrv_httpd'", "ssh root@whm '/scripts/suspendacct shop \"unpaid\"'", "ssh root@panel '/scripts/rebuildhttpdconf'", "sudo /opt/app/bin/reset-cache.sh", "ssh dev-box '/scripts/removeacct test1'", "ssh pay1 'cd btcpayserver-docker && ./btcpay-update.sh'", "ssh cloud 'sudo -u www-data ./nextcloud_upgrade.sh'"},
			Allow: []string{"ssh web1 '/scripts/checkallsslcerts'", "ssh root@whm '/scripts/whoowns example.com'", "bash scripts/restart-dev.sh", "ssh h 'uptime'", "sudo /usr/bin/systemctl status nginx", "ssh pay1 './check-update.sh'", "ssh pay1 './btcpay-updates-log.sh'"}},
		{ID: "external.systems:remote-world-writable", Mode: Deny, Tools: shellTools, Cmds: append([]string{"ssh", "mosh", "autossh"}, callfacts.RemoteShellTools()...),
			Desc: "A whole tree made writable by every account on another host (ssh web1 'chmod -R 777 public_html', lftp -e 'chmod -R 777 public_html'): any account or script on that server can rewrite the site or the files; its scratch directories excepted",
			Match: func(e *Env) string {
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if s := remoteWorldOpen(e, c); s != "" {
						return c.Name + " makes " + s + " and everything under it writable by every account on another host: " + c.String()
					}
				}
				return ""
			},
			Catch: []string{"lftp -u acme,\"$P\" -e 'chmod -R 777 public_html; quit' ftp.acme.example", "ssh deploy@web1 'chmod -R 777 /srv/www/shop'", "ssh h 'chmod -R a+w uploads'", "ssh h 'setfacl -R -m o::rwx public_html'"},
			Allow: []string{"ssh h 'chmod -R 755 public_html'", "ssh h 'chmod -R 777 /tmp/build'", "chmod -R 777 ./build", "ssh h 'chmod 644 public_html/index.php'", "ssh h 'chmod -R 777 tmp/cache'"}},
		{ID: "external.systems:remote-rename", Mode: Ask, Tools: shellTools, Cmds: []string{"ssh", "mosh", "autossh", "pdsh", "clush", "pssh"},
			Desc: "A file moved or renamed on another host through a remote shell (mv public_html/.htaccess …bak, mv /etc/nginx/sites-enabled/a …): what that host serves or reads changes; its scratch directories are left out",
			Match: func(e *Env) string {
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if s := remoteRename(e, c); s != "" {
						return "mv moves " + s + " on another host: " + c.String()
					}
				}
				return ""
			},
			Catch: []string{"ssh deploy@web1 'mv public_html/.htaccess public_html/.htaccess.bak'", "ssh root@lb 'mv /etc/haproxy/haproxy.cfg /etc/haproxy/haproxy.cfg.old'", "ssh web2 'cd /var/www && mv current previous'"},
			Allow: []string{"ssh web1 'mv /tmp/a.log /tmp/b.log'", "ssh h 'mv tmp/build.tgz tmp/old.tgz'", "mv public_html/.htaccess public_html/.htaccess.bak", "ssh web1 'ls public_html'"}},
	}...)
}
