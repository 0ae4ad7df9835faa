package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Reads as root, judged by what runs under sudo. sudo raises privilege;
// what matters is what the command does. A command the reading knows
// only reads — a read-only tool (pvs, lsblk), a program's reporting
// subcommand or option (tools.txt reports=), an admin table's read line
// (admin.txt), a console's look (vtysh -c 'show …'), a read verb — is a
// read as root too; a secret it reads is judged by the path and secret
// rules, and anything unknown or that changes still asks.

// rootKnownRead: d, a command run as root (under sudo itself or under a
// shell sudo runs), only reads by what the reading knows of it.
func rootKnownRead(d *Cmd) bool {
	if d.Effect != callfacts.EffectNone || callfacts.IsShell(d.Name) || callfacts.IsInterpreter(d.Name) || d.Payload != "" && !consoleLooks(d) {
		return false
	}
	if rootQuery(&Cmd{Name: "sudo", Args: append([]string{d.Name}, d.Args...)}) != "" {
		return true // the root queries' table: lvs, lsblk, systemctl status, journalctl
	}
	if shownReadTools[d.Name] || confPrinter(d) || d.OnlyReports() || d.ListsOnly() || onlyHelp(d) || readProgram(d.Name) && !reportActs(d) || consoleLooks(d) || d.AdminReads() || dottedReadOp(d) {
		return true
	}
	return len(d.Pos) > 0 && callfacts.ReadWord(strings.ToLower(d.Pos[0])) && !strings.ContainsAny(d.Pos[0], "/.=$")
}

// rootShellReads: sudo (doas) runs a shell given its commands as text
// (sudo bash -c 'pvs; vgs; lvs -a'), and every command of that text is a
// known read as root, none writing a file by a redirect: the text is
// read as the commands it holds.
func rootShellReads(e *Env, c *Cmd) bool {
	if c.Name != "sudo" && c.Name != "doas" {
		return false
	}
	in := innerCmd(e, c)
	if in == nil || !callfacts.IsShell(in.Name) || in.Payload == "" {
		return false
	}
	n := 0
	for i := range e.F.Commands {
		d := &e.F.Commands[i]
		if d.Depth <= in.Depth || len(d.Wrappers) <= len(in.Wrappers) {
			continue
		}
		if !rootKnownRead(d) {
			return false
		}
		n++
	}
	for _, r := range e.F.Redirects {
		if r.Op != "<" && r.Op != "<<" && r.Op != "<<<" && r.Target != "/dev/null" && !strings.HasPrefix(r.Target, "&") {
			return false // a file written
		}
	}
	return n > 0
}
