package callfacts

import (
	"encoding/json"
	"strings"
)

// Call is the raw material of Facts: one hook event's relevant fields.
type Call struct {
	Event   string
	Tool    string
	Input   json.RawMessage // tool_input
	Prompt  string
	Cwd     string
	Home    string
	Project string
}

// Normalize builds the facts of a call. It never fails: what cannot be
// decoded or parsed is left out, and a command that does not parse is
// split conservatively (Facts.ParseError says so).
func Normalize(c Call) *Facts {
	// the facts, their reader and the first command in one allocation:
	// every call makes the first two, and a Bash call of one command
	// (most of them) then needs no slice of its own, nor one for the
	// names of its first few commands (addName)
	st := &struct {
		f     Facts
		n     normalizer
		cmd1  [1]Cmd
		names [4]string
	}{f: Facts{Event: c.Event, Tool: c.Tool, Prompt: c.Prompt, Cwd: c.Cwd, Home: c.Home,
		Project: c.Project}}
	f := &st.f
	f.nameList = st.names[:0:len(st.names)]
	if f.Project == "" {
		f.Project = c.Cwd
	}
	// a shell call's rules read its command, not the map of its input:
	// the map is made on first use (DecodeInput)
	shellCmd, shellRead := "", false
	if len(c.Input) > 0 {
		if c.Tool == "Bash" || c.Tool == "PowerShell" {
			shellCmd, shellRead = flatString(c.Input, "command")
		}
		if shellRead {
			f.rawInput = c.Input
		} else {
			f.Input = decodeInput(c.Input)
		}
	}
	n := &st.n
	*n = normalizer{f: f, cwd: c.Cwd, home: c.Home}
	str := func(k string) string {
		if shellRead && k == "command" {
			return shellCmd
		}
		s, _ := f.Input[k].(string)
		return s
	}
	switch c.Tool {
	case "Bash":
		cmd := str("command")
		if k := cmdsHint(cmd); k > 1 {
			f.Commands = make([]Cmd, 0, k)
		} else {
			f.Commands = st.cmd1[:0:1]
		}
		n.bash(cmd)
		if len(f.Commands) == 0 {
			f.Commands = nil // as a line of no command always read
		}
		for i := range min(len(f.Commands), len(f.cmdPtrs)) {
			f.cmdPtrs[i] = &f.Commands[i] // for Cmds, now the slice is final
		}
	case "PowerShell":
		f.Command = str("command")
		n.powershell(f.Command, 0, nil)
	case "Write":
		f.FilePath = n.file(str("file_path"), OpWrite)
		f.Content = str("content")
		f.Lines = CountLines(f.Content)
	case "Edit":
		f.FilePath = n.file(str("file_path"), OpWrite)
		f.Content = str("new_string")
	case "MultiEdit":
		f.FilePath = n.file(str("file_path"), OpWrite)
		if edits, ok := f.Input["edits"].([]any); ok {
			var b strings.Builder
			for _, e := range edits {
				if m, ok := e.(map[string]any); ok {
					s, _ := m["new_string"].(string)
					b.WriteString(s)
					b.WriteByte('\n')
				}
			}
			f.Content = b.String()
		}
	case "NotebookEdit":
		f.FilePath = n.file(str("notebook_path"), OpWrite)
		f.Content = str("new_source")
	case "Read":
		f.FilePath = n.file(str("file_path"), OpRead)
	case "Grep", "Glob", "LS":
		if p := str("path"); p != "" {
			f.FilePath = n.file(p, OpRead)
		}
	}
	return f
}

// cmdsHint guesses how many commands a line has (one more than its
// operators, and one more for quoted text with operators in it, which
// is likely code a command runs: bash -c "curl … | sh"), capped:
// Commands is made that large once instead of grown and copied command
// by command (a Cmd is some 350 bytes). Only a hint: more commands grow
// the slice as before.
func cmdsHint(s string) int {
	k := 1
	var quote byte     // the quote the scan is in, 0 outside
	opInQuote := false // an operator seen inside it
	for i := 0; i < len(s) && k < 8; i++ {
		switch c := s[i]; c {
		case '\'', '"':
			switch {
			case quote == 0:
				quote, opInQuote = c, false
			case quote == c:
				if opInQuote {
					k++
				}
				quote = 0
			}
		case '|', ';', '&', '\n':
			if c == '&' && (i > 0 && (s[i-1] == '>' || s[i-1] == '<') || i+1 < len(s) && s[i+1] == '>') {
				continue // 2>&1, &> log: a redirection
			}
			if i+1 < len(s) && s[i+1] == c {
				i++ // && and || are one operator
			}
			k++
			opInQuote = quote != 0
		}
	}
	return k
}

