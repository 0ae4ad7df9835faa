package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// s26: a program's own settings changed by its own subcommand — `X
// config set KEY VALUE`, `X config unset`, `X config add-authtoken`,
// `X settings set`, `X preferences reset` — for a program no table names.
// Most command-line tools keep these in the user's home (~/.config/X,
// ~/.X.yaml, a login token file), read by every later run in every
// project: the writers' levels ask for "changing dotfiles/config under
// home". The known programs are data (callfacts/hostacts.txt, kind
// toolconf: defaults write, gsettings set, pip/conda/npm config…); this
// is the default for the rest, read from the shape of the line.
//
// Left alone: reads (config get/list/show/view/path), --help and dry
// runs, a project scope (--local, --project, --repo, --workspace, --site,
// --location=project: the setting lives in the working tree), programs
// whose `config` is a project's or a server's (settingsNotHome: git,
// pulumi, dvc, ng; kubectl, ceph, lxc, redis-cli, docker's swarm configs
// — other rules judge those by their target), and a line aimed at another
// host (--host, --server, --url, remote:instance), which the remote rules
// judge.

// settingsSubs are the subcommands that hold a program's own settings.
var settingsSubs = map[string]bool{"config": true, "configure": true, "configuration": true, "settings": true, "setting": true,
	"preferences": true, "prefs": true, "conf": true}

// settingsChangeVerbs change one or more settings (the read verbs — get,
// list, show, view, path, validate, check — are absent).
var settingsChangeVerbs = map[string]bool{"set": true, "unset": true, "add": true, "delete": true, "del": true, "remove": true, "rm": true,
	"edit": true, "reset": true, "clear": true, "import": true, "replace": true, "append": true, "prepend": true}

// settingsNotHome are programs whose config subcommand changes a
// project's file or a server's settings, not the user's: their own rules
// (or none, for a project's file) judge them.
var settingsNotHome = map[string]bool{
	// the project's own file
	"git": true, "pulumi": true, "dvc": true, "ng": true, "nx": true, "ddev": true, "lando": true, "bundle": true, "bundler": true,
	"poetry": true, "yarn": true, "npm": true, "pnpm": true, "composer": true, "mise": true, "rtx": true, "jj": true, "sl": true, "hg": true,
	"fly": true, "flyctl": true, "wrangler": true, "firebase": true, "amplify": true, "sam": true, "cdk": true, "serverless": true, "sls": true,
	"dotnet": true, "cargo": true, "go": true, "uv": true, "pdm": true, "hatch": true, "pixi": true, "rye": true,
	// a cluster's, a server's or an instance's settings (judged by their target)
	"kubectl": true, "oc": true, "kubectx": true, "gcloud": true, "az": true, "aws": true, "lxc": true, "incus": true, "ceph": true, "microceph": true,
	"redis-cli": true, "valkey-cli": true, "keydb-cli": true, "mc": true, "mcli": true, "cilium": true, "docker": true, "podman": true, "juju": true,
	"heroku": true, "tljh-config": true, "snap": true, "snapctl": true, "multipass": true, "vagrant": true, "consul": true, "vault": true, "nomad": true,
	"etcdctl": true, "rabbitmqctl": true, "openstack": true, "rpk": true, "kafka-configs": true, "kafka-configs.sh": true,
	"talosctl": true, "salt": true, "ansible": true, "crm": true, "pcs": true, "zfs": true, "zpool": true, "nmcli": true, "ip": true,
}

// settingsLocalScope are options that put the setting in the project (or
// the environment of the line) instead of the home.
var settingsLocalScope = []string{"--local", "--project", "--repo", "--workspace", "--site", "--env", "--worktree", "-l"}

// settingsRemoteOpts name another host the setting goes to.
var settingsRemoteOpts = []string{"--host", "-H", "--server", "--url", "--endpoint", "--address", "--cluster", "--context", "--remote"}

// toolSettingsChange reads c as a change of the program's own settings,
// kept in the home: the subcommand and verb ("config set"), "" when it is
// none.
func toolSettingsChange(e *Env, c *Cmd) string {
	if len(c.Pos) < 1 || settingsNotHome[c.Name] || c.HostAction() != nil || callfacts.IsInterpreter(c.Name) || runtimes[c.Name] || len(c.Wrappers) > 0 {
		return ""
	}
	s0 := strings.ToLower(c.Pos[0])
	if !settingsSubs[s0] {
		return ""
	}
	s1 := ""
	if len(c.Pos) > 1 {
		s1 = strings.ToLower(c.Pos[1])
	}
	tokenVerb := (strings.HasPrefix(s1, "add-") || strings.HasPrefix(s1, "set-")) && (strings.Contains(s1, "token") || strings.Contains(s1, "auth") || strings.Contains(s1, "key"))
	if v := settingsVerbOption(c); v != "" {
		s1 = v // ldcli config --set access-token "$KEY": the verb spelled as an option
	} else if !settingsChangeVerbs[s1] && !tokenVerb {
		return ""
	}
	if c.Has(settingsLocalScope...) || c.Has(settingsRemoteOpts...) {
		return ""
	}
	if loc := optValue(c, "--location"); loc == "project" || loc == "local" {
		return ""
	}
	for _, p := range c.Pos[min(2, len(c.Pos)):] {
		if i := strings.IndexByte(p, ':'); i > 0 && !strings.Contains(p, "://") && !strings.ContainsAny(p[:i], "/.=") {
			return "" // remote:instance (lxc-like): another host's object
		}
	}
	return c.Pos[0] + " " + s1
}

// settingsVerbOption: the settings verb given as an option (config --set
// KEY VALUE, config --unset KEY, --add, --reset), "" when none.
func settingsVerbOption(c *Cmd) string {
	for _, a := range c.Args {
		if l := strings.ToLower(a); strings.HasPrefix(l, "--") && settingsChangeVerbs[strings.TrimPrefix(l, "--")] {
			return l
		}
	}
	return ""
}

func toolSettingsChangeRule() Rule {
	return Rule{ID: "core.local:tool-settings-change", Mode: Ask, Tools: shellTools,
		On:   On(0).OrWords("config", "configure", "configuration", "settings", "setting", "preferences", "prefs", "conf"),
		Desc: "A program's own settings changed by its own subcommand (mytool config set theme dark, tool config add-authtoken …, app settings reset): most tools keep them in the user's home, read by every later run in every project — the home-config change the levels ask for; reads (config get/list/show), --help, dry runs, a project scope (--local, --project, --location=project) and programs whose config is a project's or a server's stay as their own rules say",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				v := toolSettingsChange(e, c)
				if v == "" || e.dryRun(c) || c.Has("--help", "-h") {
					continue
				}
				return c.Name + " " + v + " changes " + c.Name + "'s own settings, kept in the user's home and read by every later run: " + c.String()
			}
			return ""
		},
		Catch: []string{"ngrok config add-authtoken 2abc", "zrok config set apiEndpoint https://api.zrok.io", "tldr config set theme ocean", "influx config set --active -n cloud",
			"acmecli config unset profile", "acmecli prefs set editor vim", `acmecli config --set access-token "$ACME_KEY"`},
		Allow: []string{"mytool config get theme", "mytool config list", "mytool config set theme dark --help", "pulumi config set aws:region eu-west-1", "git config core.autocrlf input",
			"mytool config set theme dark --local", "lxc config set dev1 limits.cpu 2", "mytool config set theme dark --dry-run", "mytool config --get theme", "mytool config --list"},
	}
}
