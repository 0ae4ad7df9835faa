package callfacts

import "strings"

// PowerShell remoting. A cmdlet given another computer
// (-ComputerName, -Session, -CimSession, -VMName…) acts on that machine,
// whatever its module: Restart-Computer -ComputerName build04 restarts a
// build box, Stop-Service -ComputerName web1 stops a server's service.
// Invoke-Command -ComputerName X { … } runs its script block there: the
// block's commands are read as running on another host (wrapper
// "invoke-command", like ssh's payload), so a Restart-WebAppPool inside
// is a change to that host and Get-Service a read.

// psRemoteOpts name the machine or session a cmdlet acts on (flags are
// lower case once read).
var psRemoteOpts = []string{"-computername", "-cn", "-session", "-cimsession", "-pssession", "-vmname", "-vmid", "-hostname", "-containerid"}

// psLocalHosts are names of this machine as a -ComputerName value.
var psLocalHosts = map[string]bool{"localhost": true, ".": true, "127.0.0.1": true, "::1": true, "$env:computername": true}

// psRemoteTarget: c, a cmdlet, is given another computer or a session.
func psRemoteTarget(c *Cmd) bool {
	for i, a := range c.Args {
		l := strings.ToLower(a)
		for _, o := range psRemoteOpts {
			if l == o || strings.HasPrefix(l, o+":") {
				v := ""
				if _, after, ok := strings.Cut(l, ":"); ok {
					v = after
				} else if i+1 < len(c.Args) {
					v = strings.ToLower(c.Args[i+1])
				}
				return !psLocalHosts[strings.Trim(v, `"'`)]
			}
		}
	}
	return false
}

// psInvokeRemote: c is Invoke-Command with a remote target wrapper.
func (c *Cmd) psInvokeRemote() bool {
	for _, w := range c.Wrappers {
		if w == "invoke-command" {
			return true
		}
	}
	return false
}

// psRemoteBlock finds Invoke-Command (icm) given another computer and its
// script block in src: the block's text and src without it; ok false
// when src has none.
func psRemoteBlock(src string) (block, rest string, ok bool) {
	low := strings.ToLower(src)
	at := -1
	for _, name := range []string{"invoke-command", "icm "} {
		if i := strings.Index(low, name); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		return "", src, false
	}
	open := strings.IndexByte(low[at:], '{')
	if open < 0 {
		return "", src, false
	}
	open += at
	head := low[at:open]
	remote := false
	for _, o := range psRemoteOpts {
		if strings.Contains(head, o+" ") || strings.Contains(head, o+":") {
			remote = true
		}
	}
	if !remote || strings.Contains(head, "localhost") {
		return "", src, false
	}
	depth := 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return src[open+1 : i], src[:open] + src[i+1:], true
			}
		}
	}
	return src[open+1:], src[:open], true // an unclosed block runs to the end
}

// psValueOpts are powershell.exe's options that take a value.
var psValueOpts = map[string]bool{"-executionpolicy": true, "-ep": true, "-ex": true, "-windowstyle": true, "-w": true, "-version": true, "-v": true,
	"-psconsolefile": true, "-inputformat": true, "-if": true, "-outputformat": true, "-of": true, "-o": true, "-configurationname": true,
	"-workingdirectory": true, "-wd": true, "-settingsfile": true}

// psBareCommand is the code Windows PowerShell (powershell, powershell.exe;
// not pwsh, whose bare word is a script file) runs when its arguments
// name no -Command, -File or -EncodedCommand: the words from the first
// that is not an option on are the command. "" when it runs a script
// file or the arguments name how to run.
func psBareCommand(name string, args []string) string {
	if name != "powershell" && name != "powershell.exe" {
		return ""
	}
	for i := 0; i < len(args); i++ {
		l := strings.ToLower(args[i])
		switch {
		case l == "-command" || l == "-c" || l == "/c" || l == "-file" || l == "-f" || l == "-encodedcommand" || l == "-enc" || l == "-ec" || l == "-e" || l == "-":
			return ""
		case psValueOpts[l]:
			i++
		case strings.HasPrefix(l, "-"):
		case strings.HasSuffix(l, ".ps1"):
			return ""
		default:
			return strings.Join(args[i:], " ")
		}
	}
	return ""
}
