package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Security downgrades by value, whatever the program. A command that
// sets a configuration can say by its values alone that it opens
// something to anyone or switches a protection off: an allow list or a
// trusted network set to every address (mynetworks = 0.0.0.0/0, a
// firewall pass from any source to a remote-admin or database port), a
// protection's mode set to DISABLE/false/off (mTLS, TLS, auditing,
// authentication) on a system that is not this machine, an operating
// system file or a memory or disk device made writable by every account.
// The program does not matter: the values do.

// openValue: an address range that is every address.
var openValue = re(`(^|[\s'"=:,\[(])(0\.0\.0\.0/0|::/0)\b`)

// openNotExposure: commands where every address is a route, a scan or a
// VPN's catch-all, not an allow list (ip route add 0.0.0.0/0, wg set …
// allowed-ips 0.0.0.0/0, tailscale up --advertise-routes, nmap).
var openNotExposure = re(`(?i)\b(route|routes|via|gateway|gw|allowed-?ips|advertise|exit-node|default-route|scan|dst|destination|to-destination|masquerade|snat|dnat)\b`)

// notConfigPrograms print, search or edit text; what they are given is
// not a setting applied (echo 'x = 0.0.0.0/0' >> notes.md).
var notConfigPrograms = map[string]bool{"echo": true, "printf": true, "grep": true, "rg": true, "egrep": true, "git": true, "cat": true, "less": true,
	"sed": true, "awk": true, "jq": true, "yq": true, "vim": true, "nano": true, "code": true, "tee": true, "ip": true, "route": true, "wg": true,
	"wg-quick": true, "nmap": true, "masscan": true, "zmap": true, "tailscale": true, "ping": true, "traceroute": true, "mtr": true, "ipcalc": true,
	"sipcalc": true, "gh": true, "glab": true, "man": true, "python": true, "python3": true, "node": true}

// openOption: an option that accepts every address (cupsctl
// --remote-any, --allow-any-origin, --allow-all-hosts).
var openOption = re(`(^|\s)--(remote-any|(allow|accept)-any(-(host|origin|ip|address)s?)?|allow-all-(hosts|origins|ips|addresses))\b`)

// skipCheckOption: an option that skips verifying a signature, a
// certificate or a checksum (--skip-signature-check, --no-verify-signature,
// --ignore-checksum, --disable-secure-boot).
var skipCheckOption = re(`(^|\s)--(skip|no|disable|ignore|bypass)-(signature|sig|signing|verify-signature|signature-verification|cert-check|certificate-check|checksum|integrity|secure-boot|verification)(-checks?)?(\s|=|$)`)

// openPrincipal: an access rule's principal, member or grantee that is
// every identity (kafka-acls --allow-principal 'User:*', --member=allUsers).
var openPrincipal = re(`(?i)(^|\s)--?(allow-)?(principal|member|grantee|identity)[ =]['"]?(user:\*|\*|allusers|allauthenticatedusers|everyone)(['"\s]|$)`)

// anySourcePass: a firewall rule's words passing traffic from any source
// to a port that administers a machine or serves a database.
var anySourcePass = re(`(?i)\b(pass|allow|accept|permit)\b.*\b(any|all|\*)\b.*\b(22|23|135|139|445|3389|5900|5985|5986|2375|2376|3306|5432|1433|1521|6379|11211|27017|9200|5601|8086|10250)\b`)

// setVerbs begin a setting's change: a read word after one is part of the
// key it sets (set_parameter ssl_verify none).
var setVerbs = map[string]bool{"set": true, "put": true, "update": true, "patch": true, "apply": true, "modify": true, "configure": true, "edit": true, "write": true}

// insecureOn: a joined key that allows the insecure form, given a value
// that switches it on (auth_allow_insecure_global_id_reclaim true,
// tls_insecure_skip_verify=true).
var insecureOn = re(`(?i)\b(?:[a-z0-9]+[_.-])*(insecure|skip[_.-]?verify|skip[_.-]?tls|no[_.-]?verify|allow[_.-]?anonymous|anonymous[_.-]?access)(?:[_.-][a-z0-9]+)*\b["']?(\s*[:=]\s*|\s+)["']?(true|yes|on|1|enabled?)\b`)

