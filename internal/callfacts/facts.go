// Package callfacts is warden's one reading of a tool call: it turns a
// Bash command, a file tool's input or a known MCP call into Facts — every
// command that would run (through wrappers, shells, -c payloads, pipes,
// xargs, find -exec, interpreters' library calls, containers, remote
// shells), each with its program, arguments, coarse effect and targets,
// and the paths the call touches. The policy engine and every workflow
// gate (safemode, mutation tracking, self-toggle) read these facts, so no
// consumer parses shell itself and none can read a command differently.
//
// Shell is parsed with a real parser (mvdan.cc/sh). Nothing here does work
// at package init, and the package imports nothing heavy: it sits on the
// hook's hot path.
package callfacts

import (
	"slices"
	"strings"
)

// Cmd is one simple command that would run, wherever it sits: in a pipeline,
// a list, a subshell, a command substitution, a function body, behind a
// wrapper (sudo, env, xargs, find -exec…) or inside a bash -c / eval payload.
type Cmd struct {
	// Name is the program's base name ("rm" for /bin/rm, \rm or 'rm').
	Name string `json:"name" expr:"name"`
	// Raw is argv[0] as written ("\\rm", "/bin/rm").
	Raw string `json:"raw,omitempty" expr:"raw"`
	// Args are the arguments after argv[0], unquoted. For git, global
	// options (-C dir, -c k=v) are dropped so Args[0] is the subcommand.
	Args []string `json:"args" expr:"args"`
	// Flags are the options among Args, split: "-rf" gives "-r" and "-f";
	// "--force=x" gives "--force". Everything after "--" is positional.
	Flags []string `json:"flags,omitempty" expr:"flags"`
	// Pos are the positional (non-option) arguments.
	Pos []string `json:"positional,omitempty" expr:"positional"`
	// Wrappers are the commands this one runs under, outermost first
	// ("sudo", "env", "bash -c", "find -exec"…).
	Wrappers []string `json:"wrappers,omitempty" expr:"wrappers"`
	// Depth is the nesting of shell payloads: 0 for the command itself,
	// 1 inside bash -c '…' or eval, and so on.
	Depth int `json:"depth,omitempty" expr:"depth"`
	// Payload is the code of an interpreter one-liner (python -c, node -e…)
	// or of sh -c / eval.
	Payload string `json:"payload,omitempty" expr:"payload"`
	// Upstream names the commands earlier in the same pipeline (curl for
	// the sh of `curl … | sh`).
	Upstream []string `json:"upstream,omitempty" expr:"upstream"`
	// Dir is the directory the command runs in: the call's cwd, changed by
	// an earlier `cd DIR` in the same command line.
	Dir string `json:"dir,omitempty" expr:"dir"`
	// Heredoc is the text fed to the command when the line shows it: a
	// here-document, a here-string, or what an earlier stage of the pipe
	// prints (echo, printf, cat of a file the line wrote, base64 -d).
	Heredoc string `json:"heredoc,omitempty" expr:"heredoc"`
	// Feed names the fetcher or decoder (curl, wget, base64) whose output
	// this shell or interpreter runs as code.
	Feed string `json:"feed,omitempty" expr:"feed"`
	// Stdin names what the command reads on its input when the line does
	// not show the text: "< FILE" for a redirect from a file (normalized),
	// "| NAME" for a pipe from a program (psql < dump.sql, cat x.sh | ssh
	// host bash). Empty when nothing is fed or Heredoc has the text.
	Stdin string `json:"stdin,omitempty" expr:"stdin"`
	// (The flags stand together: Cmd stays in a smaller allocation class.)
	// Escaped is true when argv[0] dodged aliases: \rm, 'rm', command rm.
	Escaped bool `json:"escaped,omitempty" expr:"escaped"`
	// PowerShell is set when the command was read from PowerShell text
	// (pwsh -Command, the PowerShell tool, a .ps1 shown): a Verb-Noun
	// name there is a cmdlet, read by its approved verb (pscmdlets.txt).
	PowerShell bool `json:"powershell,omitempty" expr:"powershell"`
	// FeedUnknown is set when this shell or interpreter runs script text
	// the line does not show (piped from a program, a file fetched or
	// built by one, the input of xargs sh -c).
	FeedUnknown bool `json:"feed_unknown,omitempty" expr:"feed_unknown"`
	// ScriptShown is set when this shell or interpreter runs a script
	// whose text the line shows (printf '…' > /tmp/x.sh && sh /tmp/x.sh,
	// a here-document): its commands are read and judged one by one.
	ScriptShown bool `json:"script_shown,omitempty" expr:"script_shown"`
	// Captured is set when a command substitution takes the command's
	// output ($(gh auth token)): it is not printed into the conversation.
	Captured bool `json:"captured,omitempty" expr:"captured"`
	// NameBuilt is set when argv[0] is built at run time by a decoder or
	// a fetcher (base64 -d, xxd -r, curl…) from text the line does not
	// show: a name hidden on purpose, $(base64 -d < n.b64) off.
	NameBuilt bool `json:"name_built,omitempty" expr:"name_built"`
	// Effect is what the command itself does (its wrapped or payload
	// commands have their own; EffectWhy says it in words), and Targets
	// are the paths it writes or deletes, normalized, where the line
	// names them.
	Effect  Effect   `json:"effect,omitempty" expr:"effect"`
	Targets []string `json:"targets,omitempty" expr:"targets"`
	// Remote is where a subcommand CLI talks to when a global option
	// before its subcommand says so ("--context=prod", "-H=tcp://h"):
	// the option is set aside from Args with the others.
	Remote string `json:"remote,omitempty" expr:"remote"`
	// NamedVerb is the verb the file name of a script not on disk says
	// (reset-workspace.sh: reset), read as its change (scriptnames.go).
	NamedVerb string `json:"named_verb,omitempty" expr:"named_verb"`
	// Typed are the arguments as written, global options included, when
	// some were set aside (kubectl -n dev --kubeconfig ./kind.yaml
	// delete pod x): nil otherwise.
	Typed []string `json:"-"`

	// dry caches DryRun, which the reading and a dozen rules each ask of
	// the same command (cmdmemo.go).
	dry dryMemo
	// spec caches tool(Name), which the reading asks of the same command
	// a dozen times (cmdmemo.go).
	spec specMemo
}

