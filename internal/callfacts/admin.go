package callfacts

import (
	_ "embed"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
	"github.com/warden-dev/warden/internal/lazyre"
)

// adminText lists, as data, the admin command lines of servers, clusters,
// network devices, robots and firmware tools: where each acts and which
// verbs change, destroy or switch a guard off there (admin.txt says how a
// line reads).
//
//go:embed admin.txt
var adminText string

// identityText is the same kind of table for identity, account and SaaS
// administration CLIs (gam, okta, auth0, kcadm.sh, samba-tool, ipa, sf,
// the IAM verbs of aws, az and gcloud): which verbs create an admin,
// set another user's password, forward mail away, open a group to
// anyone, suspend or delete accounts (identity.txt).
//
//go:embed identity.txt
var identityText string

// AdminAct is what an admin.txt line, or its absence, says of a command.
type AdminAct struct {
	Level  string // "deny" or "ask"
	Kind   string // change, destroy, off, cut, leak, flash, secrets, unknown
	Effect Effect // how safemode and mutation tracking count it
	Where  string // local, remote, shared, any or device (the program's @at line)
	Host   string // the server, device or URL the command names; "" when none
	Remote bool   // the command acts on another host (by Host, a URL, a remote shell)
	Bulk   string // the word that makes it act on many accounts (gam csv …, xargs); "" for one
	// Sandbox: the program's changes on a lab target (a dev, test,
	// scratch or sandbox org) are everyday work (@at … sandbox).
	Sandbox bool
	Prog    string // the program (magento for php bin/magento)
}

// adminProg is a program's @at line.
type adminProg struct {
	where  string
	host   []string // options naming the server
	hostAt int      // the Nth positional names it (napalm DEVICE …); 0 for none
	vals   map[string]bool
	verbAt int
	script bool
	bulk   map[string]bool // positional words that name many accounts (gam csv, all, ou)
	// sandbox: on a lab target changes say nothing and denials ask;
	// listed: only the lines of the table judge (a verb no line names
	// says nothing: the program's other rules judge it).
	sandbox, listed bool
	alias           bool            // a @NAME argument names the site it acts on (wp @prod, drush @live)
	runs            []string        // interpreters that run it as a script (php bin/magento)
	as              []string        // other file names of the script (wp-cli.phar)
	shared          map[string]bool // verbs that act on the workspace's server wherever they run (svn lock, hg push)
}

type adminTable struct {
	progs   map[string]*adminProg
	scripts map[string]string     // a script's file name (magento, wp-cli.phar) → its program, for runs= interpreters
	acts    map[string][]wordRule // LEVEL:KIND lines per program
	reads   map[string][]wordRule
}

var adminKindEffect = map[string]Effect{"change": EffectWrite, "flash": EffectWrite, "off": EffectWrite, "cut": EffectWrite,
	"leak": EffectWrite, "destroy": EffectDelete, "secrets": EffectNone,
	// identity.txt: an admin made or a role raised, another user's
	// password or second factor set, mail forwarded, a group or file
	// opened to anyone, accounts suspended, moved or deleted, code run
	// in an org; admin.txt's version control and sites: shared history
	// destroyed, others' work taken over, uncommitted work discarded,
	// a service stopped for everyone, unreviewed code installed
	"grant": EffectWrite, "cred": EffectWrite, "forward": EffectWrite, "open": EffectWrite, "people": EffectWrite, "run": EffectWrite,
	"history": EffectDelete, "others": EffectWrite, "discard": EffectDelete, "down": EffectWrite, "code": EffectWrite,
	// a whole environment deleted (sf org delete sandbox): the target
	// is what goes, so its name saying dev does not make it disposable
	"env": EffectDelete,
	// data copied over a live or production environment (terminus
	// env:clone-content site.dev live): the destination's data is replaced
	"overwrite": EffectDelete}

