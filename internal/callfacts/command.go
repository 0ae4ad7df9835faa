package callfacts

import (
	"encoding/base64"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"
)

// shells run their -c payload as shell code.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true,
	"ash": true, "fish": true, "mksh": true, "busybox-sh": true, "rbash": true,
	"qsh": true} // qsh: IBM i's QShell, reached over ssh (qsh -c 'rm -rf /home/x')

// IsShell reports whether a program runs shell code (sh, bash, zsh…).
func IsShell(name string) bool {
	return name != "" && shellEnds().has(name[0], name[len(name)-1]) && shells[name]
}

// shellEnds are the first and last bytes of the names of shells
// (interpreterEnds says why).
var shellEnds = sync.OnceValue(func() *bytePairs { return pairsOf(shells) })

// interpreters and the flag that takes a one-liner.
var interpreters = map[string][]string{
	"python": {"-c"}, "python2": {"-c"}, "python3": {"-c"}, "ipython": {"-c"}, "ipython3": {"-c"}, "pypy": {"-c"}, "pypy3": {"-c"},
	"ruby": {"-e"}, "node": {"-e", "--eval", "-p", "--print"}, "nodejs": {"-e", "--eval", "-p", "--print"},
	"perl": {"-e", "-E"}, "php": {"-r"}, "lua": {"-e"}, "deno": {"eval"}, "bun": {"-e", "--eval"},
	"rscript": {"-e"}, "elixir": {"-e", "--eval"}, "tclsh": {"-c"}, "wish": {"-c"}, "julia": {"-e", "--eval", "-E", "--print"},
	"groovy": {"-e"}, "r": {"-e"}, // R -e 'expr' as Rscript -e
	// the languages of interphosts.txt's hosts: octave --eval, scilab -e,
	// and the names their code is read under (emacs --eval is elisp)
	"octave": {"--eval"}, "scilab": {"-e"}, "elisp": {"-e"}, "mel": {"-e"}, "script-fu": {"-e"},
	"vimscript": {"-e"}, // Vim script (vim -c 'call …', interphosts.txt)
	"stata-do":  {"-e"}, // Stata's do-file language (interpstata.go): no program of that name, as elisp
}

