package callfacts

import (
	"path"
	"strings"
)

// A script run by an interpreter (python3 scripts/relativity_api.py
// delete-workspace --id 7, node tool.js purge-cache, bash x.sh
// drop-db, uv run x.py wipe) or by path (./x.sh delete-all), whose
// first word after it is a subcommand, is a program warden has no table
// for: that word is its verb, read as an unknown program's is, whether
// the script is on disk or not (reach, #30).

// scriptExts: the extensions of a script an interpreter runs.
var scriptExts = map[string]bool{".py": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".rb": true, ".php": true, ".pl": true, ".sh": true, ".bash": true, ".lua": true, ".r": true}

// scriptSubCmd is c read as the script it runs with the script's own
// arguments (Name its base name), nil when c runs no script file or the
// word after the script is no subcommand (an option, a path, a file).
func (c *Cmd) scriptSubCmd() *Cmd {
	if c.Payload != "" || c.Depth > 8 {
		return nil
	}
	args := c.Args
	switch {
	case IsInterpreter(c.Name) || IsShell(c.Name):
		if interpOwnOpt(c.Args, "-c", "-e", "-m", "-r", "--eval", "-p", "--print") {
			return nil // code or a module, not a script file
		}
	case c.Name == "uv" || c.Name == "bun" || c.Name == "deno" || c.Name == "poetry" || c.Name == "pipenv":
		if len(c.Pos) < 2 || c.Pos[0] != "run" {
			return nil
		}
		args = afterWord(args, "run")
	case (c.Name == "npm" || c.Name == "yarn" || c.Name == "pnpm") && len(c.Pos) > 1 && (c.Pos[0] == "run" || c.Pos[0] == "run-script"):
		// s28: npm run cli -- users delete 42: what follows -- goes to the
		// project's script, named for the program it runs, as a script
		// file's arguments do (python3 x.py delete-workspace)
		if rest := afterWord(args, "--"); len(rest) > 0 && !strings.ContainsAny(c.Pos[1], "/.") {
			return c.withArgs(c.Pos[1], rest)
		}
		return nil
	case strings.HasPrefix(c.Raw, "./") || strings.HasPrefix(c.Raw, "../") || scriptExts[strings.ToLower(path.Ext(c.Name))]:
		return c.withArgs(path.Base(c.Raw), args) // ./x.sh, or x.py run under uv run
	default:
		return nil
	}
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			continue // the interpreter's options (python3 -u, node --no-warnings)
		}
		if !scriptExts[strings.ToLower(path.Ext(a))] {
			return nil
		}
		return c.withArgs(path.Base(a), args[i+1:])
	}
	return nil
}

// afterWord: args after the first w.
func afterWord(args []string, w string) []string {
	for i, a := range args {
		if a == w {
			return args[i+1:]
		}
	}
	return nil
}

// withArgs is c as program name run with args: its positionals and
// flags split as a command's are, the first a subcommand or nil.
func (c *Cmd) withArgs(name string, args []string) *Cmd {
	// the script's own global options given with their values in one
	// word come first (pwb.py -family:imslp -lang:en upload …)
	for len(args) > 1 && len(args[0]) > 2 && args[0][0] == '-' && args[0][1] != '-' && strings.ContainsAny(args[0], ":=") {
		args = args[1:]
	}
	if len(args) == 0 || !subcommandWord(args[0]) || Known(name) {
		return nil // manage.py, artisan: tables of their own
	}
	s := *c
	s.Name, s.Raw, s.Args, s.Pos, s.Flags = name, name, args, nil, nil
	for i, a := range args {
		if a == "--" {
			s.Pos = append(s.Pos, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			k, _, _ := strings.Cut(a, "=")
			s.Flags = append(s.Flags, k)
			continue
		}
		s.Pos = append(s.Pos, a)
	}
	return &s
}

// subcommandWord: w reads as a subcommand (delete-workspace, purge,
// db:drop, users), not an option, path, file or value.
func subcommandWord(w string) bool {
	return w != "" && w[0] >= 'a' && w[0] <= 'z' && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789-_:") == ""
}

// scriptVerb: the destroy (or change) verb of the script c runs, as
// UnknownDestroy and UnknownChange read an unknown program's.
func (c *Cmd) scriptVerb(destroy bool) string { return c.scriptVerbOf(c.scriptSubCmd(), destroy) }

// scriptVerbOf is scriptVerb given c's scriptSubCmd s, which a caller
// asking both verbs (effectOf) reads once.
func (c *Cmd) scriptVerbOf(s *Cmd, destroy bool) string {
	if s == nil {
		if !destroy {
			return c.NamedVerb // bash ~/bin/reset-workspace.sh, not on disk (scriptnames.go)
		}
		return ""
	}
	var v string
	if destroy {
		v = s.destroyWord()
	} else {
		v = s.changeWord()
	}
	if t := destroyVerbs(); (t.verbs[v] || t.changes[v]) && strings.EqualFold(s.Pos[len(s.Pos)-1], v) {
		return "" // a bare verb last (./scripts/cleanup.sh delete): the project's own task, named by its script
	}
	if v == "" || s.localHostTarget() || localDevGroup(s) || s.DryRun() || s.asksHelp() || s.ownTarget(!destroy) || s.localFileTarget() || s.localStoreTarget() {
		return ""
	}
	return v
}

// asksHelp: c is given -h or --help as an argument of its own. Flags
// will not do: a single-dash long option (ONTAP's -destination-path,
// -vserver) splits into letters there, one of them h. A -h followed by
// an address (toxiproxy-cli -h proxy.example.net:8474 toxic add …, -h
// localhost, -h "$HOST") is the host option, as psql's and mysql's is.
func (c *Cmd) asksHelp() bool {
	for i, a := range c.Args {
		if a == "--" {
			break
		}
		if a == "-h" && i+1 < len(c.Args) && hostValue(c.Args[i+1]) {
			continue
		}
		if a == "-h" || a == "--help" || strings.HasPrefix(a, "--help=") {
			return true
		}
	}
	return false
}

// hostValue: v reads as a host or address an option names (a dotted or
// ported name, localhost, a variable), not an operand word.
func hostValue(v string) bool {
	if v == "" || v[0] == '-' {
		return false
	}
	return strings.ContainsAny(v, ".:$") || v == "localhost"
}

// interpOwnOpt: one of opts is among the interpreter's own options, the
// ones before the script file; the script's options after it
// (pwb.py -family:imslp, whose letters hold an m) are not the
// interpreter's.
func interpOwnOpt(args []string, opts ...string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return false
		}
		for _, o := range opts {
			if a == o || strings.HasPrefix(a, o+"=") || len(o) == 2 && len(a) > 2 && a[1] != '-' && strings.ContainsRune(a[1:], rune(o[1])) && !strings.ContainsAny(a, ":=") {
				return true
			}
		}
	}
	return false
}
