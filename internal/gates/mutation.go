package gates

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-dev/warden/internal/event"
)

// Mutation reports whether a tool call changes files or repository state,
// and why. Gates deny mutations, never reads: Read, Grep, a `git status` or
// a test run always pass. Shell commands are parsed (mvdan.cc/sh), not
// matched as text, so `echo "rm -rf x"` is not a mutation and `bash -c 'rm
// x'` is; a command that does not parse counts as a mutation, because a gate
// that could be dodged by a syntax error would be no gate.
func Mutation(in *event.Input) (bool, string) {
	switch in.ToolName {
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		return true, in.ToolName
	case "Bash", "PowerShell":
		return BashMutation(in.ToolString("command"))
	}
	if strings.HasPrefix(in.ToolName, "mcp__") && mcpWriteTool().MatchString(in.ToolName) {
		return true, in.ToolName + " (an MCP tool that writes)"
	}
	return false, ""
}

// mcpWriteTool matches MCP tools whose name says they change something
// (filesystem servers' write_file, edit_file, move_file, GitHub's
// create_or_update_file, push_files…). Compiled on first use.
var mcpWriteTool = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)__[a-z0-9_]*(write|edit|create|delete|remove|move|rename|update|patch|push|commit|upload|put|insert|drop|apply|replace|set)[a-z0-9_]*$`)
})

// mutatingCommands change files whatever their arguments.
var mutatingCommands = map[string]bool{
	"rm": true, "rmdir": true, "mv": true, "cp": true, "mkdir": true, "touch": true, "chmod": true,
	"chown": true, "chgrp": true, "ln": true, "tee": true, "truncate": true, "dd": true, "install": true,
	"patch": true, "unlink": true, "shred": true, "rsync": true, "tar": true, "unzip": true,
	"gunzip": true, "gzip": true, "mkfs": true, "mktemp": false, "curl": false, "wget": false,
	"Set-Content": true, "Add-Content": true, "Out-File": true, "Remove-Item": true, "New-Item": true,
	"Move-Item": true, "Copy-Item": true, "Rename-Item": true,
}

// mutatingSub are tools whose subcommand decides.
var mutatingSub = map[string]map[string]bool{
	"git": {"add": true, "commit": true, "push": true, "merge": true, "rebase": true, "reset": true,
		"checkout": true, "switch": true, "restore": true, "rm": true, "mv": true, "stash": true,
		"cherry-pick": true, "revert": true, "apply": true, "am": true, "tag": true, "clean": true,
		"pull": true, "init": true, "clone": true, "branch": true, "worktree": true, "submodule": true},
	"npm":   {"install": true, "i": true, "add": true, "uninstall": true, "remove": true, "rm": true, "update": true, "publish": true, "unpublish": true, "ci": true, "link": true},
	"pnpm":  {"install": true, "i": true, "add": true, "remove": true, "update": true, "publish": true},
	"yarn":  {"add": true, "remove": true, "install": true, "upgrade": true, "publish": true},
	"pip":   {"install": true, "uninstall": true},
	"pip3":  {"install": true, "uninstall": true},
	"go":    {"get": true, "install": true, "generate": true, "mod": true},
	"cargo": {"add": true, "remove": true, "install": true, "update": true, "publish": true},
	"gh":    {"pr": true, "release": true, "repo": true, "issue": true},
}

// inPlaceFlags make an editor-like tool write its input files.
var inPlaceFlags = map[string][]string{"sed": {"-i", "--in-place"}, "perl": {"-i", "-pi"}, "ruby": {"-i"}}

// wrappers run their operand as the command.
var wrappers = map[string]bool{"sudo": true, "env": true, "nohup": true, "timeout": true, "nice": true,
	"command": true, "exec": true, "xargs": true, "time": true, "doas": true, "stdbuf": true, "ionice": true}

// shells run a -c payload.
var shells = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true}

const maxDepth = 5

// BashMutation classifies a shell command line.
func BashMutation(cmd string) (bool, string) {
	return bashMutation(cmd, 0)
}

func bashMutation(cmd string, depth int) (bool, string) {
	if depth > maxDepth {
		return true, "shell nesting deeper than 5 levels"
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return true, fmt.Sprintf("the command does not parse (%v), so it is treated as a change", err)
	}
	var why string
	syntax.Walk(f, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.Redirect:
			if isFileWrite(n) {
				why = "writes to " + wordText(n.Word)
			}
		case *syntax.CallExpr:
			if w := callMutation(n, depth); w != "" {
				why = w
			}
		}
		return true
	})
	return why != "", why
}

func isFileWrite(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.ClbOut:
	default:
		return false
	}
	target := wordText(r.Word)
	switch target {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty":
		return false
	}
	return true
}

// callMutation looks at one simple command, unwrapping sudo/env/timeout…
// and recursing into bash -c and eval payloads.
func callMutation(c *syntax.CallExpr, depth int) string {
	args := make([]string, 0, len(c.Args))
	for _, a := range c.Args {
		args = append(args, wordText(a))
	}
	for len(args) > 0 {
		name := path.Base(strings.TrimPrefix(args[0], "\\"))
		switch {
		case wrappers[name]:
			args = skipWrapperArgs(name, args[1:])
			continue
		case name == "eval":
			if m, why := bashMutation(strings.Join(args[1:], " "), depth+1); m {
				return why
			}
			return ""
		case shells[name]:
			for i, a := range args[1:] {
				if a == "-c" && i+2 < len(args) {
					if m, why := bashMutation(args[i+2], depth+1); m {
						return name + " -c: " + why
					}
					return ""
				}
			}
			if len(args) > 1 {
				return name + " runs a script, which may change anything"
			}
			return ""
		case name == "find":
			for i, a := range args {
				if a == "-delete" {
					return "find -delete"
				}
				if (a == "-exec" || a == "-execdir" || a == "-ok") && i+1 < len(args) {
					end := len(args)
					for j := i + 1; j < len(args); j++ {
						if args[j] == ";" || args[j] == "+" || args[j] == `\;` {
							end = j
							break
						}
					}
					if m, why := bashMutation(strings.Join(quoteAll(args[i+1:end]), " "), depth+1); m {
						return "find -exec: " + why
					}
				}
			}
			return ""
		case mutatingCommands[name]:
			return name
		case inlineInterpreter(name, args[1:]):
			return name + " with inline code, which may change files"
		case name == "alias":
			for _, a := range args[1:] {
				if _, target, ok := strings.Cut(a, "="); ok {
					if m, why := bashMutation(target, depth+1); m {
						return "alias for " + why
					}
				}
			}
			return ""
		case sqlClients[name]:
			if sqlWrite().MatchString(strings.Join(args[1:], " ")) {
				return name + " with a statement that writes"
			}
			return ""
		case name == "curl" || name == "wget":
			if downloads(name, args[1:]) {
				return name + " writing a file"
			}
			return ""
		}
		if subs, ok := mutatingSub[name]; ok {
			if sub := firstOperand(args[1:]); subs[sub] {
				return name + " " + sub
			}
			return ""
		}
		if flags, ok := inPlaceFlags[name]; ok {
			for _, a := range args[1:] {
				for _, f := range flags {
					if a == f || strings.HasPrefix(a, f) && (name != "perl" || strings.Contains(a, "i")) {
						return name + " " + a + " (edits files in place)"
					}
				}
			}
		}
		return ""
	}
	return ""
}

// sqlClients run SQL from their arguments.
var sqlClients = map[string]bool{"sqlite3": true, "psql": true, "mysql": true, "mariadb": true, "duckdb": true}

// sqlWrite matches SQL that changes a database (compiled on first use).
var sqlWrite = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(insert|update|delete|drop|create|alter|replace|truncate|vacuum|attach|pragma\s+\w+\s*=)\b|\.(import|restore)\b`)
})

