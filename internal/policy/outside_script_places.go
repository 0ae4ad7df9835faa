package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Where a script whose text the line does not show comes from decides
// whether running it asks (core.indirect:outside-script). Beyond a
// downloads folder, a scratch folder and a file the line makes
// executable:
//   - the home directory: bash ~/scripts/upgrade_all.sh, python3
//     ~/tools/sync_all.py. The script is the user's, not the project's:
//     the agent has not read it and what it does is not in the line.
//     A tool's own files in a dot-folder (~/.nvm, ~/.sdkman, ~/.tmux)
//     are that tool's, as are setup files sourced into the shell, and a
//     job script handed to a batch scheduler (sbatch ~/jobs/x.sbatch)
//     runs where the scheduler puts it: those stay as they were.
//   - a vendored third party's folder in the project (vendor/,
//     third_party/): a shell script there is someone else's installer
//     or build step (sh ./vendor/kakadu/install_kdu.sh copies libraries
//     into the system), not the project's own code; the project's
//     interpreters' entry points there (php vendor/bin/phpunit) are no
//     shell scripts and stay allowed.
//   - a container given the home directory (docker run -v "$HOME":/h
//     img bash /h/tools/x.sh): the script is the host's, and it runs
//     with the whole home mounted.

// vendorDirs name a folder of third-party code kept in a project.
var vendorDirs = map[string]bool{"vendor": true, "third_party": true, "third-party": true, "thirdparty": true, "3rdparty": true}

// scriptRunner: c runs f as a program's code: a shell or an interpreter
// given it, or f run by its path. Not a scheduler's job script, and not
// a file sourced into the shell (source ~/.nvm/nvm.sh).
func scriptRunner(c *Cmd, f string) bool {
	return callfacts.IsShell(c.Name) || callfacts.IsInterpreter(c.Name) || c.Raw == f
}

// homeScript: p, a script outside the project run by c, is the user's
// own file under home, outside a tool's dot-folder.
func homeScript(c *Cmd, f, p, home string) bool {
	rel, ok := strings.CutPrefix(p, home+"/")
	if !ok || strings.HasPrefix(rel, ".") || !scriptRunner(c, f) || runsElsewhere(c) && !containerHomeScript(c, f, home) {
		return false
	}
	return true
}

// vendoredShellScript: p, a script in the project run by c, is a shell
// script in a vendored third party's folder.
func vendoredShellScript(c *Cmd, f, p, proj string) bool {
	rel := strings.TrimPrefix(p, proj+"/")
	dirs := strings.Split(path.Dir(rel), "/")
	vendored := false
	for _, d := range dirs {
		vendored = vendored || vendorDirs[strings.ToLower(d)]
	}
	if !vendored {
		return false
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".sh", ".bash", ".run", "":
	default:
		return false
	}
	return (callfacts.IsShell(c.Name) || c.Raw == f) && !runsElsewhere(c)
}

// homeVarPath spells a leading $HOME or ${HOME} of f as the home
// directory (a container's mapped path: $HOME/tools/x.sh).
func homeVarPath(f, home string) string {
	for _, v := range []string{"$HOME/", "${HOME}/"} {
		if rest, ok := strings.CutPrefix(f, v); ok && home != "" {
			return home + "/" + rest
		}
	}
	return f
}

// containerHomeScript: c runs in a container on this machine (docker,
// podman, nerdctl run, under no remote wrapper), and f is a host path
// under home the run's bind mounts map the container's path to (a path
// of the container's own is marked container:/…). docker exec has no
// mounts to read: its paths are the container's.
func containerHomeScript(c *Cmd, f, home string) bool {
	if home == "" || !strings.HasPrefix(f, home+"/") {
		return false
	}
	container := false
	for _, w := range c.Wrappers {
		f := strings.Fields(w)
		if len(f) == 0 {
			continue
		}
		switch n := callfacts.ProgramName(f[0]); {
		case (n == "docker" || n == "podman" || n == "nerdctl") && len(f) > 1 && (f[1] == "run" || f[1] == "container" && len(f) > 2 && f[2] == "run"):
			container = true
		case outsideScriptRemote[n]:
			return false
		}
	}
	return container
}

// runsElsewhere: a wrapper of c runs it on another machine or in a
// container (ssh, docker exec, kubectl exec): its paths are not this
// machine's home or project.
func runsElsewhere(c *Cmd) bool {
	for _, w := range c.Wrappers {
		first, _, _ := strings.Cut(w, " ")
		if outsideScriptRemote[callfacts.ProgramName(first)] {
			return true
		}
	}
	return false
}