// command records argv (and, through wrappers, the commands it runs).
// stdin is the text fed to it (a pipe, a here-document), nil when nothing
// is fed.
func (n *normalizer) command(argv []string, escaped bool, stdin *text, depth int, wrappers, upstream []string) {
	stdinFile, captured, nameBuilt := n.stdinFile, n.captured, n.nameBuilt
	n.stdinFile, n.captured, n.nameBuilt = "", false, false // nested commands (payloads, find -exec) have their own
	for len(argv) > 0 {
		if len(n.f.Commands) >= maxCmds {
			n.f.Truncated = true
			return
		}
		raw := argv[0]
		name := ProgramName(raw)
		if name == "" {
			return
		}
		if sub, ok := strings.CutPrefix(name, "git-"); ok && tool("git").subs[sub] {
			// git-filter-repo is git filter-repo: git runs git-SUB for SUB
			argv = append([]string{"git", sub}, argv[1:]...)
			raw, name = "git", "git"
		}
		if name == "git" && len(argv) > 1 && argv[1] != "" && argv[1][0] != '-' {
			// the name looked up without building it (most git commands
			// are no extension): a map index by string(bytes) does not
			// allocate
			var buf [64]byte
			if remoteRules()[string(append(append(buf[:0], "git-"...), argv[1]...))] != nil {
				ext := "git-" + argv[1]
				// git town ship is git-town ship: git runs git-SUB for a
				// SUB it does not have, and the catalogue names the
				// extension (git-town, git-spr)
				argv = append([]string{ext}, argv[2:]...)
				raw, name = ext, ext
			}
		}
		if full, ok := shortNames[name]; ok {
			name = full // k get pods: the alias every kubectl guide sets up
		} else if sh, ok := shellVars[name]; ok {
			name = sh // "$SHELL" <(curl …): the user's shell (shellvars.go)
		}
		if GlobLike(name) {
			name = n.globName(name)
		}
		c := Cmd{Name: name, Raw: raw, Args: argv[1:], Depth: depth, Escaped: escaped,
			Wrappers: wrappers, Upstream: upstream, Dir: n.cwd, Captured: captured, NameBuilt: nameBuilt && strings.Contains(raw, "$(…)")}
		switch {
		case stdin != nil && stdin.known:
			c.Heredoc = stdin.s
		case stdinFile != "":
			c.Stdin = "< " + stdinFile
		case stdin != nil && stdin.file != "":
			c.Stdin = "< " + stdin.file // cat FILE | psql reads FILE
		case stdin != nil && len(upstream) > 0:
			c.Stdin = "| " + upstream[len(upstream)-1]
		case stdin != nil:
			c.Stdin = "| a program"
		}
		for i, a := range c.Args {
			// psql -f FILE, sqlcmd -i FILE, sqlplus @FILE, mysql < FILE …: a
			// file the line wrote is the input
			if f := sqlFileArg(name, c.Args, i); f != "" {
				if t, ok := n.files[NormPath(f, n.cwd, n.home)]; ok && t.known {
					c.Heredoc += t.s
				}
			} else if len(n.files) > 0 && !strings.HasPrefix(a, "-") && !Known(name) && !strings.ContainsAny(name, "/$") {
				// a program no table knows given a file the line wrote
				// (printf 'DROP …' > /tmp/q && dbtool run /tmp/q): what
				// it reads is the text the line shows
				if t, ok := n.files[NormPath(a, n.cwd, n.home)]; ok && t.known {
					c.Heredoc += t.s
				}
			}
		}
		n.writtenFileArgs(&c)           // --change-batch file:///tmp/b.json the line wrote (fedplaybook.go)
		n.writtenCommandFiles(&c, name) // openocd -f /tmp/flash.cfg the line wrote (commandfiles.go)
		fedCommands(&c, name)           // printf "P 0 90" | rotctl - (commandfiles.go)
		if name == "git" {
			n.gitConfigCode(c.Args, depth, wrappers)
			n.gitConfigSetCode(c.Args, depth, wrappers)
		}
		// global options before the subcommand (git -C, kubectl -n, aws
		// --profile): set aside, the directory they name kept (tools.txt)
		typed := c.Args
		c.Args, c.Dir, c.Remote = toolArgs(tool(name), c.Args, c.Dir, n.home)
		if len(c.Args) != len(typed) {
			c.Typed = typed
		}
		splitFlags(&c)
		inner, innerName, payload := unwrap(name, hostOptArgs(name, typed, c.Args))
		// asked once: the name is settled from here on, and the answer
		// is wanted four times below
		interp := IsInterpreter(name)
		if inner == nil && payload == "" && !interp {
			if hi := hostInterpArgv(name, c.Args); hi != nil {
				// hython -c CODE, blender --python-expr CODE, nuke -t x.py
				// (interphosts.txt): read as the language's interpreter
				n.derive("%s runs %s code", name, hi[0])
				inner, innerName = hi, name
			}
		}
		if inner == nil && payload == "" && stdin != nil && stdin.known && strings.TrimSpace(stdin.s) != "" {
			if label := fedLoginShell(name, c.Args); label != "" {
				// ssh host <<'EOF' … EOF: the login shell there runs its input
				// (fedshell.go), or a device's CLI its session: configure
				// terminal … shutdown … end (sshinput.go)
				payload, innerName = stdin.s, label
				if d, ok := deviceScript(payload); ok {
					payload = d
				}
				n.derive("%s runs its input as a shell script there: %q", name, short(stdin.s))
			}
		}
		if interp {
			payload = interpPayload(name, c.Args)
		} else if name == "mix" && c.Sub(0) == "run" {
			payload = interpPayload("elixir", c.Args) // mix run -e CODE: Elixir code in the project's app
		}
		// the wrappers of what this command runs: built where it runs
		// something, not for every command
		w := func() []string { return append(append([]string(nil), wrappers...), innerName) }
		// The script a shell or an interpreter reads: a file written
		// earlier in the line, or its input.
		if script, from := n.scriptOf(&c, payload, inner, stdin); script != nil {
			if script.names {
				script = &text{} // file names run as a script: unknown
			}
			c.Feed = script.from
			if script.known {
				payload = script.s
				c.ScriptShown = script.from == ""
				n.derive("%s runs %s: %q", name, from, short(script.s))
			} else {
				c.FeedUnknown = true
				n.derive("%s runs %s, whose text the line does not show", name, from)
			}
		}
		if payload == "" && c.Feed == "" && !c.FeedUnknown && unknownScriptOperand(&c) {
			c.FeedUnknown = true // bash "$MAINT_SCRIPT": a script whose name the line does not show (varscript.go)
			n.derive("%s runs the script in %s, which the line does not show", name, c.Pos[0])
		}
		if IsShell(name) && payload == "" && c.Has("-c") && len(wrappers) > 0 || payload != "" && UnknownValue(payload) && strings.TrimSpace(UnknownParts(payload)) == "" {
			// xargs sh -c, bash -c "$CMD": the script is not in the line. A
			// bare bash -c with nothing after it and nothing to append a
			// script (no xargs, find -exec, sudo…) stops at its usage error.
			c.FeedUnknown = true
		}
		c.Payload = payload
		if c.Feed == "" && payload != "" && interp {
			c.Feed = n.fetchedFeed(name, payload)
		}
		idx := len(n.f.Commands)
		n.f.Commands = append(n.f.Commands, c)
		// on the stored copy: c passed to a rule through a func value
		// would escape to the heap on every command
		stored := &n.f.Commands[idx]
		stored.NamedVerb = n.scriptNameVerb(stored)
		stored.Effect, _ = effectOf(stored)
		n.f.addName(name)
		if name == "env" {
			for _, a := range c.Args {
				// env PAGER='sh -c …' man: the variable's value runs
				if k, v, ok := strings.Cut(a, "="); ok && envCommandVar(k) {
					n.derive("%s runs %q", k, v)
					n.shell(v, depth+1, append(append([]string(nil), w()...), k+"="), nil)
				}
			}
			for i, a := range c.Args {
				if (a == "-C" || a == "--chdir") && i+1 < len(c.Args) {
					n.cwd = NormPath(c.Args[i+1], n.cwd, n.home) // env -C DIR cmd runs cmd there
				}
				if d, ok := strings.CutPrefix(a, "--chdir="); ok {
					n.cwd = NormPath(d, n.cwd, n.home)
				}
			}
		}
		if name == "cd" || name == "pushd" {
			// Later commands run there (a subshell's cd leaks: conservative).
			switch {
			case len(c.Pos) == 0:
				n.cwd = n.home
			case c.Pos[0] != "-" && !strings.HasPrefix(c.Pos[0], "$("):
				n.cwd = NormPath(c.Pos[0], n.cwd, n.home)
			}
		}
		named := len(n.f.Paths)
		n.paths(&c)
		n.targets(idx, named)
		n.outputs(&c, stdin)

		n.playbookTasks(stored, stdin, depth, wrappers, upstream) // ansible-playbook /dev/stdin <<EOF, a playbook the line wrote (fedplaybook.go)
		if stdin != nil && stdin.known && payload == "" && inner == nil {
			n.fedSubcommands(&c, typed, stdin.s, depth, wrappers, upstream) // virsh <<EOF destroy vm1 EOF (fedshell.go)
		}
		src := ""
		if payload == "" {
			src = n.compiledSource(&n.f.Commands[idx], stdin)
		}
		switch {
		case src != "": // go run - <<EOF, go run /tmp/x.go the line wrote
			n.derive("%s builds and runs the source the line shows: %q", name, short(src))
			n.f.Commands[idx].Payload = src // its library calls are judged like a one-liner's
			if e, _ := inlineEffect(&n.f.Commands[idx]); e == EffectDelete || e == EffectWrite {
				n.f.Commands[idx].Effect = e
			}
			n.interp(name, src, depth+1, w())
		case runners[name] && payload == "": // bun is an interpreter too
			n.runByName(&n.f.Commands[idx], stdin, depth, w())
		case interp || name == "mix" && payload != "":
			if payload != "" {
				n.interp(name, bindArgv(payload, c.Args), depth+1, w())
				if InterpRunsUnseen(payload) {
					// os.system(os.environ['CMD']): like bash -c "$CMD"
					n.f.Commands[idx].FeedUnknown = true
				}
			}
		case payload != "": // bash -c, eval, env -S, watch, ssh, su -c, a script the line wrote
			n.feedPayload(name, innerName, payload, stdin, depth+1)
			if name == "ssh" && n.remote != nil {
				n.onHost(sshDest(c.Args), func() { n.shell(payload, depth+1, w(), nil) }) // a script copied there (remotefiles.go)
			} else if args, ok := n.scriptArgs(&c, payload); ok && len(args) > 0 {
				n.withArgs(args, func() { n.shell(payload, depth+1, w(), nil) }) // its $1 is the argument it is run with (fedpayload.go)
			} else {
				n.shell(payload, depth+1, w(), nil)
			}
			n.feed = nil
			if (name == "ssh" || innerName == "ssh") && stdin != nil && stdin.known && payload != stdin.s && (remoteReadsScript(payload) || remoteListReadsScript(payload)) && !remoteInterpreter(payload) {
				// ssh host 'bash -s' <<< '…': the remote command reads it
				// (for ssh host 'cat > f' the input is data, not code)
				n.shell(stdin.s, depth+1, w(), nil)
			} else if (name == "ssh" || innerName == "ssh") && stdin != nil && stdin.known && payload != stdin.s && remotePowerShellStdin(payload) {
				// ssh host powershell -Command - <<'EOF': the remote
				// PowerShell reads its input as the script
				n.derive("the remote PowerShell runs its input %q", short(stdin.s))
				n.powershell(stdin.s, depth+1, w())
			}
		case name == "find":
			for _, ex := range FindExecs(c.Args) {
				n.command(ex, false, nil, depth, w(), upstream)
			}
		case name == "fd" || name == "fdfind":
			for _, ex := range fdExecs(c.Args) {
				n.command(ex, false, nil, depth, w(), upstream)
			}
		case name == "xargs" || name == "parallel":
			for _, ex := range n.fanOut(name, c.Args, inner, stdin) {
				n.command(ex, false, nil, depth, w(), upstream)
			}
			return
		case (name == "crontab" || name == "scrontab") && !c.Has("-l", "-r", "-e"): // scrontab: Slurm's crontab, run on the cluster
			tab := stdin
			if len(c.Pos) > 0 && c.Pos[0] != "-" {
				if t, ok := n.files[NormPath(c.Pos[0], n.cwd, n.home)]; ok {
					tab = &t
				} else {
					tab = nil // a crontab file from the project
				}
			}
			if tab != nil && !tab.names {
				// the jobs the line shows, also beside text it does not
				// ((crontab -l; echo '* * * * * curl … | sh') | crontab -)
				for _, cmd := range cronCommands(tab.s) {
					n.derive("crontab installs %q", cmd)
					n.shell(cmd, depth+1, append(append([]string(nil), w()...), "crontab"), nil)
				}
			}
			if tab != nil && (!tab.known || tab.names) {
				n.f.Commands[idx].FeedUnknown = true // replaces every job with text the line does not show
			}
		case name == "at" || name == "batch":
			if stdin != nil && stdin.known {
				n.derive("%s schedules %q", name, short(stdin.s))
				n.shell(stdin.s, depth+1, append(append([]string(nil), w()...), name), nil)
			} else if stdin != nil {
				n.f.Commands[idx].FeedUnknown = true
			}
		case name == "powershell" || name == "pwsh" || name == "powershell.exe" || name == "pwsh.exe":
			for i, a := range c.Args {
				if l := strings.ToLower(a); (l == "-encodedcommand" || l == "-enc" || l == "-ec" || l == "-e") && i+1 < len(c.Args) {
					// -EncodedCommand: base64 of UTF-16LE text
					if code := decodeUTF16Base64(c.Args[i+1]); code != "" {
						n.derive("%s runs the encoded %q", name, short(code))
						if n.f.Commands[idx].Feed == "" {
							n.f.Commands[idx].Feed = n.fetchedFeed(name, code) // -enc of "iwr … | iex"
						}
						n.powershell(code, depth+1, wrappers)
					}
				}
				if l := strings.ToLower(a); (l == "-command" || l == "-c" || l == "-file" || l == "-f") && i+1 < len(c.Args) && c.Args[i+1] == "-" {
					// pwsh -Command -: the script is its input, as sh reads a pipe
					if stdin != nil && stdin.known {
						n.derive("%s runs its input %q", name, short(stdin.s))
						n.powershell(stdin.s, depth+1, wrappers)
					} else if stdin != nil {
						n.f.Commands[idx].FeedUnknown = true
						if stdin.from != "" {
							n.f.Commands[idx].Feed = stdin.from
						}
					}
					break
				}
				if l := strings.ToLower(a); (l == "-command" || l == "-c" || l == "/c") && i+1 < len(c.Args) {
					code := strings.Join(c.Args[i+1:], " ")
					n.derive("%s runs %q", name, short(code))
					if n.f.Commands[idx].Feed == "" {
						n.f.Commands[idx].Feed = n.fetchedFeed(name, code)
					}
					n.powershell(code, depth+1, wrappers)
				}
			}
			n.psWrittenScript(idx, name, c.Args, depth, wrappers)
			if code := psBareCommand(name, c.Args); code != "" {
				// Start-Process powershell -Verb RunAs -ArgumentList 'Set-…':
				// Windows PowerShell runs bare words as -Command
				n.derive("%s runs %q", name, short(code))
				n.powershell(code, depth+1, wrappers)
			}
		case psInvoke[lowerName(name)]:
			// iex (iwr …).Content typed into a shell that is PowerShell: the
			// whole line is the code the expression evaluates
			if n.f.Commands[idx].Feed == "" {
				n.f.Commands[idx].Feed = n.fetchedFeed(name, n.f.Command)
			}
		case psStart[lowerName(name)]:
			if argv := startProcessArgv(c.Args); len(argv) > 0 {
				n.derive("%s starts %q", name, short(strings.Join(argv, " ")))
				n.command(argv, false, nil, depth, w(), upstream)
			}
		case name == "sed":
			n.sedCode(&c, depth, w())
		case name == "vi" || name == "vim" || name == "nvim" || name == "ex" || name == "view":
			n.vimCode(&c, depth, w())
		case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk" || name == "busybox-awk":
			if len(c.Pos) > 0 && !c.Has("-f") {
				n.interp(name, c.Pos[0], depth+1, w())
				if InterpRunsUnseen(c.Pos[0]) {
					// awk '{system($0)}' cmds.txt: runs its input's lines
					n.f.Commands[idx].FeedUnknown = true
				}
			}
		}
		codes, labels := execOptionCode(&c)
		for i, code := range codes {
			n.derive("%s runs %q", labels[i], short(code))
			n.shell(code, depth+1, append(append([]string(nil), w()...), labels[i]), nil)
		}
		for _, code := range stringCode(&c) {
			n.derive("%s runs %q", name, short(code))
			n.shell(code, depth+1, append(append([]string(nil), w()...), name), nil)
		}
		if inner == nil {
			return
		}
		argv, escaped, wrappers = inner, name == "command", w()
		if name == "xargs" || name == "parallel" {
			stdin, stdinFile = nil, "" // the commands get arguments, not the input
		}
	}
}

