package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// rootQuery says what a command run as root only reads (sudo systemctl
// status nginx, sudo journalctl -u x, sudo lsof -i :80): "" when it may
// change something. Reading a secret as root is still judged by the path
// rules (sudo cat /etc/shadow is denied there).
func rootQuery(c *Cmd) string {
	if c.Name != "sudo" && c.Name != "doas" {
		return ""
	}
	in := callfacts.SkipFlags(c.Args, "ugpChrtUD")
	if len(in) == 0 {
		return ""
	}
	// root's own files (sudo ls /root, sudo -E cat /root/notes.txt) are
	// read like any others: a read as root is a read, and a secret among
	// them (/root/.ssh/id_rsa, /root/.aws/credentials) is judged by the
	// path rules (fp13; it asked before, harsher than the same read
	// elsewhere).
	name, args := callfacts.ProgramName(in[0]), in[1:]
	if name == "env" {
		in = envCommand(args) // sudo env VAR=1 git status: env only sets the variables
		if len(in) == 0 {
			return ""
		}
		name, args = callfacts.ProgramName(in[0]), in[1:]
	}
	bounded := false
	if name == "timeout" {
		bounded = true
		in = timeoutCommand(args) // sudo timeout 20 tcpdump …: timeout only bounds how long it runs
		if len(in) == 0 {
			return ""
		}
		name, args = callfacts.ProgramName(in[0]), in[1:]
	}
	if q := rootExecQuery(c, name, args); q != "" {
		return q // sudo lxc exec web -- tail log: the container's command reads (sudo_container_exec.go)
	}
	if q := rootQueryFp11(name, args, bounded); q != "" {
		return q // a dry run, a capture or a device image written to a scratch or project file (pack_root_reads.go)
	}
	first := ""
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			first = a
			break
		}
	}
	has := func(flags ...string) bool { return callfacts.HasArg(args, flags...) }
	switch name {
	case "ls", "cat", "less", "head", "tail", "grep", "rg", "stat", "du", "df", "lsof", "ss", "netstat", "ps", "id", "whoami",
		"lsblk", "blkid", "lspci", "lsusb", "lsmod", "dmidecode", "free", "uptime", "wc", "file", "getent", "findmnt", "pstree", "ip", "who", "last",
		"lvs", "vgs", "pvs", "lvdisplay", "vgdisplay", "pvdisplay", "lshw", "sensors", "lscpu", "lsns", "lslocks":
		if name == "ip" && !ipShow(args) {
			return ""
		}
		if has("-delete", "--delete", "-f") && name != "tail" && name != "grep" && name != "rg" && name != "ps" && name != "ls" {
			return ""
		}
		return name + " only reads"
	case "git":
		if gitReadSub[first] && !has("-c", "--global", "--system") {
			return "git " + first + " only reads"
		}
	case "systemctl":
		switch first {
		case "status", "show", "is-active", "is-enabled", "is-failed", "list-units", "list-unit-files", "list-timers", "list-sockets", "cat", "list-dependencies":
			return "systemctl " + first + " only reads"
		}
	case "journalctl":
		for _, a := range args {
			if strings.HasPrefix(a, "--vacuum") || a == "--rotate" || a == "--flush" || a == "--relinquish-var" || a == "--setup-keys" {
				return ""
			}
		}
		return "journalctl only reads the journal"
	case "dmesg":
		if !has("-c", "-C", "--clear", "--read-clear", "-n", "--console-level") {
			return "dmesg only reads the kernel log"
		}
	case "find":
		if !has("-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprintf", "-fls") {
			return "find only lists"
		}
	case "docker", "podman", "crictl":
		switch first {
		case "ps", "logs", "images", "inspect", "stats", "top", "version", "info", "events":
			return name + " " + first + " only reads"
		}
	case "iptables", "ip6tables", "nft":
		if has("-L", "--list", "-S", "--list-rules") || name == "nft" && first == "list" {
			return name + " only lists rules"
		}
	case "ufw":
		if first == "status" {
			return "ufw status only reads"
		}
	case "fdisk", "sfdisk", "parted", "gdisk":
		if has("-l", "--list") {
			return name + " only lists partitions"
		}
	case "nginx", "apachectl", "apache2ctl", "sshd":
		if has("-t", "-T", "configtest") || first == "configtest" {
			return name + " only tests its configuration"
		}
	case "tcpdump":
		if !has("-w") {
			return "tcpdump only reads traffic"
		}
	default:
		if q := adminReport(name, args); q != "" {
			return q // repquota, exportfs -v, slapcat (pack_admin_reports.go)
		}
		if adminSocketRead(c, name, args) {
			return name + " only asks an admin socket for reports"
		}
	}
	return ""
}

// ipShow reports whether ip's arguments only show (ip addr, ip route
// show, ip -4 link list), not set, add or delete.
func ipShow(args []string) bool {
	var pos []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			pos = append(pos, a)
		}
	}
	if len(pos) == 0 {
		return false
	}
	reads := func(w string) bool {
		return w == "show" || w == "list" || w == "ls" || w == "lst" || w == "get" || w == "count"
	}
	switch pos[0] {
	case "addr", "a", "address", "route", "r", "link", "l", "neigh", "n", "rule", "ru", "maddr", "maddress", "tunnel", "tuntap", "mroute", "ntable", "token", "vrf", "netconf", "nexthop", "nh", "netns", "monitor", "mptcp", "stats", "-6", "-4":
		return len(pos) == 1 || reads(pos[1]) || pos[0] == "monitor"
	case "xfrm":
		// ip xfrm state, ip xfrm policy list: the IPsec associations
		return len(pos) >= 2 && (pos[1] == "state" || pos[1] == "policy" || pos[1] == "monitor") && (len(pos) == 2 || reads(pos[2]))
	}
	return false
}

func sudoQueryRule() Rule {
	return cmdRule("core.shell:sudo-query", Audit, "Read-only queries as root (sudo systemctl status, journalctl, lsof, ss, docker ps): recorded", []string{"sudo", "doas"},
		func(e *Env, c *Cmd) string {
			if q := rootQuery(c); q != "" {
				return c.Name + ": " + q + ": " + c.String()
			}
			return ""
		},
		[]string{"sudo systemctl status nginx", "sudo journalctl -u app --since today", "sudo lsof -i :80", "doas ss -tlnp", "sudo docker ps -a"},
		[]string{"sudo systemctl restart nginx", "sudo ip link set eth0 down", "sudo journalctl --vacuum-time=1d", "sudo find / -name x -delete", "sudo dmesg -C", "systemctl status nginx"})
}