// protectionOffIn: the first protectionOff match whose key does not
// itself negate (disable_ssl_validation false turns the check on).
func protectionOffIn(args string) string {
	for _, ix := range protectionOff.FindAllStringIndex(args, -1) {
		m := args[ix[0]:ix[1]]
		neg := false
		for _, w := range wordsOf(strings.Fields(m)[0]) {
			switch w {
			case "disable", "disabled", "skip", "no", "insecure", "ignore", "bypass", "allow", "allowed", "without":
				neg = true
			}
		}
		if !neg {
			return m
		}
	}
	return ""
}

// protectionOff: a protection's setting given a value that switches it
// off (mtls mode DISABLE, "tls": false, audit=off, auth: none), the
// protection's word also as one part of a joined key
// (auth_cluster_required none, xpack.security.enabled=false,
// ssl-verify false).
var protectionOff = re(`(?i)(\b(mtls|tls|ssl|ssl_?verify|verify_?ssl|authn|authz|auth|authentication|authorization|audit|auditing|audit_?log|encryption|encrypt|protected[-_]mode|csrf|mfa|2fa|signing|signature_?verification|peer_?authentication)\b|\b(?:[a-z0-9]+[_.-])*(mtls|tls|ssl|authn|authz|auth|authentication|authorization|encryption|encrypt|cephx|verify|verification|security)(?:[_.-][a-z0-9]+)*\b)["']?(\s*[:=]\s*|\s+)(\{\s*["']?mode["']?\s*:\s*)?["']?(disabled?|false|off|none|permissive|no)\b`)

// worldWritableCore: operating-system paths and devices that no account
// but root may write: programs, libraries, configuration, the kernel's
// memory and raw disks.
var worldWritableCore = re(`^(/(etc|usr|bin|sbin|lib|lib32|lib64|libx32|boot|sys|proc|root)(/|$)|/dev/(mem|kmem|port|sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|disk\d|dm-\d|md\d|loop\d|mapper/))`)

// remoteTargetOf names a system c acts on that is not this machine: a
// remote shell or exec around it, production named by an option or a
// variable, a host, server or URL option, a cluster context; "" when the
// line names none, "local" when what it names is this machine.
func remoteTargetOf(e *Env, c *Cmd) string {
	for _, w := range c.Wrappers {
		if strings.HasPrefix(w, "ssh") || strings.HasPrefix(w, "kubectl exec") || strings.HasPrefix(w, "oc exec") {
			return "run on another host by " + w
		}
	}
	if m, _ := prodMarkerOf(e, c); m != "" {
		return m
	}
	local := false
	for _, o := range []string{"--context", "--kube-context"} {
		if v := optValue(c, o); v != "" {
			if localKubeContext(v) || devName(v) {
				local = true
			} else {
				return o + " " + v
			}
		}
	}
	if c.Remote != "" {
		_, v, _ := strings.Cut(c.Remote, "=")
		if v != "" && !localKubeContext(v) && !devName(v) && !isLocalEndpoint(v) {
			return c.Remote
		}
		local = true
	}
	for _, o := range []string{"-h", "--host", "-H", "--server", "-S", "--url", "-I"} {
		if v := optValue(c, o); v != "" && !strings.HasPrefix(v, "-") && !callfacts.UnknownValue(v) {
			if isLocalEndpoint(v) || callfacts.ThisMachine(v) {
				local = true
			} else if strings.ContainsAny(v, ".:") || prodWord.MatchString(v) {
				return o + " " + v
			}
		}
	}
	for _, a := range c.Args {
		if strings.Contains(a, "://") {
			if isLocalEndpoint(a) {
				local = true
			} else if h := urlHost(a); h != "" {
				return h
			}
		}
	}
	if local {
		return "local"
	}
	return ""
}