// targets gives command idx the paths it writes or deletes among those
// recorded from index named on.
func (n *normalizer) targets(idx, named int) {
	for _, p := range n.f.Paths[named:] {
		if p.Op == OpWrite || p.Op == OpDelete {
			n.f.Commands[idx].Targets = append(n.f.Commands[idx].Targets, p.Path)
		}
	}
}

// scriptOf finds the script text c runs besides a -c payload: for a shell,
// source or an interpreter, the script file named first when the line
// wrote it, else its input; for ./x.sh, the file itself when the line
// wrote it. The second result says where the text came from.
func (n *normalizer) scriptOf(c *Cmd, payload string, inner []string, stdin *text) (*text, string) {
	if payload != "" {
		return nil, ""
	}
	if strings.Contains(c.Raw, "/") {
		if t, ok := n.files[NormPath(c.Raw, n.cwd, n.home)]; ok {
			return &t, "the file " + c.Raw + " written earlier in the line"
		}
	}
	reads := IsShell(c.Name) || c.Name == "source" || c.Name == "." || IsInterpreter(c.Name)
	if !reads {
		if (c.Name == "sudo" || c.Name == "doas" || c.Name == "su" || c.Name == "run0") && inner == nil && stdin != nil &&
			(c.Name == "su" || c.Has("-s", "-i", "--shell", "--login")) {
			return stdin, "its input as a root shell"
		}
		return nil, ""
	}
	pos := c.Pos
	if IsShell(c.Name) {
		pos = shellOperands(c.Args) // bash -O expand_aliases <<< '…': the option's value is no script file
	} else if (c.Name == "deno" || c.Name == "bun") && len(pos) > 0 && pos[0] == "run" {
		pos = pos[1:] // deno run -A - <<EOF, bun run /tmp/x.ts: the script after run
	}
	if c.Has("-s") && IsShell(c.Name) || len(pos) == 0 || pos[0] == "-" || pos[0] == "/dev/stdin" {
		if f := shellFileFed(c, pos, stdin); f != "" {
			return nil, "" // cat FILE | sh: sh FILE (pipe_equivalents.go)
		}
		if c.Name == "source" || c.Name == "." {
			return stdin, "its input"
		}
		if stdin != nil && c.Name != "source" && c.Name != "." {
			return stdin, "its input"
		}
		return nil, ""
	}
	if t, ok := n.files[NormPath(pos[0], n.cwd, n.home)]; ok {
		return &t, "the file " + pos[0] + " written earlier in the line"
	}
	return nil, ""
}