// downloads: curl -o/-O/--output, wget unless it writes to stdout.
func downloads(name string, args []string) bool {
	for i, a := range args {
		switch name {
		case "curl":
			if a == "-o" || a == "-O" || a == "--output" || a == "--remote-name" || strings.HasPrefix(a, "--output=") ||
				(strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "oO")) {
				return true
			}
		case "wget":
			if (a == "-O" || a == "--output-document") && i+1 < len(args) && args[i+1] == "-" ||
				a == "--output-document=-" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "O-") {
				return false
			}
		}
	}
	return name == "wget"
}

// inlineInterpreter: `python -c`, `node -e`, `ruby -e`, `perl -e`, `php -r`
// run code warden cannot see into cheaply; a gate treats it as a change.
func inlineInterpreter(name string, args []string) bool {
	flag := map[string]string{"python": "-c", "python3": "-c", "python2": "-c", "node": "-e", "nodejs": "-e",
		"ruby": "-e", "perl": "-e", "php": "-r", "deno": "eval", "bun": "-e"}[name]
	if flag == "" {
		return false
	}
	for _, a := range args {
		if a == flag || (name == "node" && (a == "--eval" || a == "-p")) || (name == "perl" && a == "-E") {
			return true
		}
	}
	return false
}

// wrapperValueFlags are the wrapper options that take a value.
var wrapperValueFlags = map[string]map[string]bool{
	"sudo":    {"-u": true, "-g": true, "-C": true, "-D": true, "-h": true, "-p": true, "-r": true, "-t": true, "-U": true},
	"doas":    {"-u": true, "-C": true},
	"nice":    {"-n": true},
	"timeout": {"-s": true, "-k": true},
	"env":     {"-u": true, "-C": true, "-S": true},
	"xargs":   {"-I": true, "-n": true, "-P": true, "-L": true, "-s": true, "-d": true, "-E": true, "-a": true},
	"ionice":  {"-c": true, "-n": true, "-p": true},
	"stdbuf":  {"-i": true, "-o": true, "-e": true},
}

// skipWrapperArgs drops a wrapper's own options (with their values), and
// for env its VAR=value words, for timeout its duration.
func skipWrapperArgs(name string, args []string) []string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--":
			return args[1:]
		case strings.HasPrefix(a, "-"):
			args = args[1:]
			if wrapperValueFlags[name][a] && len(args) > 0 {
				args = args[1:]
			}
		case name == "env" && strings.Contains(a, "="):
			args = args[1:]
		case name == "timeout" && len(a) > 0 && a[0] >= '0' && a[0] <= '9':
			args = args[1:]
		default:
			return args
		}
	}
	return args
}

func firstOperand(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-C" || a == "-c" { // git -C dir, git -c k=v
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if q, err := syntax.Quote(a, syntax.LangBash); err == nil {
			out[i] = q
		}
	}
	return out
}

// wordText is the text of a word as the shell would pass it: quotes and
// escapes removed; expansions keep their source form ($HOME stays "$HOME").
func wordText(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, ""))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(unescape(l.Value, "$`\"\\\n"))
				} else {
					b.WriteString(nodeSource(q))
				}
			}
		default:
			b.WriteString(nodeSource(p))
		}
	}
	return b.String()
}

// unescape removes backslashes: before any character outside quotes
// (only == ""), or only before the characters in only (inside double
// quotes, where \$ \` \" \\ and a newline are the escapes).
func unescape(s, only string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (only == "" || strings.IndexByte(only, s[i+1]) >= 0) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func nodeSource(n syntax.Node) string {
	var b strings.Builder
	syntax.NewPrinter().Print(&b, n)
	return b.String()
}