// bash reads a shell command line, Unicode look-alikes folded first.
func (n *normalizer) bash(command string) {
	n.f.Command = command
	if folded, changed := foldLookalikes(command); changed {
		n.f.Command, n.f.Obfuscated = folded, true
		n.derive("Unicode look-alikes folded to ASCII: %q", short(folded))
	}
	n.shell(n.f.Command, 0, nil, nil)
}

func (n *normalizer) file(p, op string) string {
	if p == "" {
		return ""
	}
	np := NormPath(p, n.cwd, n.home)
	n.f.Paths = append(n.f.Paths, PathRef{Path: np, Op: op, Via: n.f.Tool})
	return np
}

func CountLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// psAliases maps PowerShell cmdlets and aliases to the POSIX command the
// rules know, and psFlags their switches to POSIX flags.
var psAliases = map[string]string{
	"remove-item": "rm", "ri": "rm", "del": "rm", "erase": "rm", "rd": "rm", "rmdir": "rm",
	"format-volume": "mkfs", "clear-disk": "mkfs", "stop-process": "kill", "set-content": "tee",
	"out-file": "tee", "add-content": "tee", "get-content": "cat", "gc": "cat", "type": "cat",
	"invoke-expression": "eval", "iex": "eval", "copy-item": "cp", "move-item": "mv",
	"invoke-webrequest": "curl", "iwr": "curl", "invoke-restmethod": "curl", "irm": "curl",
	"start-process": "exec",
}

var psFlags = map[string]string{"-recurse": "-r", "-force": "-f", "-r": "-r", "-fo": "-f"}

// powershell normalizes a PowerShell command: the word-splitting fallback
// with cmdlets mapped to their POSIX counterparts (Remove-Item -Recurse
// -Force C:\ is rm -r -f /c). Its commands keep the wrappers of the
// pwsh that runs them: ssh dc02 'powershell -Command "Restart-Service
// NTDS"' restarts a service on dc02, not here (win14).
func (n *normalizer) powershell(src string, depth int, wrappers []string) {
	start := len(n.f.Commands)
	block, rest, remote := psRemoteBlock(src)
	n.text(rest, depth, wrappers, nil)
	if remote {
		// Invoke-Command -ComputerName X { … }: the block runs on X (psremoting.go)
		n.derive("invoke-command runs %q on another computer", short(block))
		n.text(block, depth, append(append([]string(nil), wrappers...), "invoke-command"), nil)
	}
	for i := start; i < len(n.f.Commands); i++ {
		c := &n.f.Commands[i]
		c.PowerShell = true
		aliased := false
		if m, ok := psAliases[strings.ToLower(c.Name)]; ok {
			c.Name = m
			n.f.addName(m)
			aliased = true
		}
		var flags []string
		for _, fl := range c.Flags {
			if m, ok := psFlags[strings.ToLower(fl)]; ok {
				flags = append(flags, m)
			} else {
				flags = append(flags, strings.ToLower(fl))
			}
		}
		c.Flags = flags
		if aliased || c.psCmdlet() {
			// the effect was read under the cmdlet's name (Stop-Process
			// had none); read it again under the POSIX one (kill), or as
			// a cmdlet read by its verb (pscmdlets.txt)
			c.Effect, _ = effectOf(c)
		}
		if c.tool().args != "" {
			n.paths(c)
		}
		psPipedKillName(n.f.Commands, i)
	}
}

// Bash reads a shell command line run in cwd: what the gates that look at
// a command alone (self-toggle) and tests need.
// No JSON is decoded: the command is at hand.
func Bash(command, cwd, home string) *Facts {
	f := &Facts{Tool: "Bash", Cwd: cwd, Home: home, Project: cwd, Input: map[string]any{"command": command}}
	n := &normalizer{f: f, cwd: cwd, home: home}
	n.bash(command)
	return f
}