// outputs records the files a command fills: tee copies its input,
// curl -o / wget -O save a download, cp copies a file the line wrote.
func (n *normalizer) outputs(c *Cmd, stdin *text) {
	switch c.Name {
	case "tee":
		t := text{}
		if stdin != nil {
			t = *stdin
		}
		for _, p := range c.Pos {
			n.writeFile(NormPath(p, n.cwd, n.home), t, c.Has("-a", "--append"))
		}
	case "curl", "wget", "aria2c", "fetch":
		for i, a := range c.Args {
			out := ""
			switch {
			case (a == "-o" || a == "--output" || a == "-O" && c.Name == "wget" || a == "--output-document") && i+1 < len(c.Args):
				out = c.Args[i+1]
			case c.Name == "curl" && len(a) > 2 && a[0] == '-' && a[1] != '-' && a[len(a)-1] == 'o' && i+1 < len(c.Args):
				out = c.Args[i+1] // curl -fsSLo x.sh URL: -o last in a cluster
			case strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "--output-document="):
				out = a[strings.IndexByte(a, '=')+1:]
			case strings.Contains(a, "://") && (c.Name == "wget" && !c.Has("-O", "--output-document") || c.Has("-O", "--remote-name")):
				out = a[strings.LastIndexByte(a, '/')+1:]
				if i := strings.IndexAny(out, "?#"); i >= 0 {
					out = out[:i]
				}
			}
			if out != "" && out != "-" {
				n.writeFile(NormPath(out, n.cwd, n.home), text{from: c.Name}, false)
			}
		}
	case "scp", "rsync":
		n.copyRemote(c) // remotefiles.go
	case "cp", "mv", "install", "ln":
		if len(c.Pos) == 2 {
			if t, ok := n.files[NormPath(c.Pos[0], n.cwd, n.home)]; ok {
				n.writeFile(NormPath(c.Pos[1], n.cwd, n.home), t, false)
			}
		}
	}
}

