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
	switch name {
	case "ssh", "autossh", "dbclient":
		for _, a := range args {
			if a == "--" {
				break
			}
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "NWOs") {
				return "" // -N: no command; -W, -O, -s: a forward, a control command, a subsystem
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
		if a == "ssh" {
			return "ssh"
		}
	}
	return ""
}
