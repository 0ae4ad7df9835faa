package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Files pushed onto another host, beyond its system files
// (remote-copy in pack_staged_upload.go): a network device's own file
// system (scp image.bin sw1:flash:) and anything but scratch on a host
// named for production (an install into its /opt, a site into its
// /var/www). A host named for a lab, dev, test or staging takes pushes
// freely, and so does an unnamed one's /srv or /var/www: deploying a
// site to one's own server is everyday work (the corpora say so).

// deviceFileSystems open a path on a network device.
var deviceFileSystems = []string{"flash:", "bootflash:", "disk0:", "disk1:", "slot0:", "nvram:", "usbflash", "harddisk:", "sup-bootflash:", "logflash:"}

// pushedOntoHost: why c's copy of files to path p on host changes that
// host; "" when it does not.
func pushedOntoHost(host, p string, c *Cmd) string {
	for _, fs := range deviceFileSystems {
		if strings.HasPrefix(strings.ToLower(p), fs) {
			return c.Name + " writes " + p + " onto the file system of the network device " + host + ": " + c.String()
		}
	}
	h := host
	if _, after, ok := strings.Cut(h, "@"); ok {
		h = after
	}
	if callfacts.LabTarget(h, nil) || devName(h) || stagingName(h) {
		return ""
	}
	if d := appDirOf(p); d != "" {
		return c.Name + " writes " + p + " on " + host + ", into " + d + ", a directory its application server deploys from: " + c.String()
	}
	if prodWord.MatchString(h) && !strings.HasPrefix(p, "/tmp/") && !strings.HasPrefix(p, "/var/tmp/") && p != "/tmp" && !strings.HasPrefix(p, "tmp/") {
		return c.Name + " writes " + p + " on " + host + ", a production host: " + c.String()
	}
	return ""
}

// systemdHostTools take -H/--host [USER@]HOST and act there over ssh.
var systemdHostTools = []string{"systemctl", "loginctl", "machinectl", "hostnamectl", "timedatectl", "localectl"}

// systemdReads are their verbs that only look.
var systemdReads = map[string]bool{"status": true, "show": true, "cat": true, "is-active": true, "is-enabled": true, "is-failed": true, "is-system-running": true,
	"get-default": true, "help": true, "list-units": true, "list-unit-files": true, "list-timers": true, "list-sockets": true, "list-jobs": true,
	"list-dependencies": true, "list-sessions": true, "list-users": true, "list-seats": true, "list-machines": true, "list-images": true, "list": true,
	"show-session": true, "show-user": true, "session-status": true, "user-status": true, "seat-status": true, "image-status": true, "list-timezones": true, "list-locales": true, "list-keymaps": true}

// hostOptionChangeRule: a systemd tool pointed at another host by -H
// (systemctl -H deploy@web2 restart app): it changes that host as ssh
// would; reads and a lab, dev or test host stay allowed.
func hostOptionChangeRule() Rule {
	return cmdRule("external.systems:host-option-change", Ask, "A systemd tool pointed at another host by -H/--host (systemctl --host deploy@web2 restart app, hostnamectl -H h set-hostname x): it changes that host as a remote shell would; status, show and list verbs and a lab, dev or test host stay allowed", systemdHostTools,
		func(e *Env, c *Cmd) string {
			host, verb := "", ""
			for i := 0; i < len(c.Args); i++ {
				a := c.Args[i]
				switch {
				case (a == "-H" || a == "--host") && i+1 < len(c.Args):
					i++
					host = c.Args[i]
				case strings.HasPrefix(a, "--host="):
					host = a[len("--host="):]
				case strings.HasPrefix(a, "-H") && len(a) > 2 && !strings.HasPrefix(a, "--"):
					host = a[2:]
				case (a == "-M" || a == "--machine" || a == "-p" || a == "--property" || a == "-t" || a == "--type" || a == "-s" || a == "--signal" || a == "-n" || a == "--lines" || a == "-o" || a == "--output") && i+1 < len(c.Args):
					i++
				case verb == "" && !strings.HasPrefix(a, "-"):
					verb = strings.ToLower(a)
				}
			}
			if k, v, ok := strings.Cut(c.Remote, "="); ok && (k == "-H" || k == "--host") {
				host = v // set aside from Args as a global option (callfacts tools.txt globals=)
			}
			h := host
			if _, after, ok := strings.Cut(h, "@"); ok {
				h = after
			}
			if host == "" || verb == "" || systemdReads[verb] || e.dryRun(c) || callfacts.LabTarget(h, nil) || devName(h) {
				return ""
			}
			return c.Name + " " + verb + " acts on " + host + " through -H: " + c.String()
		},
		[]string{"systemctl --host deploy@app-2.example.net restart app", "systemctl -H web3 stop nginx", "hostnamectl -H root@db1 set-hostname db1-old"},
		[]string{"systemctl -H web3 status nginx", "systemctl --host deploy@dev-box restart app", "systemctl restart app --user", "systemctl -H web3 list-units --failed"})
}

// remoteAppSegments are an application server's hot-deploy directories
// (tomcat/webapps, mule/apps, jboss/standalone/deployments): a file copied
// there is deployed within seconds and changes what the host serves; its
// /tmp or a home directory is only a file handed over. A web root
// (/var/www, /srv) a site is copied into stays allowed, as the corpora
// say.
var remoteAppSegments = map[string]bool{"webapps": true, "apps": true, "deploy": true, "deployments": true, "autodeploy": true, "hotdeploy": true}

// appDirOf names the application directory p is in on its host, "" for
// none.
func appDirOf(p string) string {
	l := strings.ToLower(p)
	if !strings.HasPrefix(l, "/") || strings.HasPrefix(l, "/home/") || strings.HasPrefix(l, "/tmp/") || strings.HasPrefix(l, "/var/tmp/") {
		return "" // a home directory's deploy/ or apps/ is a file handed over
	}
	segs := strings.Split(strings.Trim(l, "/"), "/")
	for i, s := range segs {
		if remoteAppSegments[s] && (i < len(segs)-1 || strings.HasSuffix(l, "/")) {
			return s + "/"
		}
	}
	return ""
}