// ProgramName is the program of argv[0]: its base name, with Windows .exe
// dropped.
func ProgramName(raw string) string {
	if raw == "" || strings.HasPrefix(raw, "$(") {
		return raw
	}
	n := path.Base(strings.ReplaceAll(raw, "\\", "/"))
	n = strings.TrimSuffix(strings.TrimSuffix(n, ".exe"), ".EXE")
	// RM -rf / runs rm on a case-insensitive filesystem (macOS).
	return lowerASCII(n)
}

func IsInterpreter(name string) bool {
	if name == "" {
		return false
	}
	if interpreterEnds().has(name[0], name[len(name)-1]) {
		if _, ok := interpreters[name]; ok {
			return true
		}
	}
	// python3.12, ruby3.2, perl5.36
	if c := name[0]; c != 'p' && c != 'r' && c != 'n' {
		return false // none of the prefixes below
	}
	for _, p := range []string{"python", "ruby", "perl", "node", "php"} {
		if strings.HasPrefix(name, p) && len(name) > len(p) && (name[len(p)] >= '0' && name[len(p)] <= '9') {
			return true
		}
	}
	return false
}

// bytePairs is a set of (first, last) byte pairs.
type bytePairs [256][4]uint64

func (t *bytePairs) add(first, last byte) { t[first][last/64] |= 1 << (last % 64) }
func (t *bytePairs) has(first, last byte) bool {
	return t[first][last/64]&(1<<(last%64)) != 0
}

