package callfacts

import "strings"

// A request for help or a version changes nothing, whatever the program
// and whatever subcommand it names: `huggingface-cli upload --help`,
// `terraform destroy -h`, `kubectl help delete`, `gcloud projects delete
// --help`. It is read once here, before any rule judges effects, so a
// program nobody listed is covered too.
//
// --help is a help request wherever it stands before "--" (what follows
// "--" is an operand); --version too, unless it takes the next word as
// its value (helm install --version 4.6.0, pip download --version). -h is one only as the last word
// of a command with no other option: there it cannot be an option's
// value slot (psql -h HOST, mysql -h HOST take the next word) and it is
// not one of the flags that mean something else beside other options
// (sort -h, du -h, chown -h, tar -h). `help` is a help request as the
// program's first operand (kubectl help delete, git help push).
//
// Not a help request: a program that hands the option to code it runs —
// an interpreter or a shell given a script, a task runner's target, a
// container or remote command (python deploy.py --help runs deploy.py,
// which may not read its options), and the power commands, where -h
// means halt.

// passesArgs are the programs whose options after the first operand go
// to code they run, not to themselves.
var passesArgs = map[string]bool{"npx": true, "pnpx": true, "bunx": true, "uvx": true, "pipx": true, "uv": true, "poetry": true,
	"docker": true, "podman": true, "nerdctl": true, "kubectl": true, "oc": true, "ssh": true, "sudo": true, "doas": true,
	"su": true, "env": true, "nohup": true, "timeout": true, "xargs": true, "parallel": true, "watch": true, "exec": true,
	"eval": true, "nice": true, "ionice": true, "setsid": true, "stdbuf": true, "time": true, "command": true, "builtin": true,
	"go": true, "cargo": true, "dotnet": true, "java": true, "mvn": true, "gradle": true, "rake": true, "bundle": true,
	"shutdown": true, "halt": true, "poweroff": true, "reboot": true, "systemctl": true, "init": true, "telinit": true}

// helpLast are the programs whose help request is the last word after
// the command it documents (aws s3 rm help, aws rds delete-db-instance
// help).
var helpLast = map[string]bool{"aws": true, "awslocal": true, "sam": true}

// AsksHelp reports whether c only asks for its usage or its version.
func (c *Cmd) AsksHelp() bool {
	if !c.mayAskHelp() {
		return false // the everyday command: one scan of its words, no lookups
	}
	if IsShell(c.Name) || IsInterpreter(c.Name) || runners[c.Name] || passesArgs[c.Name] || c.Payload != "" {
		return false
	}
	if c.Has("--help", "-help") {
		return true
	}
	for i, a := range c.Args {
		if a == "--" {
			break
		}
		if a == "--version" && (i+1 == len(c.Args) || strings.HasPrefix(c.Args[i+1], "-")) {
			return true // helm install --version 4.6.0 names a version: not a request for one
		}
	}
	if len(c.Pos) > 0 && c.Pos[0] == "help" && len(c.Pos) <= 3 {
		return true
	}
	if helpLast[c.Name] && len(c.Args) > 0 && c.Args[len(c.Args)-1] == "help" && len(c.Flags) == 0 && len(c.Pos) <= 4 {
		return true // aws rds delete-db-instance help: the AWS CLIs' help is their last word
	}
	if n := len(c.Args); n > 0 && c.Args[n-1] == "-h" && len(c.Flags) == 1 && len(c.Pos) <= 3 {
		for i, p := range c.Pos {
			if i == 0 && dottedVerbs[c.Name] && !strings.ContainsAny(p, "/=:@$*") {
				continue // govc vm.destroy -h: the verb itself is dotted
			}
			if strings.ContainsAny(p, "/.=:@$*") {
				return false // a path or a target named: -h may be a flag of that operation
			}
		}
		return true
	}
	return false
}

// dottedVerbs are CLIs whose verbs are dotted words (govc vm.destroy,
// Nutanix acli vm.delete): a dot in the verb names no file.
var dottedVerbs = map[string]bool{"govc": true, "acli": true}

// mayAskHelp: one of c's words is a help or version request's.
func (c *Cmd) mayAskHelp() bool {
	for i, a := range c.Args {
		switch a {
		case "--help", "-help", "--version", "help":
			return true
		case "-h":
			return i == len(c.Args)-1
		}
	}
	return false
}

// WithoutHelp is f with the commands that only ask for help left out,
// for the rules to judge (f itself when there are none).
func (f *Facts) WithoutHelp() *Facts {
	return f.Without(func(i int, c *Cmd) bool {
		if c.AsksHelp() {
			return true
		}
		// sudo openvpn --version: the wrapper runs only a help or
		// version request (the command it runs is the next one, with
		// the wrapper as its last label)
		if (c.Name == "sudo" || c.Name == "doas") && i+1 < len(f.Commands) {
			d := &f.Commands[i+1]
			return len(d.Wrappers) == len(c.Wrappers)+1 && strings.HasPrefix(d.Wrappers[len(d.Wrappers)-1], c.Name) && d.mayAskHelp() && d.AsksHelp()
		}
		return false
	})
}

// Without is f with the commands drop picks left out (f itself when it
// picks none): their paths go too when no other command has their name.
// The line's text, redirects and derivation stay as they are.
func (f *Facts) Without(drop func(i int, c *Cmd) bool) *Facts {
	var gone []bool
	for i := range f.Commands {
		if drop(i, &f.Commands[i]) {
			if gone == nil {
				gone = make([]bool, len(f.Commands))
			}
			gone[i] = true
		}
	}
	if gone == nil {
		return f
	}
	g := *f
	g.Commands = make([]Cmd, 0, len(f.Commands))
	g.names, g.nameList = map[string]bool{}, nil
	goneNames := map[string]bool{}
	for i := range f.Commands {
		if gone[i] {
			goneNames[f.Commands[i].Name] = true
		} else {
			g.Commands = append(g.Commands, f.Commands[i])
			g.addName(f.Commands[i].Name)
		}
	}
	if len(f.Paths) > 0 {
		g.Paths = nil
		for _, p := range f.Paths {
			if !goneNames[p.Via] || g.names[p.Via] {
				g.Paths = append(g.Paths, p)
			}
		}
	}
	return &g
}