// Redirect is one redirection: `> file`, `>> file`, `< file`, `2>&1`.
type Redirect struct {
	Op     string `json:"op" expr:"op"`
	Target string `json:"target" expr:"target"` // normalized path (or "&1")
	Cmd    string `json:"cmd,omitempty" expr:"cmd"`
	// Fd is the descriptor written before the operator of a redirect to
	// /dev/null (2 of 2>/dev/null), "" when none is: Op alone does not
	// tell 2> from >.
	Fd string `json:"fd,omitempty" expr:"fd"`
	// Elsewhere is the target as written when the command runs on
	// another host (elsewhere.go): Target is read against this machine's
	// cwd, which is not that host's; "" for a command run here.
	Elsewhere string `json:"elsewhere,omitempty" expr:"elsewhere"`
}

// Path ops.
const (
	OpRead   = "read"
	OpWrite  = "write"
	OpDelete = "delete"
	OpArg    = "arg" // named on a command line; what happens to it is unknown
)

// PathRef is a path the call touches, normalized: absolute, ~ and $HOME
// expanded, .. resolved, forward slashes.
type PathRef struct {
	Path string `json:"path" expr:"path"`
	Op   string `json:"op" expr:"op"`
	// Via is the tool or command that touches it ("Write", "rm", ">").
	Via string `json:"via,omitempty" expr:"via"`
	// Elsewhere is the path as written when the command runs on another
	// host, as in Redirect.
	Elsewhere string `json:"elsewhere,omitempty" expr:"elsewhere"`
}

// Facts is the normalized call every rule looks at.
type Facts struct {
	Event string `json:"event" expr:"event"`
	Tool  string `json:"tool,omitempty" expr:"tool"`
	// Input is tool_input decoded. For a Bash or PowerShell call it may
	// be nil until DecodeInput (Normalize reads only the command; the
	// engine decodes it before a user rule's expression runs).
	Input map[string]any `json:"-" expr:"input"`
	// Command is the Bash/PowerShell command text.
	Command string `json:"command,omitempty" expr:"command"`
	// Commands are every simple command found in Command.
	Commands []Cmd `json:"commands,omitempty" expr:"commands"`
	// cmdPtrs[i] is &Commands[i] for the first commands, set when
	// Normalize is done: Cmds returns runs of it without allocating.
	cmdPtrs   [8]*Cmd
	Redirects []Redirect `json:"redirects,omitempty" expr:"redirects"`
	Paths     []PathRef  `json:"paths,omitempty" expr:"paths"`
	// FilePath is the normalized file_path/notebook_path of a file tool.
	FilePath string `json:"file_path,omitempty" expr:"file_path"`
	// Content is what a Write/Edit/NotebookEdit puts into the file (all new
	// strings joined for edits).
	Content string `json:"-" expr:"content"`
	// Lines is the line count of a Write's content (0 for other tools).
	Lines  int    `json:"lines,omitempty" expr:"lines"`
	Prompt string `json:"prompt,omitempty" expr:"prompt"`
	Cwd    string `json:"cwd,omitempty" expr:"cwd"`
	Home   string `json:"home,omitempty" expr:"home"`
	// Project is the project directory (CLAUDE_PROJECT_DIR, else cwd).
	Project string `json:"project,omitempty" expr:"project"`
	// ParseError is set when Command did not parse: Commands then come from
	// conservative word splitting and every reason says so.
	ParseError string `json:"parse_error,omitempty" expr:"parse_error"`
	// Derivation says how the facts were found: the script a pipe fed
	// into a shell, the constant a variable held, the call an interpreter
	// makes (for `warden policy explain`).
	Derivation []string `json:"derivation,omitempty" expr:"derivation"`
	// Truncated is set when the reading stopped at its bounds (payload
	// depth, command count): what lies deeper was not read.
	Truncated bool `json:"truncated,omitempty" expr:"truncated"`
	// Obfuscated is set when the command had Unicode look-alikes (spaces,
	// dashes, fullwidth letters) that were normalised before matching.
	Obfuscated bool `json:"obfuscated,omitempty" expr:"obfuscated"`
	// Session is a read-only view of session values for expressions.
	Session map[string]any `json:"-" expr:"session"`

	// nameList is the Commands' distinct names, for the per-rule
	// prefilter: a line has a few names and a rule asks about up to
	// dozens, so comparing the few is cheaper than looking each of the
	// dozens up. names is the same as a set, made only for a line of
	// more than nameMapAt names (most lines never pay for a map).
	nameList []string
	names    map[string]bool
	// rawInput is tool_input not yet decoded into Input (DecodeInput).
	rawInput []byte
}

