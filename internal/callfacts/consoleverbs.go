package callfacts

import "strings"

// Two ways a field's own admin tool puts its verb where the word readers
// of verbs.go do not look: a console command given whole as one quoted
// operand (cgr-console 'account_remove Tenant=x', fooadm "purge q1"),
// and a subcommand that carries the program's own short prefix before
// the verb (lmutil lmdown, lmutil lmremove, xyctl xyrestart).

// consoleNames: parts of a program's name that say it is a client of a
// service's admin console, whose quoted operand is then one command sent
// to that service, not a message or a name.
var consoleNames = []string{"console", "cli", "ctl", "adm", "admin", "shell", "cmd", "client", "mgr"}

// verbPos is c.Pos for the verb readers: when the first operand (not an
// option's value) is a whole console command in quotes whose first word
// is a plain lowercase word, of a program named as a console client, its
// words stand in its place, so its verb is read as the subcommand.
func (c *Cmd) verbPos() []string {
	if len(c.Pos) == 0 || !strings.Contains(c.Pos[0], " ") || valueOfOption(c.Args, c.Pos[0]) {
		return c.Pos
	}
	name := strings.ToLower(c.Name)
	console := false
	for _, n := range consoleNames {
		if strings.Contains(name, n) {
			console = true
			break
		}
	}
	f := strings.Fields(c.Pos[0])
	if len(f) > 0 && clVerb(f[0], true)+clVerb(f[0], false) != "" {
		return append(f, c.Pos[1:]...) // system 'DLTLIB LIB(ORDLIB)'
	}
	if !console || len(f) < 2 || strings.Trim(f[0], "abcdefghijklmnopqrstuvwxyz0123456789_-") != "" || len(f[0]) < 3 {
		return c.Pos
	}
	return append(f, c.Pos[1:]...)
}

// prefixedRests: words that say an act only after a program's own
// prefix (lmdown: the license server brought down); alone they are too
// common (tilt down, migrate down) to read.
var prefixedRests = map[string]bool{"down": true}

// progPrefixVerb: l starts with the first two or three letters of the
// program's name and what follows is a word of verbs (or of
// prefixedRests when rests is set): that word, "" for none.
func progPrefixVerb(name, l string, verbs map[string]bool, rests bool) string {
	name = strings.ToLower(name)
	for k := 3; k >= 2; k-- {
		if len(name) <= k || len(l) < k+3 || l[:k] != name[:k] {
			continue
		}
		if r := l[k:]; verbs[r] || rests && prefixedRests[r] {
			return r
		}
	}
	return ""
}

// valueOfOption: p follows an option without its own =value (-e 'cmd'),
// so it is that option's value, not the console command.
func valueOfOption(args []string, p string) bool {
	for i, a := range args {
		if a == p {
			return i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=")
		}
	}
	return false
}

// clVerbs: the verb abbreviations that start an IBM i control-language
// command (DLTLIB, CLRPFM, CHGSYSVAL, ENDSBS, PWRDWNSYS), with the act
// each names; destroy acts first. clObjects: the object abbreviations
// that end one, so that a word that only starts so (ENDPOINT, CLRSCR,
// CHGLOG) is not read.
var clVerbs = map[string]struct {
	verb    string
	destroy bool
}{"DLT": {"delete", true}, "CLR": {"wipe", true}, "RMV": {"remove", true}, "RST": {"restore", true},
	"CHG": {"modify", false}, "END": {"stop", false}, "PWRDWN": {"poweroff", false}, "RVK": {"revoke", false},
	"GRT": {"grant", false}, "HLD": {"suspend", false}}

var clObjects = map[string]bool{"LIB": true, "PFM": true, "MBR": true, "OBJ": true, "SBS": true, "JOB": true, "USRPRF": true, "SYSVAL": true,
	"SPLF": true, "MSGQ": true, "JOBQ": true, "OUTQ": true, "DTAARA": true, "DTAQ": true, "PGM": true, "SRVPGM": true, "F": true, "PF": true,
	"LF": true, "JRN": true, "JRNRCV": true, "AUTL": true, "DEVD": true, "LIND": true, "CTLD": true, "SYS": true, "TCP": true, "TCPSVR": true,
	"WTR": true, "OBJAUT": true, "LICKEY": true, "PTF": true, "DIR": true, "LNK": true, "SAVF": true, "NETA": true, "USRPRFS": true, "OBJOWN": true,
	"SQLPKG": true, "CMD": true, "FILE": true, "LIBL": true, "DTA": true}

// clVerb: w is an IBM i command whose verb is a destroy (destroy set)
// or a change act: that act, "" for none (DSPLIB, WRKACTJOB read).
func clVerb(w string, destroy bool) string {
	if len(w) < 4 || len(w) > 10 || strings.ToUpper(w) != w || strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return ""
	}
	for pre, v := range clVerbs {
		if rest, ok := strings.CutPrefix(w, pre); ok && v.destroy == destroy && clObjects[rest] {
			return v.verb
		}
	}
	return ""
}

// clReads: IBM i command verbs that only display or retrieve (DSPLIB,
// DSPSYSVAL, RTVJOBA).
var clReads = map[string]bool{"DSP": true, "RTV": true}

// clAdminKind: the word where an admin shell's verb stands (system's
// quoted operand, a device shell's command) is an IBM i command: "read"
// for a display, the level:kind of admin.txt for a delete, clear, remove
// or restore over (deny:destroy) or another change (ask:change), "" when
// it is none.
func clAdminKind(c *Cmd, p *adminProg) string {
	pos, n := adminPositionals(c, p), p.verbSlot()
	if len(pos) < n {
		return ""
	}
	f := strings.Fields(pos[n-1])
	if len(f) == 0 {
		return ""
	}
	w := f[0]
	if clVerb(w, true) != "" {
		return "deny:destroy"
	}
	if clVerb(w, false) != "" {
		all := strings.ToUpper(strings.Join(pos[n-1:], " "))
		switch {
		case w == "CHGUSRPRF" && strings.Contains(all, "PASSWORD("):
			return "deny:cred" // another profile's password set
		case w == "CHGSYSVAL" && (strings.Contains(all, "QSECURITY") || strings.Contains(all, "QAUD") || strings.Contains(all, "QPWD")):
			return "deny:off" // the security level, audit or password rules changed
		}
		return "ask:change"
	}
	for pre := range clReads {
		if rest, ok := strings.CutPrefix(w, pre); ok && clObjects[rest] || ok && len(rest) >= 2 && len(rest) <= 6 && strings.ToUpper(rest) == rest && strings.Trim(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
			return "read"
		}
	}
	return ""
}
