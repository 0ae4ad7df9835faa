package callfacts

import "strings"

// psScriptFile is the script file PowerShell runs: the value of -File
// (-f), or for pwsh — whose first bare word is a script file — and for a
// bare *.ps1 given to powershell, the first word that is not an option.
// "" when it runs a -Command, encoded or piped code, or nothing.
func psScriptFile(name string, args []string) string {
	pwsh := name == "pwsh" || name == "pwsh.exe"
	for i := 0; i < len(args); i++ {
		l := strings.ToLower(args[i])
		switch {
		case l == "-file" || l == "-f":
			if i+1 < len(args) && args[i+1] != "-" {
				return args[i+1]
			}
			return ""
		case l == "-command" || l == "-c" || l == "/c" || l == "-encodedcommand" || l == "-enc" || l == "-ec" || l == "-e" || l == "-":
			return ""
		case psValueOpts[l]:
			i++
		case strings.HasPrefix(l, "-"):
		case pwsh || strings.HasSuffix(l, ".ps1"):
			return args[i]
		default:
			return ""
		}
	}
	return ""
}

// psWrittenScript runs, as PowerShell, the script file a pwsh or
// powershell call names when the line wrote it first (echo '…' > x.ps1 &&
// pwsh -File x.ps1): its text is judged as if typed. A file written with
// text the line does not show is an unknown script.
func (n *normalizer) psWrittenScript(idx int, name string, args []string, depth int, wrappers []string) {
	p := psScriptFile(name, args)
	if p == "" {
		return
	}
	t, ok := n.files[NormPath(p, n.cwd, n.home)]
	if !ok {
		return
	}
	if n.f.Commands[idx].Feed == "" {
		n.f.Commands[idx].Feed = t.from // curl -o x.ps1 …; pwsh -File x.ps1: a download run
	}
	if !t.known || t.names {
		n.f.Commands[idx].FeedUnknown = true
		n.derive("%s runs the file %s written earlier in the line, whose text the line does not show", name, p)
		return
	}
	n.derive("%s runs the file %s written earlier in the line: %q", name, p, short(t.s))
	n.powershell(t.s, depth+1, wrappers)
}