var adminTab = sync.OnceValue(func() *adminTable {
	t := &adminTable{progs: map[string]*adminProg{}, scripts: map[string]string{}}
	var acts, reads []datatable.Line
	load := func(l datatable.Line) error {
		f := l.Fields
		if f[0] == "@at" {
			if len(f) < 3 || f[2] != "local" && f[2] != "remote" && f[2] != "shared" && f[2] != "any" && f[2] != "device" {
				return l.Errorf("want @at PROGRAM local|remote|shared|any|device [host=…] [vals=…] [verb=N] [script] [alias] [runs=…] [as=…]")
			}
			if t.progs[f[1]] != nil {
				// two tables (admin.txt, identity.txt) each describing a
				// program would leave only the second's place and options
				return l.Errorf("@at %s: the program is described twice; keep one @at line (in admin.txt or identity.txt) and put every line of it under that one", f[1])
			}
			p := &adminProg{where: f[2], vals: map[string]bool{}}
			for _, o := range f[3:] {
				k, v, _ := strings.Cut(o, "=")
				switch k {
				case "host":
					for _, h := range strings.Split(v, ",") {
						if n, err := strconv.Atoi(strings.TrimPrefix(h, "@")); err == nil && strings.HasPrefix(h, "@") {
							p.hostAt = n
						} else {
							p.host = append(p.host, h)
							p.vals[h] = true
						}
					}
				case "vals":
					for _, o := range strings.Split(v, ",") {
						p.vals[o] = true
					}
				case "verb":
					n, err := strconv.Atoi(v)
					if err != nil || n < 1 {
						return l.Errorf("verb=%q: want a positive number", v)
					}
					p.verbAt = n
				case "script":
					p.script = true
				case "bulk":
					p.bulk = commaSet(v)
				case "sandbox":
					p.sandbox = true
				case "listed":
					p.listed = true
				case "alias":
					p.alias = true
				case "runs":
					p.runs = strings.Split(v, ",")
				case "as":
					p.as = strings.Split(v, ",")
				case "shared":
					p.shared = commaSet(v)
				default:
					return l.Errorf("unknown field %q: want host=, vals=, verb=, bulk=, script, sandbox, listed, alias, runs=, as= or shared=", o)
				}
			}
			t.progs[f[1]] = p
			if len(p.runs) > 0 {
				for _, n := range append([]string{f[1]}, p.as...) {
					t.scripts[n] = f[1]
				}
			}
			return nil
		}
		level, kind, _ := strings.Cut(f[0], ":")
		switch {
		case f[0] == "read":
			reads = append(reads, l)
		case f[0] == "pass":
			acts = append(acts, l) // a look-alike that changes nothing, tried in order with the acts
		case (level == "deny" || level == "ask") && adminKindEffect[kind] != "" || kind == "secrets":
			acts = append(acts, l)
		default:
			return l.Errorf("kind %q: want read, pass, or deny:/ask: with change, flash, secrets, destroy, off, cut, leak, grant, cred, forward, open, people or run", f[0])
		}
		if t.progs[f[1]] == nil {
			return l.Errorf("program %q has no @at line above", f[1])
		}
		return nil
	}
	datatable.Must("admin.txt", adminText, 2, load)
	datatable.Must("identity.txt", identityText, 2, load)
	t.acts = parseWords(acts, true)
	t.reads = parseWords(reads, true)
	return t
})

// AdminTools are the programs admin.txt names, and the interpreters that
// run some of them as scripts (php bin/magento).
func AdminTools() []string { return adminTools() }

var adminTools = sync.OnceValue(func() []string {
	m := map[string][]wordRule{}
	for n, p := range adminTab().progs {
		m[n] = nil
		for _, r := range append(p.runs, p.as...) {
			m[r] = nil // php bin/magento, ./wp-cli.phar
		}
	}
	for n := range rosMenus {
		m[n] = nil // /ip firewall … over ssh: RouterOS (routerosmenus.go)
	}
	return programNames(m)
})

// adminScript is c read as the admin program its interpreter runs (php
// bin/magento cache:flush is magento cache:flush), nil when c runs none.
func adminScript(t *adminTable, c *Cmd) *Cmd {
	if len(c.Pos) == 0 || len(t.scripts) == 0 {
		return nil
	}
	base := path.Base(c.Pos[0])
	name := t.scripts[base]
	if name == "" {
		name = t.scripts[strings.TrimSuffix(base, ".phar")]
	}
	if name == "" || !slices.Contains(t.progs[name].runs, c.Name) {
		return nil
	}
	i := slices.Index(c.Args, c.Pos[0])
	cp := *c
	cp.Name, cp.Args = name, c.Args[i+1:]
	splitFlags(&cp)
	return &cp
}