// anySource reads a firewall rule's words after its pass/allow verb: the
// first address (an IP, a range, a host name, or any/all/*) not after
// to/dst is the source; true when that is every address. Interface,
// direction and protocol words are not addresses.
func anySource(args []string) bool {
	verb := false
	for i, a := range args {
		l := strings.ToLower(strings.Trim(a, `"'`))
		if !verb {
			verb = l == "pass" || l == "allow" || l == "accept" || l == "permit"
			continue
		}
		after := ""
		if i > 0 {
			after = strings.ToLower(args[i-1])
		}
		if after == "to" || after == "dst" || after == "dest" || after == "port" || after == "proto" || after == "on" || after == "in" && l != "any" {
			continue
		}
		switch {
		case l == "any" || l == "all" || l == "*" || l == "0.0.0.0/0" || l == "::/0":
			return true
		case strings.Trim(l, "0123456789./:") == "" && strings.ContainsAny(l, ".:"), strings.Count(l, ".") >= 1 && !strings.HasPrefix(l, "-"):
			return false // the source is an address or a network
		}
	}
	return false
}

// readsOnlyVerb: c's first words say it lists or shows (gcloud compute
// firewall-rules list --filter='sourceRanges:0.0.0.0/0', redis-cli
// CONFIG GET): the values are a query, not a setting.
func readsOnlyVerb(c *Cmd) bool {
	read := opsList("read-verb")
	for _, p := range c.Pos[:min(4, len(c.Pos))] {
		if strings.ContainsAny(p, "=/.:'\" ") || valueOfOption(c, p) {
			continue
		}
		if w := wordsOf(p); len(w) > 0 && setVerbs[w[0]] {
			return false // ceph config set … rgw_verify_ssl false: the key after the verb names what is set
		}
		for _, w := range wordsOf(p) {
			if read[w] {
				return true
			}
		}
	}
	return false
}

// deleteAll: a delete option of a program no table knows given ALL as its
// value (postsuper -d ALL, queuectl --purge ALL): every item it keeps.
func deleteAll(c *Cmd) string {
	for i, a := range c.Args[:max(0, len(c.Args)-1)] {
		switch a {
		case "-d", "-D", "--delete", "--del", "--purge", "--remove", "--drop", "--wipe":
			if v := c.Args[i+1]; v == "ALL" || v == "all" || v == "*" {
				return a
			}
		}
	}
	return ""
}

// valueOfOption: p stands right after an option in c's arguments
// (--operation Read): the option's value, not a verb.
func valueOfOption(c *Cmd, p string) bool {
	for i, a := range c.Args {
		if a == p {
			return i > 0 && strings.HasPrefix(c.Args[i-1], "-") && !strings.Contains(c.Args[i-1], "=")
		}
	}
	return false
}