// interpreterEnds are the first and last bytes of the names of
// interpreters: a name whose pair is not among them is not one, told
// without hashing it. IsInterpreter is asked of every command by dozens
// of readers on every call (git, curl, sh: none is one).
var interpreterEnds = sync.OnceValue(func() *bytePairs { return pairsOf(interpreters) })

// pairsOf is the set of the first and last bytes of m's keys.
func pairsOf[V any](m map[string]V) *bytePairs {
	t := new(bytePairs)
	for n := range m {
		if n != "" {
			t.add(n[0], n[len(n)-1])
		}
	}
	return t
}

func interpFlags(name string) []string {
	if f, ok := interpreters[name]; ok {
		return f
	}
	for _, p := range []string{"python", "ruby", "perl", "node", "php"} {
		if strings.HasPrefix(name, p) {
			return interpreters[p]
		}
	}
	return nil
}

// interpPayload finds the one-liner after -c/-e (also clustered: perl -pe,
// python3 -Bc).
func interpPayload(name string, args []string) string {
	flags := interpFlags(name)
	for i, a := range args {
		for _, f := range flags {
			if a == f && i+1 < len(args) {
				return args[i+1]
			}
			if strings.HasPrefix(f, "--") && strings.HasPrefix(a, f+"=") {
				return a[len(f)+1:]
			}
			// clustered short flags ending in the payload flag: -pe, -Bc
			if len(f) == 2 && len(a) > 2 && len(a) <= 6 && a[0] == '-' && a[1] != '-' && a[len(a)-1] == f[1] && letters(a[1:]) && i+1 < len(args) {
				return args[i+1]
			}
		}
		if a == "--" || a != "" && a[0] != '-' && scriptFileArg(a) {
			break // php maintenance/deleteBatch.php -r spam: the script's own -r
		}
	}
	return ""
}

// scriptFileArg: a names a script file (bin/x.php, tool.py): the
// interpreter's own options end there.
func scriptFileArg(a string) bool {
	switch path.Ext(a) {
	case ".php", ".py", ".js", ".mjs", ".cjs", ".rb", ".pl", ".ts", ".lua":
		return !strings.ContainsAny(a, " ;(")
	}
	return false
}

// splitFlags fills Flags and Pos from Args: "-rf" gives -r -f, "--x=y"
// gives --x, and everything after "--" is positional.
func splitFlags(c *Cmd) {
	// gathered on the stack, then kept in one allocation for both: every
	// command of every call is split
	var posBuf, flagBuf [16]string
	pos, flags := posBuf[:0], flagBuf[:0]
	rest, skip := false, false
	spec := c.tool()
	for _, a := range c.Args {
		if skip {
			skip = false // the value of a global option given after the subcommand (dashwords.go)
			continue
		}
		if next, joined := anywhereValue(spec, a); !rest && (next || joined) {
			if skip = next; joined {
				a = a[:2] // -nprod: -n, not -n -p -r -o -d
			}
			flags = append(flags, a)
			continue
		}
		switch {
		case rest || len(a) < 2 || a[0] != '-':
			pos = append(pos, a)
		case a == "--":
			rest = true
		case strings.HasPrefix(a, "--"):
			if i := strings.IndexByte(a, '='); i > 0 {
				a = a[:i]
			} else {
				skip = spec.values[a] // curl --header VALUE: no positional (tools.txt values=)
			}
			flags = append(flags, a)
		case spec.values != nil:
			// curl -sku VALUE, -H'X: y', -XPOST: the letters up to the
			// first that takes a value; its value is the rest or the next word
			flags = append(flags, a)
			o, _, next := ClusterValue(a, spec.takesValue)
			for i := 1; i < len(a) && len(a) > 2; i++ {
				if flags = append(flags, dashFlag(rune(a[i]))); flags[len(flags)-1] == o {
					break
				}
			}
			skip = next
		default:
			flags = append(flags, a) // keep the cluster (find -delete, dd-like)
			if len(a) > 2 && !longDashWord(c.Name, a) {
				for _, r := range a[1:] {
					if r == '=' {
						break
					}
					flags = append(flags, dashFlag(r))
				}
			}
		}
	}
	c.Flags, c.Pos = nil, nil
	if len(pos)+len(flags) == 0 {
		return
	}
	buf := make([]string, len(pos)+len(flags))
	copy(buf, pos)
	copy(buf[len(pos):], flags)
	if len(pos) > 0 {
		c.Pos = buf[:len(pos):len(pos)]
	}
	if len(flags) > 0 {
		c.Flags = buf[len(pos):]
	}
}

// dashFlags is "-x" for each printable ASCII x from '!' to '~', in
// order: a cluster's letters (-la) are split into substrings of it, not
// strings built per letter (and nothing is built at package init).
const dashFlags = "-!-\"-#-$-%-&-'-(-)-*-+-,---.-/-0-1-2-3-4-5-6-7-8-9-:-;-<-=->-?-@-A-B-C-D-E-F-G-H-I-J-K-L-M-N-O-P-Q-R-S-T-U-V-W-X-Y-Z-[-\\-]-^-_-`-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-{-|-}-~"

// dashFlag is "-" followed by r.
func dashFlag(r rune) string {
	if r > ' ' && r < 0x7f {
		i := 2 * int(r-'!')
		return dashFlags[i : i+2]
	}
	return "-" + string(r)
}

