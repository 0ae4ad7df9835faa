package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Overwrites the zones table alone would only ask about.
//
// The system's own programs, libraries and boot files (/usr/lib, /lib,
// /usr/bin, /sbin, /boot) replaced by a file of the line (sudo cp
// build/libssl.so.3 /usr/lib/x86_64-linux-gnu/libssl.so.3, sudo dd
// of=/boot/initrd.img-…): every program that loads it, or the next boot,
// runs what the line built, and the vendor's copy is gone. A new file put
// there (a unit into /usr/lib/systemd/system/) and /usr/local stay the
// table's ask.

// systemCoreDirs are the directories of the system's own programs,
// libraries and boot files.
var systemCoreDirs = []string{"/boot", "/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/libexec", "/lib", "/lib64", "/lib32", "/usr/bin", "/usr/sbin", "/bin", "/sbin", "/efi"}

// systemCoreKept are the trees under them that hold units and rules,
// not programs (a new unit there is core.zones:autostart's).
var systemCoreKept = []string{"/usr/lib/systemd/", "/lib/systemd/", "/usr/lib/tmpfiles.d/", "/usr/lib/sysctl.d/", "/usr/lib/udev/rules.d/", "/lib/udev/rules.d/", "/usr/lib/modules-load.d/"}

// systemCoreFile: p is one of the system's own programs, libraries or
// boot files (not a unit or a data file its packages keep under /usr/lib).
func systemCoreFile(p string) bool {
	for _, d := range systemCoreDirs {
		if !under(p, d) || p == d {
			continue
		}
		for _, keep := range systemCoreKept {
			if strings.HasPrefix(p, keep) {
				return false
			}
		}
		return true
	}
	return false
}

func systemCoreRule() Rule {
	return Rule{ID: "core.zones:system-core-replace", Mode: Deny, Tools: shellTools, On: On(FactTouch),
		Desc: "Replacing one of the system's own programs, libraries or boot files (sudo cp build/libssl.so.3 /usr/lib/x86_64-linux-gnu/, sudo dd of=/boot/initrd.img-…, > /usr/bin/x): every program that loads it, or the next boot, runs what the line put there and the packaged copy is gone; a new file there, or /usr/local, is core.zones:ask",
		Match: func(e *Env) string {
			for _, tc := range e.Touches() {
				if (tc.Effect == callfacts.PathOverwrite || tc.Effect == callfacts.PathTruncate) && tc.Zone == callfacts.ZoneSystem && systemCoreFile(tc.Path) && !leftoverFind(e, tc.Via) {
					return tc.Via + " replaces " + tc.Path + ", a file of the system's own programs, libraries or boot (" + path.Dir(tc.Path) + ")"
				}
			}
			return ""
		},
		Catch: []string{"sudo cp build/libssl.so.3 /usr/lib/x86_64-linux-gnu/libssl.so.3", "sudo dd if=build/initrd.img of=/boot/initrd.img-6.1.0-18-amd64", "sudo install -m755 build/ls /usr/bin/ls", "cat patched > /lib/x86_64-linux-gnu/libc.so.6", "sudo tee /boot/grub/grub.cfg < grub.cfg", "sudo cp vmlinuz /boot/vmlinuz-6.1.0-18-amd64"},
		Allow: []string{"sudo cp build/app /usr/local/bin/app", "ls /usr/lib/x86_64-linux-gnu", "cp /usr/bin/ls /tmp/ls", "sudo cp app.service /usr/lib/systemd/system/", "ldd /usr/bin/ls", "sha256sum /boot/vmlinuz"}}
}

// etcDryRun: every command of the line named via only says what it
// would do (rsync --dry-run … /etc/x/): the path it names is not written.
func etcDryRun(e *Env, via string) bool {
	found := false
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if c.Name != via {
			continue
		}
		if !e.dryRun(c) {
			return false
		}
		found = true
	}
	return found
}

// ftpSessionChange: the i-th command is a command of an FTP or SMB
// session's script (lftp -e 'put -O /public_html index.html; bye' ftp.x)
// that changes the server's files; "" otherwise.
func ftpSessionChange(e *Env, i int) string {
	c := &e.F.Commands[i]
	if !remotePayload(c) {
		return ""
	}
	verb := strings.ToLower(c.Name)
	if !opsList("ftp-change-verbs")[verb] || !c.Has("-O", "-o") && len(c.Pos) < 2 {
		return "" // put site.zip: into the login's directory, under a new name
	}
	for j := i - 1; j >= 0; j-- {
		l := &e.F.Commands[j]
		if len(l.Wrappers) >= len(c.Wrappers) {
			continue
		}
		if l.Name != "lftp" && l.Name != "smbclient" {
			return ""
		}
		if launcherOnLab(e, i) || e.localOnly(j) {
			return ""
		}
		return l.Name + "'s " + verb + " changes the server's files: " + c.String()
	}
	return ""
}