// downgradeValueRules: a security setting downgraded by its value,
// whatever the program (delete-all-value, open-by-value,
// protection-off-value).
func downgradeValueRules() []Rule {
	judge := func(e *Env, c *Cmd) (string, string) {
		if onlyHelp(c) || e.dryRun(c) || len(c.Args) == 0 {
			return "", ""
		}
		args := strings.Join(c.Args, " ")
		if callfacts.IsInterpreter(c.Name) && c.Payload == "" {
			// python3 tools/flash.py --skip-signature-check: a script's options
			if m := skipCheckOption.FindString(args); m != "" {
				return "ask", c.Name + " skips a signature or integrity check (" + strings.TrimSpace(m) + "): what it installs or flashes is not verified"
			}
		}
		if notConfigPrograms[c.Name] || readsOnlyVerb(c) || opsList("scanner-prog")[c.Name] {
			return "", "" // a scanner's options tune what it reads (remoteops.txt scanner-prog)
		}
		if openValue.MatchString(args) && !openNotExposure.MatchString(args) {
			return "deny", c.Name + " opens to every address (0.0.0.0/0): " + short80(args)
		}
		if m := openPrincipal.FindString(args); m != "" && !strings.Contains(args, "--remove") && !strings.Contains(args, "remove-") {
			return "deny", c.Name + " grants every identity (" + strings.TrimSpace(m) + "): " + short80(args)
		}
		if m := openOption.FindString(args); m != "" {
			return "deny", c.Name + " accepts connections from any address (" + m + "): " + short80(args)
		}
		if anySourcePass.MatchString(args) && anySource(c.Args) {
			return "deny", c.Name + " passes traffic from any source to an administration or database port: " + short80(args)
		}
		if m := skipCheckOption.FindString(args); m != "" {
			return "ask", c.Name + " skips a signature or integrity check (" + strings.TrimSpace(m) + "): what it installs or flashes is not verified"
		}
		m := protectionOffIn(args)
		if m == "" {
			m = insecureOn.FindString(args)
		}
		if m != "" {
			if cliAddrLocal(e.F.Command, c.Name) {
				return "", "" // VAULT_ADDR=http://127.0.0.1:8200 vault audit disable: a server on this machine
			}
			switch where := remoteTargetOf(e, c); where {
			case "local":
				return "", ""
			case "":
				if opsList("cluster-cli")[c.Name] {
					return "deny", c.Name + " switches a protection off (" + m + ") on the cluster it administers" // ceph config set mon auth_cluster_required none
				}
				if callfacts.Known(c.Name) && !opsList("remote-cli")[c.Name] {
					return "", "" // make test AUTH=none, docker run -e AUTH=false: a local tool's own run
				}
				return "ask", c.Name + " switches a protection off (" + m + ") on the system its environment picks"
			default:
				return "deny", c.Name + " switches a protection off (" + m + ") on " + where
			}
		}
		return "", ""
	}
	// each pattern's necessary words: every address, an option for any,
	// a pass verb, a protection's name (any case)
	trig := On(0).OrText("0.0.0.0/0", "::/0", "rincipal", "ember", "rantee", "dentity", "-any", "allow-all", "--skip-", "--no-", "--disable-", "--ignore-", "--bypass-", "pass", "allow", "accept", "permit", "PASS", "ALLOW", "ACCEPT", "PERMIT", "Pass", "Allow", "Accept", "Permit",
		"tls", "TLS", "Tls", "ssl", "SSL", "Ssl", "uth", "UTH", "udit", "UDIT", "ncrypt", "NCRYPT", "rotected", "ROTECTED", "srf", "SRF", "mfa", "MFA", "2fa", "2FA", "igning", "IGNING", "ignature", "IGNATURE", "ecur", "ECUR", "erif", "ERIF", "ephx", "nsecure", "NSECURE", "nonymous", "NONYMOUS")
	allJudge := func(e *Env, c *Cmd) (string, string) {
		if onlyHelp(c) || e.dryRun(c) || notConfigPrograms[c.Name] || callfacts.Known(c.Name) || checker(c) {
			return "", ""
		}
		if o := deleteAll(c); o != "" {
			return "deny", c.Name + " deletes every item it keeps (" + o + " ALL): " + short80(strings.Join(c.Args, " "))
		}
		return "", ""
	}
	return []Rule{
		{ID: "external.systems:delete-all-value", Mode: Deny, Tools: shellTools, On: On(0).OrText(" ALL", " all", " *"),
			Desc:  "A delete option of a program no table knows given ALL as its value (postsuper -d ALL, queuectl --purge all): every message, job or entry it keeps is gone",
			Match: anyAtLevel(allJudge, "deny"),
			Catch: []string{"sudo postsuper -d ALL", "ssh root@mail 'postsuper -d ALL deferred'", "jobq --purge all"},
			Allow: []string{"sudo postsuper -d 4F2A1C0B3", "postqueue -p", "jobq --purge 1234", "rm -d ALL", "pylint --load-plugins=pylint_odoo -d all -e odoolint addons/x", "mylint -d all -e E501 src/"}},
		{ID: "external.systems:open-by-value", Mode: Deny, Tools: shellTools, On: trig,
			Desc:  "A setting whose value opens a service to every address (an allow list or trusted network set to 0.0.0.0/0 or ::/0, a firewall pass from any source to an administration or database port), or switches a protection off (mTLS, TLS, auditing, authentication set to DISABLE/false/off) on a system that is not this machine — whatever the program",
			Match: anyAtLevel(judge, "deny"),
			Catch: []string{`sudo postconf -e 'mynetworks = 0.0.0.0/0'`, `ssh admin@fw.lan 'easyrule pass wan tcp any 10.0.0.5 22'`, `pfctl-helper add pass in proto tcp from any to 10.1.2.3 port 3389`,
				`kubectl --context prod-eu -n mesh patch peerauthentication default --type merge -p '{"spec":{"mtls":{"mode":"DISABLE"}}}'`, `redis-cli -h cache.example.com CONFIG SET protected-mode no`,
				`confctl set trusted_networks=::/0 --apply`, `sudo cupsctl --remote-admin --remote-any`, `kafka-acls --bootstrap-server k1:9092 --add --allow-principal 'User:*' --operation Read --topic orders`},
			Allow: []string{`sudo ip route add 0.0.0.0/0 via 10.0.0.1`, `wg set wg0 peer AbC= allowed-ips 0.0.0.0/0`, `echo 'mynetworks = 0.0.0.0/0' >> notes.md`, `sudo postconf -e 'mynetworks = 127.0.0.0/8 [::1]/128'`,
				`kubectl --context kind-dev -n mesh patch peerauthentication default --type merge -p '{"spec":{"mtls":{"mode":"DISABLE"}}}'`, `redis-cli CONFIG GET protected-mode`, `kubectl --context prod get peerauthentication -A`}},
		{ID: "external.systems:protection-off-value", Mode: Ask, Tools: shellTools, On: trig,
			Desc:  "A setting that switches a protection off (mTLS, TLS, auditing, authentication set to DISABLE/false/off) on a system the line does not name: it may be a shared or production one",
			Match: anyAtLevel(judge, "ask"),
			Catch: []string{`kubectl -n mesh patch peerauthentication default --type merge -p '{"spec":{"mtls":{"mode":"DISABLE"}}}'`, `meshctl policy set --mtls=off`, `vaultctl audit-config set audit=off`, `python3 tools/flash.py --image fw.bin --skip-signature-check`},
			Allow: []string{`kubectl -n mesh patch peerauthentication default --type merge -p '{"spec":{"mtls":{"mode":"STRICT"}}}'`, `meshctl policy set --mtls=strict`, `redis-cli -h 127.0.0.1 CONFIG SET protected-mode no`, `python3 tools/flash.py --image fw.bin --verify-signature`}},
	}
}