// refAttached reports whether chmod/chown took its mode or owner from
// --reference=FILE, written in one word.
func refAttached(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "--reference=") {
			return true
		}
	}
	return false
}

// truncateFiles are truncate's files: its arguments without options and
// the values of -s/--size and -r/--reference given apart.
func truncateFiles(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-s" || a == "--size" || a == "-r" || a == "--reference":
			i++
		case !strings.HasPrefix(a, "-") || a == "-":
			out = append(out, a)
		}
	}
	return out
}

// paths adds the files a command names to Facts.Paths.
func (n *normalizer) paths(c *Cmd) {
	op := c.tool().args
	if op == ArgsNames {
		return // datasets and volumes, not files
	}
	known := op != ""
	pos := c.Pos
	t := c.tool()
	if len(pos) > 0 && slices.Contains(t.names, pos[0]) {
		return // git check-ignore .env, git ls-files x: the paths are names, not files read or changed
	}
	if t.out != nil || t.into != nil {
		files, dirs := t.outputs(c)
		for _, p := range append(files, dirs...) {
			n.addPath(p, OpWrite, c.Name)
		}
	}
	for _, p := range EmptiedDirs(c) {
		n.addPath(p, OpDelete, c.Name)
	}
	if t.inplace != nil && c.Has(t.inplace...) {
		// perl -pi -e '…' FILE: the files after the program are edited
		op, known = OpWrite, true
		pos = programFiles(c, t)
	}
	switch c.Name {
	case "echo", "printf", "true", ":", "test", "[":
		return // they name no file they touch
	case "chmod", "chown", "chgrp":
		if len(pos) > 0 && !(c.Name == "chmod" && ChmodFlagMode(c)) && !refAttached(c.Args) {
			pos = pos[1:] // mode / owner, or --reference's file (--reference=FILE: every positional is a target)
		}
	case "truncate":
		pos = truncateFiles(c.Args) // -s 0 is a size, not a file
	case "openssl":
		if len(pos) > 0 && (pos[0] == "s_client" || pos[0] == "s_server" || pos[0] == "s_time") {
			pos = withoutCredFiles(c.Args, pos) // s_client -key KEY: the client's key, used to connect
		}
	case "grep", "rg", "egrep", "awk", "jq":
		if len(pos) > 0 {
			pos = pos[1:] // pattern / program
		}
	case "sed", "yq":
		if op == OpRead {
			pos = programFiles(c, t) // sed -n 1,20p FILE, yq . FILE: the files after the program are printed (s23)
		}
	case "dd":
		for _, a := range c.Args {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				n.addPath(v, OpWrite, "dd")
			} else if v, ok := strings.CutPrefix(a, "if="); ok {
				n.addPath(v, OpRead, "dd")
			}
		}
		return
	case "ssh", "sftp":
		// -i KEY, -F CONFIG, -o …: the identity and config files ssh uses
		// to log in are option values, not files it reads out or sends
		pos, _ = positionals(c.Args, sshValueOpts...)
		if c.Name == "ssh" && len(pos) > 1 {
			pos = pos[:1] // the host; the rest is the remote command
		}
	case "cp", "mv", "ln", "install", "rsync", "scp":
		if c.Name == "scp" {
			pos, _ = positionals(c.Args, sshValueOpts...)
		}
		if dir := CopyTargetDir(c); dir != "" {
			// mv -t DIR SRC…: every positional is a source, DIR the destination
			n.addPath(dir, OpWrite, c.Name)
			if c.Name == "mv" {
				op = OpDelete
			}
		} else if len(pos) > 1 {
			if _, _, remote := RemoteOperand(pos[len(pos)-1]); !remote || c.Name != "scp" && c.Name != "rsync" {
				n.addPath(pos[len(pos)-1], OpWrite, c.Name)
			}
			if c.Name == "mv" {
				op = OpDelete // the source goes away
			}
			pos = pos[:len(pos)-1]
		}
		if c.Name == "scp" || c.Name == "rsync" {
			pos = withoutRemoteOperands(pos) // host:/tmp/ is a path on another host, not ./host:/tmp (remote_operand.go)
		}
	}
	if !known {
		pos = withoutCredFiles(c.Args, pos) // -auth @FILE, --password-file FILE: used to log in (credopts.go)
	}
	argOp := OpArg
	if v, _ := c.FileEditRemove(); v != "" {
		argOp = OpWrite // a file editor's remove edits the files it is given (verbs.txt edits)
	}
	for _, a := range pos {
		if a == c.Payload && c.Payload != "" {
			continue // python3 -c '…': the code is read as code (interp), not a file
		}
		if known || PathLike(a) {
			o := op
			if !known {
				o = argOp
			}
			n.addPath(a, o, c.Name)
		}
	}
}

// ChmodFlagMode reports whether chmod's mode was written like a flag
// (chmod -x file), so the first positional is already a file.
func ChmodFlagMode(c *Cmd) bool {
	for _, a := range c.Args {
		if len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "rwxXst") == "" {
			return true
		}
	}
	return false
}

