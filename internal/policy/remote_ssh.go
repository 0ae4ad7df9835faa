package policy

import (
	"slices"
	"strings"
)

// Whether a command runs on another machine through a remote login
// shell (ssh host 'kubectl …', mosh host -- systemctl stop …) was asked
// by three helpers, each with its own list of wrappers: one took ssh,
// mosh and autossh anywhere in the chain, one only the outermost wrapper
// by name prefix (which also took a local shell function named ssh…()),
// one ssh alone. This is the one answer they share: the wrappers that
// count are sshWrapper's; where they may stand is the caller's explicit
// choice, because the rules that read only the outermost one give other
// verdicts than they would reading any (timeout 30 ssh web-prod-01 …).
//
// callfacts labels the command every remote login shell runs "ssh" in
// Cmd.Wrappers — ssh, mosh, autossh, et, dbclient, gcloud compute ssh
// --command, tsh ssh, fly ssh console (rshell.txt), a session fed to
// smbclient — so that label is the one that counts; mosh and autossh
// stand beside it for a label that keeps its program's own name. A
// container's exec (kubectl exec), a device's shell (adb shell) and a
// batch scheduler (srun) do not count here: the rules asking this judge
// a host's name and what is that host's; callfacts.InRemoteShell and
// Cmd.RunsElsewhere answer the wider question.

// sshWrapper: w, a label of Cmd.Wrappers, is a remote login shell.
func sshWrapper(w string) bool {
	n, _, _ := strings.Cut(w, " ")
	return n == "ssh" || n == "mosh" || n == "autossh"
}

// sshReach is where among a command's wrappers the remote shell may stand.
type sshReach int

const (
	// sshAnyWrapper: anywhere in the chain (sudo ssh host …, bash -c
	// "ssh host …"): a namespace, container or service it names is that
	// host's whatever runs the ssh.
	sshAnyWrapper sshReach = iota
	// sshOutermost: the line's own program is the remote shell (ssh host
	// '…'), or the sshpass that hands it a password: the production and
	// dev host rules (prod-host-change, prod-host-volumes, a dev host's
	// actions) read only this form.
	sshOutermost
)

// runsOverSSH: c runs on another machine, through a remote login shell
// standing where reach says.
func runsOverSSH(c *Cmd, reach sshReach) bool {
	if reach == sshOutermost {
		return len(c.Wrappers) > 0 && (sshWrapper(c.Wrappers[0]) || c.Wrappers[0] == "sshpass")
	}
	return slices.ContainsFunc(c.Wrappers, sshWrapper)
}