// AdminAction is what c, an admin program of admin.txt, does where it
// acts: nil when it only reads, is a dry run or help, or (a local
// program) names no verb; Level "" when the line gives no verdict
// (a verb no line names, on this machine).
func (c *Cmd) AdminAction() *AdminAct {
	t := adminTab()
	p := t.progs[c.Name]
	if n := t.scripts[c.Name]; p == nil && n != "" {
		p = t.progs[n] // ./wp-cli.phar, n98-magerun2.phar run as programs
		cp := *c
		cp.Name = n
		c = &cp
	}
	if p == nil {
		if sc := adminScript(t, c); sc != nil {
			c, p = sc, t.progs[sc.Name]
		}
	}
	if p == nil {
		if rc := routerOSMenu(c); rc != nil {
			c, p = rc, t.progs[rc.Name] // /ip firewall filter remove … over ssh (routerosmenus.go)
		}
	}
	if p == nil || c.DryRun() || c.Has("--help", "-?", "-whatif") || slices.Contains(c.Args, "-h") && !p.vals["-h"] {
		return nil // (the exact -h: a cmdlet's -AccessRights or -batch splits into letters that hold one)
	}
	if p.where == "device" && !InRemoteShell(c) {
		return nil // reload, copy, show: words of a device's shell, not programs here
	}
	if adminVerb(c, p) == "help" {
		return nil // p4 help obliterate: the manual
	}
	a := &AdminAct{Where: p.where, Prog: c.Name}
	a.Host, a.Remote = adminTarget(c, p)
	if !a.Remote && p.shared[adminVerb(c, p)] {
		a.Remote = true // svn lock --force a.psd in a working copy: the lock is the server's
	}
	wc := c
	if p.script && c.Heredoc != "" {
		cp := *c
		cp.Args = append(append([]string(nil), c.Args...), strings.Fields(c.Heredoc)...)
		wc = &cp
		if a.Host == "" {
			a.Host = scriptServer(c.Heredoc)
			if a.Host != "" && ThisMachine(a.Host) {
				a.Remote = false // nsupdate's "server 127.0.0.1 5353": a name server on this machine
			}
		}
	}
	a.Sandbox = p.sandbox
	a.Bulk = adminBulk(c, p)
	if r := matchWords(t.acts[c.Name], wc); r != nil {
		if r.kind == "pass" {
			return nil
		}
		if r.kind == "ask:change" {
			// a read line naming more words than the change line, or
			// matching an earlier word, is the form meant (influx bucket
			// list under influx bucket, consul catalog services), and a
			// read word right after the noun the line names lists it
			// (etcdctl member list, consul operator raft list-peers)
			if rd := matchWords(t.reads[c.Name], wc); rd != nil && (len(rd.words) > len(r.words) || readsVerbFirst(c, p, rd, r)) || adminNounReads(c, p) {
				return nil // (consul catalog services: the read verb comes first, services is what it lists)
			}
		}
		a.Level, a.Kind, _ = strings.Cut(r.kind, ":")
		a.Effect = adminKindEffect[a.Kind]
		if a.Kind == "forward" && a.Level == "deny" && !forwardsAway(c.Args) {
			a.Level = "ask" // forwarded within the organization's own domain
		}
		if a.Bulk != "" && a.Level == "ask" && (a.Kind == "people" || a.Kind == "destroy" || a.Kind == "cred") {
			a.Level = "deny" // suspending or deleting accounts by the list
		}
		return a
	}
	if matchWords(t.reads[c.Name], wc) != nil || p.listed {
		return nil
	}
	v := adminVerb(c, p)
	if v == "" || ReadWord(v) || CompoundReadVerb(v) || v == "version" || v == "--version" || v == "config" && configRead(adminPositionals(c, p)) || adminNounReads(c, p) {
		return nil // a verb no line names but every CLI reads with (okta whoami, ipa version, gam status, cm config list)
	}
	if k := clAdminKind(c, p); k == "read" {
		return nil // system 'DSPLIB LIB(X)': an IBM i command that displays
	} else if k != "" {
		a.Level, a.Kind, _ = strings.Cut(k, ":")
		a.Effect = adminKindEffect[a.Kind]
		return a // system 'DLTLIB LIB(X)' over ssh (consoleverbs.go)
	}
	a.Kind, a.Effect = "unknown", EffectWrite
	if a.Remote {
		a.Level = "ask"
	}
	return a
}

