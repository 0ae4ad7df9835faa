package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Administrators' reports, run as root. Who is in which
// group, how much each user stores, what a file server exports, what the
// directory holds, what a load balancer's admin socket says: each needs
// root to read and changes nothing. Their setting forms (setquota,
// exportfs -ra, ldapmodify, an admin socket told "disable server") are
// hostacts.txt's and stay asked. A directory dump (slapcat) prints
// password hashes: the secret rules judge it on their own, and a count or
// a filter of it is not a print.

// adminReadOnly are report programs that have no setting form at all.
var adminReadOnly = map[string]bool{"repquota": true, "quota": true, "showmount": true, "getfacl": true, "lastlog": true,
	"slapcat": true, "ldapsearch": true, "smbstatus": true, "testparm": true, "members": true, "groups": true, "nfsstat": true,
	"mmlsquota": true, "mmlsfs": true, "mmlsfileset": true, "mmrepquota": true,
	// fpround: a mail log summarised (pflogsumm), a ZFS pool's on-disk
	// state printed by its debugger (zdb opens the pool read-only)
	"pflogsumm": true, "zdb": true}

// adminSocketReads are the first words of an admin socket's commands that
// only report (HAProxy's show stat/info/servers state, help; memcached's
// stats; ZooKeeper's four-letter words that report).
var adminSocketReads = map[string]bool{"show": true, "help": true, "stats": true, "stat": true, "info": true, "version": true,
	"ruok": true, "mntr": true, "srvr": true, "cons": true, "envi": true, "conf": true, "wchs": true, "get": true, "list": true, "status": true}

// adminReport says what an administrator's report program run as root
// only reads, "" when it may change something (name and args as run
// under sudo).
func adminReport(name string, args []string) string {
	has := func(flags ...string) bool { return callfacts.HasArg(args, flags...) }
	switch {
	case adminReadOnly[name]:
		return name + " only reports"
	case name == "exportfs":
		// bare, -v and -s list what is exported; -r, -a, -u, -o change it
		for _, a := range args {
			if a != "-v" && a != "-s" {
				return ""
			}
		}
		return "exportfs only lists the exports"
	case name == "chage" || name == "faillog":
		if has("-l", "--list") && !has("-r", "--reset", "-m", "-M", "-E", "-W", "-I", "-d", "-l0") || name == "faillog" && len(args) == 0 {
			return name + " only lists"
		}
	case name == "lfs":
		switch first := firstArgWord(args); first {
		case "quota", "df", "getstripe", "find", "ls", "check", "getdirstripe", "path2fid", "fid2path":
			return "lfs " + first + " only reports"
		}
	case name == "xfs_quota":
		// without -x only reports; with it, only the report commands
		if !has("-x") {
			return "xfs_quota without -x only reports"
		}
		for i, a := range args {
			if a == "-c" && i+1 < len(args) {
				switch strings.Fields(args[i+1] + " x")[0] {
				case "report", "print", "df", "quota", "state", "free", "help":
					continue
				}
				return ""
			}
		}
		return "xfs_quota only reports"
	case name == "sssctl":
		switch first := firstArgWord(args); first {
		case "user-checks", "domain-list", "domain-status", "config-check", "user-show", "group-show", "netgroup-show", "logs-fetch", "analyze":
			return "sssctl " + first + " only reports"
		}
	case adminQueryForm(name, args) != "":
		return adminQueryForm(name, args) // postmap -q, postconf mail_version, bare zpool import (pack_admin_queryforms.go)
	case name == "pdbedit":
		if has("-L", "--list") && !has("-a", "-x", "-r", "--create", "--delete", "--modify") {
			return "pdbedit -L only lists"
		}
	}
	return ""
}

// adminSocketRead: c talks to a local admin socket (socat stdio
// UNIX:/run/haproxy/admin.sock, nc -U …) and every command the line
// feeds it only reports (echo 'show stat' | sudo socat stdio admin.sock).
func adminSocketRead(c *Cmd, name string, args []string) bool {
	if name != "socat" && name != "nc" && name != "ncat" && name != "netcat" {
		return false
	}
	sock := false
	for _, a := range args {
		l := strings.ToLower(a)
		if strings.HasSuffix(l, ".sock") || strings.HasSuffix(l, ".socket") || strings.HasPrefix(l, "unix:") || strings.HasPrefix(l, "unix-connect:") {
			sock = true
		}
		if strings.Contains(l, "exec:") || strings.Contains(l, "system:") || strings.Contains(l, "open:") || strings.Contains(l, "create:") {
			return false // socat running a program or writing a file
		}
	}
	text := strings.TrimSpace(c.Heredoc)
	if !sock || text == "" {
		return false
	}
	for _, l := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == ';' }) {
		if f := strings.Fields(l); len(f) > 0 && !adminSocketReads[strings.ToLower(f[0])] {
			return false
		}
	}
	return true
}

// firstArgWord is the first argument that is not an option.
func firstArgWord(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// ansibleFactsOnly: an ad hoc ansible run whose module only gathers or
// checks (-m ping, -m setup, -m ansible.builtin.stat, any *_facts or
// *_info module): it reads the hosts of a production inventory and
// changes none. Modules that run a payload (shell, command,
// raw, script) are not here: what they run is judged where it is read.
func ansibleFactsOnly(c *Cmd) bool {
	if c.Name != "ansible" {
		return false
	}
	m := ansibleModule(c)
	if i := strings.LastIndexByte(m, '.'); i >= 0 {
		m = m[i+1:] // ansible.builtin.ping, community.general.xxx_info
	}
	switch m {
	case "ping", "win_ping", "setup", "gather_facts", "stat", "win_stat", "debug", "service_facts", "package_facts", "listen_ports_facts", "getent", "find", "win_find", "mount_facts":
		return true
	}
	return strings.HasSuffix(m, "_facts") || strings.HasSuffix(m, "_info")
}
