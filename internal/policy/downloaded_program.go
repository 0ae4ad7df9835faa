package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A program file in the downloads folder came from the network and the
// line does not show what it is: running it by its path
// (~/Downloads/gaiad-v18 start) runs unknown code, as bash
// ~/Downloads/x.sh does (core.indirect:outside-script), and handing it
// to a program that installs it to be run later (cosmovisor add-upgrade
// v18 ~/Downloads/gaiad-v18: the node switches to it at the upgrade
// height; pip install ~/Downloads/x.whl, flatpak install
// ~/Downloads/x.flatpak, helm plugin install ~/Downloads/p) does the
// same a little later: ask. Reading it (sha256sum, file, tar -t),
// importing its data (hledger import ~/Downloads/x.csv), and files the
// line itself fetched or wrote stay allowed; a requirements or
// constraints list (pip install -r ~/Downloads/req.txt) names packages
// to fetch, not a program.

// installVerbs install what they are given, to be run later.
var installVerbs = map[string]bool{"install": true, "add-upgrade": true, "upgrade": true}

// listOpts take a file that lists what to install rather than being it.
var listOpts = map[string]bool{"-r": true, "--requirement": true, "-c": true, "--constraint": true}

func downloadedProgramRule() Rule {
	return Rule{ID: "core.indirect:downloaded-program", Mode: Ask, Tools: shellTools,
		On:   On(0).OrText("Downloads"),
		Desc: "A program from the downloads folder run by its path (~/Downloads/tool start), or handed to an installer to run later (cosmovisor add-upgrade v18 ~/Downloads/gaiad, pip install ~/Downloads/x.whl): code from the network the line does not show; reading it, importing its data and files the line fetched or wrote stay allowed",
		Match: func(e *Env) string {
			home := e.F.Home
			if home == "" {
				return ""
			}
			dl := strings.ToLower(home) + "/downloads/"
			inDownloads := func(c *Cmd, a string) string {
				if a == "" || strings.ContainsAny(a, "$`*?") {
					return ""
				}
				p := callfacts.NormPath(a, c.Dir, home)
				if !strings.HasPrefix(strings.ToLower(p), dl) || writtenByLine(e, p) {
					return ""
				}
				return p
			}
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if runsElsewhere(c) {
					continue
				}
				if strings.Contains(c.Raw, "/") && c.ScriptFile() == "" {
					if p := inDownloads(c, c.Raw); p != "" {
						return "runs " + homeRel(p, home) + ", a downloaded program the command does not show"
					}
				}
				verb := ""
				for j, a := range c.Args {
					if strings.HasPrefix(a, "-") {
						continue
					}
					if verb == "" {
						if installVerbs[a] {
							verb = a
						}
						continue
					}
					if j > 0 && listOpts[c.Args[j-1]] {
						continue
					}
					if p := inDownloads(c, a); p != "" {
						return c.Name + " " + verb + " takes " + homeRel(p, home) + ", a downloaded program, to run later"
					}
				}
			}
			return ""
		},
		Catch: []string{"cosmovisor add-upgrade v18.0.0 ~/Downloads/gaiad-v18.0.0-linux-amd64", "~/Downloads/tool-linux-amd64 serve", "pip install ~/Downloads/torch-2.3.0-cp311-linux_x86_64.whl",
			"flatpak install --user ~/Downloads/org.kde.krita.flatpak", "helm plugin install ~/Downloads/helm-diff", "/home/dev/Downloads/Obsidian-1.5.3.AppImage --no-sandbox"},
		Allow: []string{"sha256sum ~/Downloads/gaiad-v18.0.0-linux-amd64", "hledger import ~/Downloads/chase.csv", "pip install -r ~/Downloads/requirements.txt", "tar -tzf ~/Downloads/x.tar.gz",
			"curl -fsSLo ~/Downloads/x https://example.com/x && ls -l ~/Downloads/x", "cosmovisor add-upgrade v18.0.0 ./build/gaiad", "ls ~/Downloads"}}
}

// writtenByLine: the line itself writes p (a download it fetched, a file
// it made), so what p holds is the line's own doing.
func writtenByLine(e *Env, p string) bool {
	for _, r := range e.F.Paths {
		if r.Path == p && r.Op == OpWrite && r.Via != "chmod" {
			return true
		}
	}
	return false
}