// worldWritableSystemRule: chmod o+w of the operating system's own files
// or of the kernel's memory and raw disks.
func worldWritableSystemRule() Rule {
	return cmdRule("core.local:world-writable-system", Deny, "A program, library or configuration file of the operating system (/etc, /usr, /bin, /lib, /boot), the kernel's memory (/dev/mem, /dev/kmem) or a raw disk made writable by every account: any local user or process may then rewrite the system or read and change memory", []string{"chmod", "setfacl"},
		func(e *Env, c *Cmd) string {
			if !worldWritable(c) {
				return ""
			}
			for _, p := range c.Pos[min(1, len(c.Pos)):] {
				if c.Name == "setfacl" && strings.Contains(p, ":") {
					continue // the ACL entry, not a path
				}
				if ap := e.abs(c, p); worldWritableCore.MatchString(ap) {
					return c.Name + " makes " + ap + " writable by every account"
				}
			}
			return ""
		},
		[]string{"sudo chmod 666 /dev/mem", "sudo chmod o+w /usr/local/bin", "chmod 777 /etc/hosts", "sudo chmod a+w /dev/nvme0n1", "sudo setfacl -m o::rw /dev/kmem"},
		[]string{"sudo chmod 666 /dev/ttyUSB0", "sudo chmod 644 /etc/hosts", "chmod 777 build/out", "sudo chmod 755 /usr/local/bin/tool", "sudo chmod 666 /dev/kvm"})
}

func short80(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// checker: a linter or checker, whose -d/--disable ALL switches its
// checks off (pylint -d all -e odoolint): a program named for linting,
// or one told to enable checks on the same line.
func checker(c *Cmd) bool {
	n := strings.ToLower(c.Name)
	return strings.Contains(n, "lint") || strings.HasSuffix(n, "check") || c.Has("-e", "--enable")
}