// AdminReads reports whether c, a program of the admin tables run on
// this machine or elsewhere, only reads: its words match one of the
// table's read lines (etcdctl endpoint health, samba-tool drs showrepl),
// or its verb is one every CLI reads with (status, list, user-find,
// member list), and no change, destroy or secrets line matches (its
// AdminAction is nil). A program the table does not name, a device's
// shell words, or no verb at all is no known read.
func (c *Cmd) AdminReads() bool {
	t := adminTab()
	p := t.progs[c.Name]
	if p == nil || p.where == "device" || c.AdminAction() != nil {
		return false
	}
	if matchWords(t.reads[c.Name], c) != nil {
		return true
	}
	v := adminVerb(c, p)
	return v != "" && (ReadWord(v) || CompoundReadVerb(v) || adminNounReads(c, p))
}

// readsVerbFirst: the read line rd matched c's verb (the word where the
// verb stands) and the change line r only a later word (consul catalog
// services: services is what catalog lists). Not for script programs,
// whose words are a sequence of commands.
func readsVerbFirst(c *Cmd, p *adminProg, rd, r *wordRule) bool {
	v := adminVerb(c, p)
	if p.script || v == "" || len(rd.words) == 0 {
		return false
	}
	i, j := matchStart(rd, c), matchStart(r, c)
	return i >= 0 && j > i && strings.EqualFold(c.Args[i], v)
}

// adminNounReads: c's verb slot holds a noun a read word follows, at
// most one more noun between (etcdctl member list, etcdctl role get
// root, consul operator raft list-peers, influx config get): it lists
// or shows that kind. Not for a console that takes key names after its
// commands (redis-cli del list: script programs), nor a noun of
// secrets (tokens ls prints them), nor when a change or destroy word
// comes first.
func adminNounReads(c *Cmd, p *adminProg) bool {
	if p.script {
		return false
	}
	pos, n := adminPositionals(c, p), p.verbSlot()
	if len(pos) <= n {
		return false
	}
	noun := strings.ToLower(pos[n-1])
	if DestroyOrChangeWord(noun) || secretNoun(noun) || strings.ContainsAny(noun, "/=@.:") {
		return false
	}
	for i := n; i < len(pos) && i <= n+1; i++ {
		w := strings.ToLower(pos[i])
		head, _, _ := strings.Cut(w, "-")
		switch {
		case ReadWord(w) || head != w && ReadWord(head):
			return true
		case DestroyOrChangeWord(w) || DestroyOrChangeWord(head) || secretNoun(w) || strings.ContainsAny(w, "/=@.:"):
			return false
		}
	}
	return false
}

// secretNoun: w names credentials (tokens, secrets, passwords, keys).
func secretNoun(w string) bool {
	for _, s := range []string{"token", "secret", "passw", "cred", "key"} {
		if strings.Contains(w, s) {
			return true
		}
	}
	return false
}

// configRead: pos, an admin CLI's words from its verb, read its own
// settings (config get KEY, config list, config show): "config" is no
// unknown change when a read word follows it.
func configRead(pos []string) bool {
	i := slices.IndexFunc(pos, func(p string) bool { return strings.EqualFold(p, "config") })
	return i >= 0 && i+1 < len(pos) && ReadWord(pos[i+1])
}

// adminTarget is the server c names and whether it is another host: a
// host option's value, the Nth positional, a URL among the arguments, a
// remote shell or cluster exec it runs through. A remote or device
// program is always elsewhere.
func adminTarget(c *Cmd, p *adminProg) (string, bool) {
	host := ""
	for i, a := range c.Args {
		for _, o := range p.host {
			switch {
			case a == o && i+1 < len(c.Args):
				host = c.Args[i+1]
			case strings.HasPrefix(o, "--") && strings.HasPrefix(a, o+"="):
				host = a[len(o)+1:]
			}
		}
	}
	if host == "" && p.hostAt > 0 {
		if pos := adminPositionals(c, p); len(pos) >= p.hostAt {
			host = pos[p.hostAt-1]
		}
	}
	if host == "" && p.alias {
		for _, a := range adminPositionals(c, p) {
			if strings.HasPrefix(a, "@") && len(a) > 1 && !labWord(a) && (host == "" || ThisMachine(host)) {
				host = a // drush sql:sync @self @prod: the other site; @dev is the developer's own
			}
		}
	}
	if host == "" && p.where != "device" && p.where != "any" && !p.alias {
		for _, a := range c.Args {
			if strings.Contains(a, "://") {
				host = a
				break
			}
		}
	}
	switch {
	case p.where == "remote" && host != "" && ThisMachine(host) && !InRemoteShell(c):
		return host, false // a remote service's CLI pointed at a server on this machine (kcadm.sh --server http://localhost:8080)
	case p.where == "remote" || p.where == "device" || p.where == "shared":
		return host, true
	case InRemoteShell(c):
		return host, true
	case host == "":
		return "", false
	}
	return host, !ThisMachine(host)
}

