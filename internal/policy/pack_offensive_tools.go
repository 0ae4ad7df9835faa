package policy

import (
	"net"
	"strings"
)

// Offensive tools aimed outside a lab. A security engineer attacks the
// lab's hosts all day (private addresses, *.lab, *.local, scanme.nmap.org);
// the same tool aimed at a public host or address attacks someone else's
// system: an exploit, a command shell through an injection, a password
// guessing run, a vulnerability script. Reconnaissance (nmap -sV, a ping
// sweep) is not an attack. Tools that poison a network segment's name
// resolution (responder, mitm6, bettercap) attack every machine on it,
// wherever they are run, unless only listening (responder -A).

// attackTools attack whatever they are aimed at.
var attackTools = map[string]bool{"sqlmap": true, "hydra": true, "medusa": true, "ncrack": true, "patator": true, "crackmapexec": true, "nxc": true, "netexec": true,
	"kerbrute": true, "evil-winrm": true, "commix": true, "xsstrike": true, "wpscan": true, "msfconsole": true, "routersploit": true, "thc-hydra": true}

// poisoners answer or spoof on the local network for every machine on it.
var poisoners = map[string]bool{"responder": true, "mitm6": true, "bettercap": true, "ettercap": true, "arpspoof": true, "dnsspoof": true, "yersinia": true}

// attackScripts: nmap NSE script categories and names that attack rather
// than look (vuln, exploit, brute, dos, intrusive, *-brute).
func attackScripts(v string) bool {
	for _, s := range strings.Split(strings.ToLower(v), ",") {
		s = strings.Trim(s, "\"' ")
		switch {
		case s == "vuln" || s == "exploit" || s == "brute" || s == "dos" || s == "intrusive" || strings.HasSuffix(s, "-brute") || strings.HasPrefix(s, "vulners") || strings.Contains(s, "-vuln-"):
			return true
		}
	}
	return false
}

// fileExts are the endings of files (word lists, scope lists, reports)
// that stand among an attack tool's arguments beside the target.
var fileExts = map[string]bool{"txt": true, "lst": true, "list": true, "json": true, "xml": true, "csv": true, "log": true, "gnmap": true, "nmap": true, "sh": true, "py": true,
	"yml": true, "yaml": true, "conf": true, "ini": true, "pcap": true, "md": true, "html": true, "rc": true, "dic": true, "dict": true, "out": true, "elf": true, "exe": true}

// hostOfTarget: the host an argument names (a URL's, ssh://h, h:port,
// an address or a dotted name), "" when it names none.
func hostOfTarget(a string) string {
	a = strings.Trim(a, "\"'")
	if i := strings.Index(a, "://"); i > 0 {
		a = a[i+3:]
		if j := strings.IndexAny(a, "/?#"); j >= 0 {
			a = a[:j]
		}
		if j := strings.LastIndex(a, "@"); j >= 0 {
			a = a[j+1:]
		}
	} else if strings.ContainsAny(a, "/=") && !strings.Contains(a, "/") || strings.HasPrefix(a, "/") || strings.HasPrefix(a, ".") || strings.HasPrefix(a, "~") {
		return ""
	}
	if _, _, err := net.ParseCIDR(a); err == nil {
		return a
	}
	if h, _, err := net.SplitHostPort(a); err == nil {
		a = h
	}
	if net.ParseIP(a) != nil {
		return a
	}
	labels := strings.Split(strings.ToLower(a), ".")
	if len(labels) < 2 {
		if labels[0] == "localhost" {
			return a
		}
		return ""
	}
	tld := labels[len(labels)-1]
	if fileExts[tld] || len(tld) < 2 || len(tld) > 12 || strings.ContainsAny(tld, "0123456789_*:/") {
		return ""
	}
	return strings.ToLower(a)
}

// labHosts are public hosts made to be attacked for practice.
var labHosts = []string{"scanme.nmap.org", "vulnweb.com", "hackthebox.com", "hackthebox.eu", "tryhackme.com", "example.com", "example.org", "example.net", "pentesterlab.com", "dvwa"}

