package policy

import (
	"fmt"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// indirectPack: what the line runs but does not show. A constant the line
// defines is already followed (expand.go, output.go); these rules are for
// what stays unknown, and ask rather than guess.
func indirectPack() Pack {
	return Pack{Name: "core.indirect", Desc: "Code the command line does not show: a shell reading a script it cannot know, a command name or a destructive target from an unknown variable or substitution", Rules: []Rule{
		{
			ID: "core.indirect:unknown-script", Mode: Ask, Tools: shellTools,
			Desc: "A shell or interpreter runs script text the command does not show (piped from a program, a file built or fetched by one, the input of xargs sh -c)",
			Match: func(e *Env) string {
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if !c.FeedUnknown {
						continue
					}
					if c.Feed != "" {
						return fmt.Sprintf("%s runs a script made by %s that the command does not show", c.Name, c.Feed)
					}
					if len(c.Upstream) > 0 {
						return fmt.Sprintf("%s runs a script piped from %s that the command does not show", c.Name, c.Upstream[len(c.Upstream)-1])
					}
					return c.Name + " runs a script the command does not show"
				}
				return ""
			},
			Catch: []string{"tr a-z A-Z < cmds.txt | bash", "python3 gen.py | sh", "ls | xargs sh -c", "./build-cmd | sudo -s", "jq -r .script cfg.json | python3 -", "sort cmds.txt > /tmp/r.sh; bash /tmp/r.sh"},
			Allow: []string{"echo 'ls -la' | bash", "bash ./scripts/build.sh", "cat <<'EOF' | sh\necho hi\nEOF", "python3 gen.py | tee out.txt", "printf 'make test\\n' | sh", "eval \"$(ssh-agent -s)\"", "eval \"$(pyenv init -)\"", "source <(kubectl completion bash)"},
		},
		{
			ID: "core.indirect:unknown-command", Mode: Ask, Tools: shellTools,
			Desc: "A command whose name comes from a variable or substitution the command line does not define",
			Match: func(e *Env) string {
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if callfacts.GlobLike(c.Name) {
						return fmt.Sprintf("the program %s is whatever the glob matches when it runs (args: %.80s)", c.Raw, strings.Join(c.Args, " "))
					}
					if (strings.HasPrefix(c.Name, "$") || strings.HasPrefix(c.Raw, "$") && callfacts.UnknownValue(c.Raw) && !callfacts.IsShellVar(c.Raw)) && !namedInstallProgram(c.Raw) && !psExpression(e, c) {
						return fmt.Sprintf("the program %s is not known until it runs (args: %.80s)", c.Raw, strings.Join(c.Args, " "))
					}
				}
				return ""
			},
			Catch: []string{"$CMD -rf /tmp/x", "$(cat cmd.txt) --force", "\"${TOOL}\" build", "xargs -I{} {} < cmds.txt", "/usr/bin/x?z --all"},
			Allow: []string{"X=ls; $X -la", "$(echo git) status", "echo $CMD", "${EDITOR:-vi} notes.txt",
				"pwsh -c \"Get-DbaLastBackup -SqlInstance sqlprod01 | Where-Object { \\$_.LastFullBackup -lt (Get-Date).AddDays(-1) }\""},
		},
		{
			ID: "core.indirect:unknown-target", Mode: Ask, Tools: shellTools, Cmds: []string{"rm", "rimraf", "shred", "find", "chmod", "chown", "chgrp", "rmdir", "mv", "rsync"},
			Desc: "A destructive command whose target would be /, the home directory or a system directory if a variable the line does not define were empty",
			Match: func(e *Env) string {
				return first(e.F.Cmds("rm", "rimraf", "shred", "find", "chmod", "chown", "chgrp", "rmdir", "mv", "rsync"), func(c *Cmd) string {
					destructive := c.Name == "rm" && (recursive(c) || c.Has("-f", "--force")) || c.Name == "rimraf" || c.Name == "shred" ||
						c.Name == "find" && (c.Has("-delete") || len(callfacts.FindExecs(c.Args)) > 0) || (c.Name == "chmod" || c.Name == "chown" || c.Name == "chgrp") && recursive(c) ||
						c.Name == "rmdir" || c.Name == "mv" || c.Name == "rsync" && c.Has("--delete")
					if !destructive {
						return ""
					}
					for _, a := range c.Pos {
						if !callfacts.UnknownValue(a) || strings.TrimSpace(callfacts.UnknownParts(a)) == "" {
							continue
						}
						if why := critical(e.abs(c, callfacts.UnknownParts(a)), e.F.Home); why != "" {
							return fmt.Sprintf("%s %s would hit %s if the unknown part of %q were empty", c.Name, strings.Join(c.Flags, " "), why, a)
						}
					}
					return ""
				})
			},
			Catch: []string{"rm -rf \"$BUILD_DIR/\"*", "rm -rf $PREFIX/", "find \"$ROOT\"/ -delete", "rm -rf ${DIR}/*", "chmod -R 777 $TARGET/"},
			Allow: []string{"rm -rf \"$BUILD_DIR/out\"", "rm -rf $TMPDIR/x", "D=./build; rm -rf \"$D/\"*", "rm -f \"$LOG\"", "find \"$ROOT\" -name '*.o'"},
		},
		tooDeepRule(), // peers13
		outsideScriptRule(),
		downloadedProgramRule(),
	}}
}

// psOperators are PowerShell's comparison and assignment operators: a
// statement "$x -lt 3" or "$x = 1" is an expression, not a call.
var psOperators = map[string]bool{"-lt": true, "-le": true, "-gt": true, "-ge": true, "-eq": true, "-ne": true, "-like": true, "-notlike": true,
	"-match": true, "-notmatch": true, "-contains": true, "-notcontains": true, "-in": true, "-notin": true, "-and": true, "-or": true,
	"-not": true, "-is": true, "-isnot": true, "-ceq": true, "-ieq": true, "-clike": true, "-ilike": true, "-cmatch": true, "-imatch": true, "=": true, "+=": true}

// psExpression: c, in PowerShell, is an expression that starts with a
// variable ($_.LastFullBackup -lt …, $x.Count, $PSItem.Name), not a
// program: PowerShell calls a program held in a variable only after &.
func psExpression(e *Env, c *Cmd) bool {
	ps := e.F.Tool == "PowerShell" || c.Depth > 0 && e.F.HasCmd("pwsh", "powershell", "pwsh.exe", "powershell.exe")
	for _, w := range c.Wrappers {
		n := strings.TrimSuffix(strings.ToLower(callfacts.ProgramName(w)), ".exe")
		ps = ps || n == "pwsh" || n == "powershell"
	}
	if !ps {
		return false
	}
	name := strings.ToLower(c.Raw)
	if name == "$_" || name == "$psitem" || strings.ContainsAny(strings.TrimPrefix(name, "$"), ".[") {
		return true
	}
	return len(c.Args) > 0 && psOperators[strings.ToLower(c.Args[0])]
}