// InRemoteShell: c runs on another host or in a cluster's container (ssh
// host '…', kubectl exec), not on this machine or its own containers.
func InRemoteShell(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if w == "ssh" || strings.HasPrefix(w, "ssh ") || strings.HasPrefix(w, "kubectl exec") || strings.HasPrefix(w, "oc exec") || rshellRules()[strings.Fields(w + " x")[0]] != nil {
			return true
		}
	}
	return false
}

// ThisMachine: a host, host:port, socket path or URL on this machine
// (localhost, 127.x, ::1, a unix socket, a .localhost name). A value
// the line does not show is not local.
func ThisMachine(h string) bool {
	if UnknownValue(h) {
		return false
	}
	if i := strings.Index(h, "://"); i >= 0 {
		h = h[i+3:]
		if at := strings.LastIndexByte(strings.SplitN(h, "/", 2)[0], '@'); at >= 0 {
			h = h[at+1:]
		}
		h = strings.SplitN(h, "/", 2)[0]
	}
	if strings.HasPrefix(h, "/") || h == "" {
		return true // a socket
	}
	switch lh := strings.ToLower(h); {
	case lh == "@self" || lh == "@none" || lh == "@local" || lh == "@localhost" || lh == "@ddev" || lh == "@lando" || lh == "@docker":
		return true // a site alias for the checkout here (drush @self)
	case lh == "vagrant" || strings.HasPrefix(lh, "docker:") || strings.HasPrefix(lh, "docker-compose:") || strings.HasPrefix(lh, "docker-compose-run:") || strings.HasPrefix(lh, "vagrant:"):
		return true // wp --ssh=docker:wordpress: the project's own container or VM
	}
	// SQL Server names a server [tcp:]host[,port] (sqlcmd -S
	// tcp:localhost,1433); (local), . and (localdb) are this machine
	for _, p := range []string{"tcp:", "TCP:", "np:", "lpc:"} {
		h = strings.TrimPrefix(h, p)
	}
	if host, port, ok := strings.Cut(h, ","); ok && port != "" && strings.Trim(port, "0123456789") == "" {
		h = host
	}
	if lh := strings.ToLower(h); lh == "(local)" || lh == "." || strings.HasPrefix(lh, "(localdb)") {
		return true
	}
	if strings.HasPrefix(h, "[") {
		h = strings.SplitN(strings.TrimPrefix(h, "["), "]", 2)[0]
	} else if strings.Count(h, ":") == 1 {
		h = strings.SplitN(h, ":", 2)[0]
	}
	h = strings.ToLower(h)
	if h == "localhost" || h == "0.0.0.0" || strings.HasSuffix(h, ".localhost") || h == "host.docker.internal" {
		return true
	}
	return LoopbackAddr(h) // 127.0.0.1.attacker.example is a name, not the loopback
}

// adminPositionals are c's arguments that are neither options nor the
// values of options the @at line names.
func adminPositionals(c *Cmd, p *adminProg) []string {
	var out []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			if p.vals[a] {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// verbSlot is the 1-based positional where the program's verb stands:
// its own @at, after the host word, or first.
func (p *adminProg) verbSlot() int {
	switch {
	case p.verbAt > 0:
		return p.verbAt
	case p.hostAt > 0:
		return p.hostAt + 1
	}
	return 1
}

// adminVerb is the word where c's verb stands ("" when none: redis-cli
// alone opens a prompt).
func adminVerb(c *Cmd, p *adminProg) string {
	pos, n := adminPositionals(c, p), p.verbSlot()
	if len(pos) < n {
		return ""
	}
	return strings.ToLower(pos[n-1])
}

// scriptServer is the server a command script names (nsupdate's
// "server ns1.example.com").
func scriptServer(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if f := strings.Fields(l); len(f) >= 2 && strings.EqualFold(f[0], "server") {
			return f[1]
		}
	}
	return ""
}

func hasStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// LabTarget: a host or an argument named for a lab, a test or a
// simulation (lab-rtr1, clab-dc1-leaf1, sw-test, sim_robot) or this
// machine: its denials ask instead.
func LabTarget(host string, args []string) bool {
	if host != "" {
		return ThisMachine(host) || labWord(host)
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "/") && labWord(a) { // not /dev/ttyUSB0
			return true
		}
	}
	return false
}