// DecodeInput is Input, decoded first when Normalize left it for first
// use (a shell call, whose rules read Command).
func (f *Facts) DecodeInput() map[string]any {
	if f.Input == nil && f.rawInput != nil {
		f.Input, f.rawInput = decodeInput(f.rawInput), nil
	}
	return f.Input
}

const nameMapAt = 8

// addName records a command's name for HasCmd.
func (f *Facts) addName(n string) {
	if f.names != nil {
		if !f.names[n] {
			f.names[n] = true
			f.nameList = append(f.nameList, n)
		}
		return
	}
	if slices.Contains(f.nameList, n) {
		return
	}
	if f.nameList == nil {
		f.nameList = make([]string, 0, 4)
	}
	f.nameList = append(f.nameList, n)
	if len(f.nameList) > nameMapAt {
		f.names = make(map[string]bool, 2*len(f.nameList))
		for _, have := range f.nameList {
			f.names[have] = true
		}
	}
}

// HasCmd reports whether any command is named one of names.
func (f *Facts) HasCmd(names ...string) bool {
	if f.names == nil || len(f.nameList)*len(names) <= 48 {
		for _, have := range f.nameList {
			for _, n := range names {
				if have == n {
					return true
				}
			}
		}
		return false
	}
	for _, n := range names {
		if f.names[n] {
			return true
		}
	}
	return false
}

// Cmds returns the commands named one of names. Rules ask it on every
// call: a single hit, or hits next to each other, are a run of cmdPtrs
// (capacity capped, so a caller's append copies), not a new slice.
func (f *Facts) Cmds(names ...string) []*Cmd {
	var out []*Cmd
	lo, hi := -1, -1 // the run of cmdPtrs matched so far (out still nil)
	for i := range f.Commands {
		hit := false
		for _, n := range names {
			if f.Commands[i].Name == n {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		if out == nil {
			// cmdPtrs is checked against the command itself: facts made
			// by hand, or commands added after Normalize, fall back
			inPtrs := i < len(f.cmdPtrs) && f.cmdPtrs[i] == &f.Commands[i]
			if inPtrs && (lo < 0 || hi == i) {
				if lo < 0 {
					lo = i
				}
				hi = i + 1
				continue
			}
			if lo >= 0 {
				out = append(make([]*Cmd, 0, hi-lo+1), f.cmdPtrs[lo:hi]...)
			}
		}
		out = append(out, &f.Commands[i])
	}
	if out == nil && lo >= 0 {
		return f.cmdPtrs[lo:hi:hi]
	}
	return out
}

// Has reports whether c has any of the flags (with dashes: "-f", "--force").
func (c *Cmd) Has(flags ...string) bool {
	for _, f := range c.Flags {
		for _, w := range flags {
			if f == w {
				return true
			}
		}
	}
	return false
}

// Sub returns the i-th positional argument, or "".
func (c *Cmd) Sub(i int) string {
	if i < len(c.Pos) {
		return c.Pos[i]
	}
	return ""
}

// String is the command line as normalized, for reasons.
func (c *Cmd) String() string {
	if len(c.Args) == 0 {
		return c.Name
	}
	// one allocation: rules build a reason from it on every match, and
	// the zone reading labels each effect with it
	n := len(c.Name)
	for _, a := range c.Args {
		n += 1 + len(a)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(c.Name)
	for _, a := range c.Args {
		b.WriteByte(' ')
		b.WriteString(a)
	}
	return b.String()
}
