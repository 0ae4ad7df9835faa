package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// execOptionRules: an everyday program told by an option to run a command
// (tar --checkpoint-action=exec=, zip -TT, rsync -e, ssh -o ProxyCommand=;
// the options are data, callfacts/execopts.txt). What the command does is
// judged by every other rule, since the reading parses it as shell; this
// rule adds that a program other than the one the option is for is at
// least ask, and a script from a scratch directory or the network is deny.
func execOptionRules() []Rule {
	return []Rule{
		{ID: "core.local:exec-option", Mode: Ask, Tools: shellTools, Cmds: callfacts.ExecOptionTools(),
			Desc: "An option that makes an everyday program run a command, given a program it is not normally given (tar --to-command, tar -I 'sh …', zip -TT, rsync -e 'sh -c …', ssh -o LocalCommand=, apt-get -o APT::Update::Pre-Invoke::=); the options are data (callfacts/execopts.txt)",
			Match: func(e *Env) string {
				return eachOptionRun(e, func(c *Cmd, w string, expected bool) string {
					if !expected {
						return w + " makes the program run " + c.String()
					}
					return ""
				})
			},
			Catch: []string{"tar -cf a.tar --to-command='python3 x.py' src", "tar -I 'sh -c id' -cf x.tar .", "zip a.zip f -T -TT 'python3 -c pass'", "rsync -e 'bash x.sh' . h:", "ssh -o LocalCommand='touch /tmp/x' -o PermitLocalCommand=yes host",
				"sudo apt-get update -o APT::Update::Pre-Invoke::=/tmp/p.sh"},
			Allow: []string{"tar -I zstd -cf x.tar.zst .", "tar --use-compress-program=pigz -cf x.tgz .", "rsync -avz -e 'ssh -p 2222' . host:/srv/x", "ssh -o ProxyCommand='ssh -W %h:%p bastion' host", "zip -r a.zip src", "tar -czf a.tgz src"}},
		{ID: "core.local:exec-option-script", Mode: Deny, Tools: shellTools, Cmds: scriptOptionTools(),
			Desc: "An option that makes an everyday program run a script from a scratch directory (tar --checkpoint-action=exec='sh /tmp/x.sh', rsync -e /tmp/x, zip -TT 'bash /dev/shm/y'): code dropped where nobody reviews it runs under a harmless name",
			Match: func(e *Env) string {
				return eachOptionRun(e, func(c *Cmd, w string, _ bool) string {
					cands := []string{c.Raw}
					if isShellOrInterp(c.Name) && len(c.Pos) > 0 {
						cands = append(cands, c.Pos[0])
					}
					for _, x := range cands {
						if strings.Contains(x, "/") && callfacts.ZoneOf(e.abs(c, x), e.F.Home, e.F.Project) == callfacts.ZoneTemp {
							return w + " makes the program run " + x + " from a scratch directory"
						}
					}
					return ""
				})
			},
			Catch: []string{"tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='sh /tmp/x.sh' .", "rsync -e /tmp/.r . host:", "zip a.zip f -T -TT 'bash /dev/shm/y'", "tar -xf a.tar --to-command=/var/tmp/t"},
			Allow: []string{"tar -cf x.tar --checkpoint=1000 --checkpoint-action=dot .", "rsync -e ssh . host:", "tar -I zstd -xf x.tar.zst", "sh /tmp/x.sh"}},
	}
}

// eachOptionRun calls fn for each command the line runs through a
// program's exec option (callfacts/execopts.txt) with the option's reading
// (w, the wrapper it came from) and whether the program is one the option
// is meant for; the first reason fn gives is the rule's.
func eachOptionRun(e *Env, fn func(c *Cmd, w string, expected bool) string) string {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if len(c.Wrappers) == 0 {
			continue
		}
		w := c.Wrappers[len(c.Wrappers)-1]
		if known, expected := callfacts.ExecOptionExpected(w, c.Name); known {
			if why := fn(c, w, expected); why != "" {
				return why
			}
		}
	}
	return ""
}

// scriptOptionTools are the programs whose options hand a shell a command
// line (tar, zip, rsync, ssh…); make's --eval and git's -c keys give code
// in their own syntax, judged by core.local:exec-option and the rules the
// code meets.
func scriptOptionTools() []string {
	var out []string
	for _, n := range callfacts.ExecOptionTools() {
		if n != "git" && n != "make" && n != "gmake" {
			out = append(out, n)
		}
	}
	return out
}
