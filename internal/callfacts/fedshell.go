package callfacts

import "strings"

// A program that logs into another host, VM or device and runs no
// command of its own there opens a login shell, which reads its input
// as a script: ssh host <<'EOF' … EOF, echo 'sudo reboot' | ssh host,
// ssh host <<< '…', vagrant ssh <<EOF, gcloud compute ssh vm <<EOF,
// adb shell <<EOF. The text fed is the remote command, judged as ssh
// host 'CMD' is (#30).

// fedLoginShell is the label under which name, given args and no
// command, runs its input as shell code elsewhere ("" for none).
func fedLoginShell(name string, args []string) string {
	if fedSession(name, args) {
		return "ssh" // smbclient //fs/share <<EOF …: its session's commands, run on the server (fedsession.go)
	}
	switch name {
	case "ssh", "autossh", "dbclient":
		for _, a := range args {
			if a == "--" {
				break
			}
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "NWOsGVQ") {
				return "" // -N: no command; -W, -O, -s: a forward, a control command, a subsystem; -G, -V, -Q: print and exit
			}
		}
		withArg := "ipl oFJLRDbcEemOQSWwB"
		if name == "autossh" {
			withArg = "Mipl oFJLRDbcEemOQSWwB"
		}
		if r := SkipFlags(args, withArg); len(r) == 1 {
			return "ssh"
		}
		return ""
	case "adb":
		// adb [-s SERIAL] shell: the device's shell
		for i, a := range args {
			if a == "shell" {
				if i == len(args)-1 {
					return "adb shell"
				}
				return ""
			}
			if !strings.HasPrefix(a, "-") && (i == 0 || args[i-1] != "-s" && args[i-1] != "-t" && args[i-1] != "-H" && args[i-1] != "-P") {
				return ""
			}
		}
		return ""
	}
	// a subcommand word ssh among a CLI's first words, no command given
	// (vagrant ssh, gcloud compute ssh vm, fly ssh console, doctl compute
	// ssh, hcloud server ssh web-1, minikube ssh, gh codespace ssh)
	seen := 0
	for _, a := range args {
		if a == "--" {
			return "" // ssh's own arguments follow (vagrant ssh -- -L …)
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if seen++; seen > 3 {
			break
		}
		if a == "ssh" || a == "shell" && seen == 1 && shellSubcommands[name] {
			return "ssh"
		}
	}
	return ""
}

// shellSubcommands: the programs beyond ssh whose subcommand word opens
// a login shell in a VM or container (multipass shell vm1, lxc shell c1).
var shellSubcommands = map[string]bool{"multipass": true, "lxc": true, "incus": true, "limactl": true, "orb": true, "orbctl": true}

// fedSubcommands reads the lines fed to a catalogue CLI given no
// subcommand as its subcommands (virsh <<EOF destroy vm1 EOF runs
// virsh destroy vm1; zkCli.sh, a console with a table, alike), each
// with the global options the line gave (virsh -c qemu+ssh://h/system).
func (n *normalizer) fedSubcommands(c *Cmd, typed []string, fed string, depth int, wrappers, upstream []string) {
	if !onlyOptionValues(c.Args) || IsShell(c.Name) || IsInterpreter(c.Name) || c.Name == "ssh" {
		return
	}
	if p := adminTab().progs[c.Name]; remoteRules()[c.Name] == nil && (p == nil || p.listed || p.script) {
		// no table of its subcommands (or admin.txt reads its script itself: nsupdate)
		return
	}
	for k, line := range strings.Split(fed, "\n") {
		f := strings.Fields(line)
		if k >= 64 || len(f) == 0 || strings.HasPrefix(f[0], "#") || !subcommandWord(f[0]) {
			continue
		}
		argv := append(append([]string{c.Raw}, typed...), f...)
		n.derive("%s runs the fed line %q", c.Name, short(line))
		n.command(argv, false, nil, depth, wrappers, upstream)
	}
}

// onlyOptionValues: every word of args is an option or the value right
// after one (zkCli.sh -server zk1:2181): no subcommand or operand given.
func onlyOptionValues(args []string) bool {
	for i, a := range args {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if i == 0 || !strings.HasPrefix(args[i-1], "-") || strings.Contains(args[i-1], "=") {
			return false
		}
	}
	return true
}
