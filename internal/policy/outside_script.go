package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A script file from outside the project whose text the line does not
// show, run by a shell, an interpreter or by its path, when where it
// sits says nobody here wrote it or looked at it: a downloads folder
// (bash ~/Downloads/gedcom-fixer.sh: fetched from the network), a
// scratch folder the line did not fill (/tmp/glider_sync.sh: any
// program or user may have put it there), or a file this very line
// first makes executable (chmod +x ~/bin/panelize.sh && ~/bin/panelize.sh:
// it was never run before), the home directory or a vendored third
// party's folder (outside_script_places.go). Its code is unknown text, as bash -c "$CMD"
// is: ask. A script the line writes is read as the text it writes; the
// project's own scripts, installed programs and tools' setup files
// sourced into the shell (. ~/.cargo/env, source ~/.nvm/nvm.sh) stay
// allowed.

// outsideScriptRemote are wrappers that run the script on another
// machine or in a container, where this machine's paths mean nothing.
var outsideScriptRemote = map[string]bool{"ssh": true, "docker": true, "podman": true, "kubectl": true, "oc": true, "vagrant": true, "lxc": true, "gcloud": true, "multipass": true, "adb": true, "nerdctl": true, "incus": true}

func outsideScriptRule() Rule {
	return Rule{ID: "core.indirect:outside-script", Mode: Ask, Tools: shellTools,
		On:   On(FactInterp).OrText("Downloads", "chmod", "/tmp/", "/var/tmp/", "TMPDIR", "~/", "HOME", "/home/", "vendor/", "third"),
		Desc: "A script from outside the project whose text the line does not show, run by a shell, an interpreter or by path, from a downloads folder (bash ~/Downloads/fix.sh), a scratch folder the line did not fill (/tmp/sync.sh), the home directory (bash ~/scripts/upgrade_all.sh, also through a container given the home), a vendored third party's folder (sh vendor/x/install.sh), or made executable by the same line (chmod +x ~/bin/x.sh && ~/bin/x.sh): unknown code; the project's scripts, a script the line writes, tools' setup files and dot-folders and scheduler job scripts stay allowed",
		Match: func(e *Env) string {
			home, proj := e.F.Home, e.F.Project
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				f, handed := homeVarPath(c.ScriptFile(), home), false
				if f == "" {
					f, handed = homeVarPath(c.HandedScript(), home), true // metashape.sh -r ~/Downloads/x.py
				}
				if f == "" || strings.ContainsAny(f, "$`*?") || home == "" || remoteWrapped(c) && !containerHomeScript(c, f, home) {
					continue
				}
				p := callfacts.NormPath(f, c.Dir, home)
				inProject := proj != "" && (p == proj || strings.HasPrefix(p, proj+"/"))
				if inProject && !vendoredShellScript(c, f, p, proj) {
					continue
				}
				written, chmodded := false, false
				for _, r := range e.F.Paths {
					if r.Path != p || r.Op != OpWrite && r.Op != OpDelete {
						continue
					}
					if r.Via == "chmod" {
						chmodded = true
					} else {
						written = true
					}
				}
				if written {
					continue // the line writes it: its text is read
				}
				rel := strings.ToLower(strings.TrimPrefix(p, home+"/"))
				if handed && !(strings.HasPrefix(p, home+"/") && strings.HasPrefix(rel, "downloads/")) {
					continue // a script handed to an application is judged only from a downloads folder
				}
				switch {
				case strings.HasPrefix(p, home+"/") && strings.HasPrefix(rel, "downloads/"):
					return c.Name + " runs " + homeRel(p, home) + ", a downloaded script the command does not show"
				case callfacts.ZoneOf(p, home, proj) == callfacts.ZoneTemp:
					return c.Name + " runs " + homeRel(p, home) + ", a script in a scratch folder the command did not write and does not show"
				case chmodded:
					return c.Name + " runs " + homeRel(p, home) + ", a script the command first makes executable, whose text it does not show"
				case inProject:
					return c.Name + " runs " + strings.TrimPrefix(p, proj+"/") + ", a vendored third party's shell script the command does not show"
				case containerHomeScript(c, f, home):
					return c.Name + " runs " + homeRel(p, home) + " in a container given the home directory, a script the command does not show"
				case homeScript(c, f, p, home):
					return c.Name + " runs " + homeRel(p, home) + ", a script from the home directory, not the project's, whose text the command does not show"
				}
			}
			return ""
		},
		Catch: []string{"bash ~/Downloads/fix-tags.sh ~/Music/library.db", "sh ~/Downloads/install-driver.run", "python3 ~/Downloads/rename_all.py ~/Photos", "chmod +x /tmp/deploy_nodes.sh && /tmp/deploy_nodes.sh",
			"/var/tmp/rotate.sh --all", "chmod 755 ~/tools/reflow.pl && ~/tools/reflow.pl boards/", "perl /tmp/fixup.pl data/", "sudo bash ~/Downloads/setup.sh",
			"bash ~/bin/build-docs.sh", "sh ./vendor/libfoo/install.sh", "docker run --rm -v \"$HOME\":/h img bash /h/tools/sync.sh"},
		Allow: []string{"bash scripts/build.sh", "source ~/.nvm/nvm.sh", ". ~/.cargo/env", "cat > /tmp/run.sh <<'EOF'\npytest -q\nEOF\nbash /tmp/run.sh", "chmod +x scripts/gen.sh && ./scripts/gen.sh",
			"printf 'make test\\n' > /tmp/t.sh && chmod +x /tmp/t.sh && /tmp/t.sh", "ssh lab-host bash /tmp/check.sh", "ls ~/Downloads/*.sh", "cat ~/Downloads/install.sh",
			"sbatch ~/jobs/train_model.sbatch", "php vendor/bin/phpunit", "bash ~/.tmux/plugins/tpm/bin/install_plugins", "docker run --rm -v \"$PWD\":/w img bash /w/scripts/ci.sh", "python3 third_party/tools/gen_tables.py"}}
}

// remoteWrapped: c runs on another machine or in a container.
func remoteWrapped(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if outsideScriptRemote[callfacts.ProgramName(w)] {
			return true
		}
	}
	return false
}