// labTarget: host is a lab's: a private, loopback or link-local address,
// a name of a lab, local or test place, a practice host.
func labTarget(host string) bool {
	ip := net.ParseIP(host)
	if ipn, n, err := net.ParseCIDR(host); err == nil {
		ip = ipn
		_ = n
	}
	if ip != nil {
		return ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsUnspecified()
	}
	for _, s := range []string{".lab", ".local", ".lan", ".test", ".internal", ".localhost", ".htb", ".thm", ".home.arpa", ".corp", ".intranet", ".invalid", ".example"} {
		if strings.HasSuffix(host, s) {
			return true
		}
	}
	for _, l := range labHosts {
		if host == l || strings.HasSuffix(host, "."+l) || strings.Contains(host, l) && !strings.Contains(l, ".") {
			return true
		}
	}
	for _, w := range strings.FieldsFunc(host, func(r rune) bool { return r == '.' || r == '-' || r == '_' }) {
		switch w {
		case "lab", "labs", "localhost", "test", "testing", "staging", "stage", "dev", "sandbox", "ctf", "range", "juice", "juiceshop", "metasploitable", "vulnhub", "vuln", "target", "victim":
			return true
		}
	}
	return false
}

// attackOn: the outside host c attacks, "" when it attacks none or only
// the lab's.
func attackOn(c *Cmd) string {
	attacking := attackTools[c.Name]
	if c.Name == "nmap" {
		for _, o := range []string{"--script", "-script"} {
			attacking = attacking || attackScripts(optValue(c, o))
		}
	}
	if c.Name == "nuclei" {
		attacking = attackScripts(optValue(c, "-tags")) || attackScripts(optValue(c, "-t"))
	}
	if !attacking || c.Has("--help", "-h") && c.Name != "nikto" && len(c.Args) == 1 {
		return ""
	}
	for _, a := range c.Args {
		if i := strings.Index(a, "="); i > 0 && strings.HasPrefix(a, "-") {
			a = a[i+1:]
		}
		if h := hostOfTarget(a); h != "" && !labTarget(h) {
			return h
		}
	}
	return ""
}

func offensiveToolRules() []Rule {
	names := []string{"nmap", "nuclei"}
	for n := range attackTools {
		names = append(names, n)
	}
	return []Rule{
		cmdRule("external.systems:attack-outside-lab", Deny, "An offensive tool attacking a host outside a lab (sqlmap --os-shell, hydra, crackmapexec, an nmap vuln/brute/exploit script, nuclei's intrusive templates) aimed at a public address or name: an attack on someone else's system; the lab's private addresses and *.lab/*.local names are the work", names,
			func(e *Env, c *Cmd) string {
				if h := attackOn(c); h != "" {
					return c.Name + " attacks " + h + ", a host outside the lab: " + c.String()
				}
				return ""
			},
			[]string{"nmap -sV --script vuln shop.globex.com", "sqlmap -u 'https://store.initech.com/item?id=3' --batch --os-shell", "hydra -L users.txt -P rockyou.txt mail.umbrella-corp.com imap", "crackmapexec smb 52.14.8.9 -u admin -p passwords.txt", "nuclei -u https://portal.contoso.com -tags intrusive,dos"},
			[]string{"nmap -sV --script vuln 10.10.0.15", "sqlmap -u 'http://dvwa.lab/vulnerabilities/sqli/?id=1' --batch --os-shell", "hydra -l admin -P rockyou.txt ssh://192.168.56.101", "nmap -sV -p- portal.globex.com", "nmap --script vuln scanme.nmap.org", "nuclei -u https://portal.contoso.com -severity critical"}),
		cmdRule("external.systems:network-poison", Deny, "A tool that poisons or spoofs the local network's name resolution or routes (responder, mitm6, bettercap, ettercap, arpspoof): it answers for every machine on the segment and captures their credentials; an analyze-only run (responder -A) just listens", []string{"responder", "mitm6", "bettercap", "ettercap", "arpspoof", "dnsspoof", "yersinia"},
			func(e *Env, c *Cmd) string {
				if c.Has("-A", "--analyze", "--help", "-h", "--version") || len(c.Args) == 0 {
					return ""
				}
				return c.Name + " poisons the local network for every machine on it: " + c.String()
			},
			[]string{"responder -I eth0 -wd", "sudo mitm6 -d corp.local", "bettercap -iface wlan0 -eval 'arp.spoof on'", "arpspoof -i eth0 -t 192.168.1.20 192.168.1.1"},
			[]string{"responder -I eth0 -A", "responder --help", "bettercap --version", "man arpspoof"}),
	}
}