func (n *normalizer) addPath(p, op, via string) {
	if p == "" || strings.HasPrefix(p, "$(") || strings.Contains(p, "://") || strings.Contains(p, "@") && strings.Contains(p, ":") {
		return
	}
	if n.f.Paths == nil {
		// the first paths of a call (cat README.md, rg TODO src/) in the
		// normalizer's own allocation; Paths stays nil when there are none
		n.f.Paths = n.paths2[:0:len(n.paths2)]
	}
	n.f.Paths = append(n.f.Paths, PathRef{Path: NormPath(p, n.cwd, n.home), Op: op, Via: via, Elsewhere: n.writtenElsewhere(p)})
}

// text is the conservative fallback for a command that does not parse:
// split on shell operators outside quotes, split words on blanks, and
// record what that gives. Rules still match; reasons say the parse failed.
func (n *normalizer) text(src string, depth int, wrappers, upstream []string) {
	var seg []string
	var cur strings.Builder
	var quote byte
	up := upstream
	var prev []string
	flush := func(pipe bool) {
		if cur.Len() > 0 {
			seg = append(seg, cur.String())
			cur.Reset()
		}
		if len(seg) > 0 {
			n.command(seg, false, nil, depth, wrappers, up)
			prev = append(prev, ProgramName(seg[0]))
		}
		seg = nil
		if pipe {
			up = append(append([]string(nil), upstream...), prev...)
		} else {
			up, prev = upstream, nil
		}
	}
	for i := 0; i < len(src); i++ {
		ch := src[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == ' ' || ch == '\t':
			if cur.Len() > 0 {
				seg = append(seg, cur.String())
				cur.Reset()
			}
		case ch == '|':
			if i+1 < len(src) && src[i+1] == '|' {
				i++
				flush(false)
			} else {
				flush(true)
			}
		case ch == ';' || ch == '&' || ch == '\n' || ch == '(' || ch == ')' || ch == '`' || ch == '{' || ch == '}':
			flush(false)
		case ch == '$' && i+1 < len(src) && src[i+1] == '(':
			i++
			flush(false)
		default:
			cur.WriteByte(ch)
		}
	}
	flush(false)
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

func letters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// decodeUTF16Base64 decodes PowerShell's -EncodedCommand (base64 of
// UTF-16LE), "" when it is not that.
func decodeUTF16Base64(s string) string {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%2 != 0 {
		return ""
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u))
}

// sshValueOpts are the options of ssh, scp and sftp that take a value.
var sshValueOpts = []string{"-B", "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-P", "-p", "-Q", "-R", "-S", "-W", "-w"}

// SQLFileFlags are each database client's options whose value is a file
// of statements to run (mysql -f is --force, so it has none).
var SQLFileFlags = map[string][]string{
	"psql": {"-f", "--file"}, "pgcli": {"-f", "--file"}, "cockroach": {"-f", "--file"}, "cqlsh": {"-f", "--file"},
	"snowsql": {"-f", "--filename"}, "sqlcmd": {"-i", "--input-file"}, "clickhouse-client": {"--queries-file"},
	"clickhouse": {"--queries-file"}, "mongosh": {"-f", "--file"}, "mongo": {"--file"}, "usql": {"-f", "--file"},
	"snow":         {"-f", "--filename"}, // Snowflake's snow sql -f
	"cypher-shell": {"-f", "--file"}, "duckdb": {"-init", "-f"}, "trino": {"-f", "--file"}, "presto": {"-f", "--file"},
	"beeline": {"-f"}, "hive": {"-f"}, "spark-sql": {"-f"}, "impala-shell": {"-f", "--query_file"}, "vsql": {"-f"},
	"isql": {"-i"}, "osql": {"-i"}, "db2": {"-f"}, "gsql": {"-f"},
	"hdbsql": {"-I"}, // SAP HANA's hdbsql -I script.sql
	"ksql":   {"-f", "--file"}, "aql": {"-f", "--file"}, "sqlline": {"--run"},
}

// sqlFileArg is the script file args[i] names for a database client: the
// value of one of its SQLFileFlags (or any program's -f/--file), or
// SQL*Plus's and SQLcl's @FILE.
func sqlFileArg(name string, args []string, i int) string {
	a := args[i]
	if (a == "-f" || a == "--file") && i+1 < len(args) {
		return args[i+1]
	}
	for _, f := range SQLFileFlags[name] {
		switch {
		case a == f && i+1 < len(args):
			return args[i+1]
		case strings.HasPrefix(a, f+"=") && strings.HasPrefix(f, "--"):
			return a[len(f)+1:]
		}
	}
	if (name == "sqlplus" || name == "sql" || name == "clpplus") && len(a) > 1 && a[0] == '@' && a[1] != '@' && !strings.ContainsAny(a[1:], "@ ") {
		return a[1:] // sqlplus -s /@FINPRD @/tmp/inv.sql
	}
	if (name == "mongosh" || name == "mongo") && (strings.HasSuffix(a, ".js") || strings.HasSuffix(a, ".mongodb")) {
		return a
	}
	return sqlIncludeArg(name, a) // psql -c '\i FILE', mysql -e 'source FILE' (fedpayload.go)
}