func ftpChangeRule() Rule {
	return Rule{ID: "external.systems:ftp-change", Mode: Ask, Tools: shellTools, Cmds: []string{"lftp", "smbclient"},
		Desc:  "An FTP or SMB session's script that puts a file at a place on the server the line names (lftp -e 'put -O /public_html dist/index.html; bye' ftp.x, smbclient //fs/share -c 'put q3.xlsx reports/q3.xlsx'): the file others use there is replaced; a put into the login's directory, mirror -R, listings and downloads stay allowed; the verbs are data (policy/remoteops.txt ftp-change-verbs)",
		Match: func(e *Env) string { return firstAt(e, ftpSessionChange) },
		Catch: []string{`lftp -u webmaster -e "put -O /public_html dist/index.html; bye" ftp.acme-shop.com`, `lftp -e "put dist/index.php -o /htdocs/index.php; quit" ftp.acme-shop.com`, `smbclient //fs01/finance -U alice -c 'put q3.xlsx reports/q3.xlsx'`},
		Allow: []string{`lftp -e "mirror /public_html ./backup; quit" ftp.acme-shop.com`, `lftp -u u,p -e "put site.zip; quit" ftp.example-hosting.net`, `lftp -e "ls; bye" ftp.acme-shop.com`, `smbclient //fs01/finance -U alice -c 'ls'`, `lftp -e "get index.html; bye" ftp.acme-shop.com`}}
}

// containerCopyIn: c copies a file of this machine into a container
// named for production (docker cp nginx.conf proxy-prod:/etc/nginx/…).
func containerCopyIn(c *Cmd) string {
	if c.Sub(0) != "cp" && !(c.Sub(0) == "container" && c.Sub(1) == "cp") || e2dry(c) {
		return ""
	}
	pos := c.Pos
	if len(pos) < 3 {
		return ""
	}
	dst, src := pos[len(pos)-1], pos[len(pos)-2]
	ctr, _, ok := strings.Cut(dst, ":")
	if !ok || ctr == "" || strings.ContainsAny(ctr, "/.~") || strings.Contains(src, ":") && !strings.HasPrefix(src, "/") {
		return ""
	}
	if !prodWord.MatchString(ctr) {
		return ""
	}
	return c.Name + " copies " + src + " into the production container " + ctr + ", over what is there: " + c.String()
}

func e2dry(c *Cmd) bool { return c.Has("--help", "-h") }

func containerCopyRule() Rule {
	return cmdRule("external.systems:container-copy-in", Ask, "A file of this machine copied into a production container (docker cp nginx.conf proxy-prod:/etc/nginx/nginx.conf): the running service's file is replaced outside its image and deploys; copies out of a container read", []string{"docker", "podman", "nerdctl"},
		func(e *Env, c *Cmd) string { return containerCopyIn(c) },
		[]string{"docker cp nginx.conf proxy-prod:/etc/nginx/nginx.conf", "podman cp ./settings.py web_prod:/app/settings.py", "docker container cp fix.js api-production:/srv/app/fix.js"},
		[]string{"docker cp proxy-prod:/etc/nginx/nginx.conf ./nginx.prod.conf", "docker cp seed.sql db:/tmp/seed.sql", "docker cp ./x web-dev:/app/x"})
}

// overwriteRules are this batch's zone rules (zonesPack appends them).
func overwriteRules() []Rule { return []Rule{systemCoreRule()} }

// overwriteExternalRules are its rules on other systems (the
// external.systems pack appends them).
func overwriteExternalRules() []Rule {
	return []Rule{ftpChangeRule(), containerCopyRule(), getActionRule()}
}

// getActionURL: one of c's URLs is an application server's manager
// action that acts on a plain GET (Tomcat's /manager/text/reload?path=/shop,
// Solr's /admin/cores?action=UNLOAD): the method says nothing; "" for
// none, or for a local, dev or lab host. The paths are data
// (policy/remoteops.txt get-action-path).
func getActionURL(c *Cmd) string {
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") || !strings.Contains(a, "://") {
			continue
		}
		p := strings.ToLower(urlPath(a))
		if p == "" {
			continue
		}
		for _, w := range opsWords("get-action-path") {
			if !strings.Contains(p, w) {
				continue
			}
			h := urlHost(a)
			if h == "" || h == "localhost" || strings.HasPrefix(h, "127.") || devName(h) || callfacts.LabTarget(h, nil) {
				return ""
			}
			return a
		}
	}
	return ""
}

func getActionRule() Rule {
	return cmdRule("external.systems:get-action", Ask, "An application server's manager action that acts on a plain GET (curl -u admin:x 'https://tomcat.prod/manager/text/reload?path=/shop', Solr's admin/cores?action=unload): the application reloads, stops, or is undeployed for everyone using it; the manager's list and status stay allowed; the paths are data (policy/remoteops.txt get-action-path)", apiClients,
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) {
				return ""
			}
			if u := getActionURL(c); u != "" {
				return c.Name + " calls a server manager's action (" + urlPath(u) + "): " + c.String()
			}
			return ""
		},
		[]string{`curl -u admin:"$TOMCAT_PASS" "https://tomcat.prod.acme.net/manager/text/reload?path=/shop"`, `curl -u admin:x "https://app01.acme.net:8080/manager/text/undeploy?path=/api"`, `wget -qO- "http://admin:x@tc2.acme.net/manager/text/stop?path=/billing"`,
			`curl "https://solr.acme.net/solr/admin/cores?action=UNLOAD&core=products&deleteIndex=true"`},
		[]string{`curl -u admin:x "https://tomcat.prod.acme.net/manager/text/list"`, `curl -u admin:x "http://localhost:8080/manager/text/reload?path=/shop"`, `curl "https://solr.acme.net/solr/admin/cores?action=STATUS"`, `curl -u admin:x "https://tomcat.prod.acme.net/manager/text/serverinfo"`})
}