func labWord(s string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		w = strings.TrimRight(w, "0123456789")
		switch w {
		case "lab", "clab", "test", "testing", "sim", "simulation", "gazebo", "dev", "localhost", "sandbox", "scratch", "vlab", "gns", "eveng":
			return true
		}
	}
	return false
}

// adminBulk is what makes c act on many accounts at once: a word of the
// @at line's bulk= as its first positional (gam csv users.csv gam …, gam
// all users, gam ou /Sales), a field of a list read row by row (gam …
// ~primaryEmail), or a runner feeding it one name a line (xargs,
// parallel); "" for one account.
func adminBulk(c *Cmd, p *adminProg) string {
	for _, w := range c.Wrappers {
		if f := strings.Fields(w); len(f) > 0 && (f[0] == "xargs" || f[0] == "parallel") {
			return f[0]
		}
	}
	for _, u := range c.Upstream {
		if u = strings.ToLower(u); u == "import-csv" || strings.HasPrefix(u, "get-") && strings.Contains(c.Name, "-") {
			return u // Get-ADUser -Filter * | Disable-ADAccount: a PowerShell pipeline of accounts
		}
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "$_") || strings.HasPrefix(strings.ToLower(a), "$psitem") {
			return a // ForEach-Object { Remove-MgUser -UserId $_.upn }: each row of a pipeline
		}
	}
	if p.bulk == nil {
		return ""
	}
	for i, a := range adminPositionals(c, p) {
		if i == 0 && p.bulk[strings.ToLower(a)] || strings.HasPrefix(a, "~") && len(a) > 1 && !strings.HasPrefix(a, "~/") {
			return a // the entity stands first (gam csv …, gam all users …); ~primaryEmail is a column
		}
	}
	return ""
}

// forwardsAway: the mail addresses among args are not all of one domain
// (gam user cfo@corp.com forward on x@gmail.com), or only the
// destination is named: the mail leaves the organization.
func forwardsAway(args []string) bool {
	var domains []string
	for _, a := range args {
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
			a = v
		}
		at := strings.LastIndexByte(a, '@')
		if at <= 0 || !strings.Contains(a[at:], ".") || strings.ContainsAny(a, "/:") {
			continue
		}
		domains = append(domains, strings.ToLower(strings.Trim(a[at+1:], `"'>`)))
	}
	if len(domains) < 2 {
		return true
	}
	for _, d := range domains[1:] {
		if d != domains[0] {
			return true
		}
	}
	return false
}

// commaSet is a field's comma-separated words as a set (bulk=csv,all).
func commaSet(v string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Split(v, ",") {
		m[w] = true
	}
	return m
}

// ticketAlias matches an issue key (SF-1423, PAY-88): upper-case letters,
// a dash, a number.
var ticketAlias = lazyre.New(`^[A-Z][A-Z0-9]{1,9}-[0-9]{1,6}$`)

// TicketAlias: host, the org or environment a sandbox-style program (sf,
// sfdx: identity.txt sandbox) is aimed at, is named for an issue key
// (sf apex run -o SF-1423): a scratch org made for one ticket, as
// Salesforce developers name them, not a shared org; an environment
// word (PROD-1, UAT-2) is no ticket.
func TicketAlias(host string) bool {
	if !ticketAlias.MatchString(host) {
		return false
	}
	switch strings.ToLower(host[:strings.IndexByte(host, '-')]) {
	case "prod", "prd", "production", "live", "uat", "stage", "staging", "stg", "qa", "preprod", "main", "master", "release", "hotfix":
		return false
	}
	return true
}
