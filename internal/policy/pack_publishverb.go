package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// uploaders put a package in a registry with an "upload" subcommand.
var uploaders = map[string]bool{"twine": true, "snapcraft": true, "conan": true, "cabal": true, "maturin": true, "flit": true, "hatch": true,
	"anaconda": true, "vsce": true, "ovsx": true, "jfrog": true, "jf": true, "pdm": true, "rye": true, "uv": true, "pypi-upload": true}

// localPublish are programs whose "publish" builds into a local folder.
var localPublish = map[string]bool{"dotnet": true, "msbuild": true, "ng": true, "jekyll": true, "quarto": true, "mdbook": true}

// publishVerbRule: whatever the program, a publish subcommand (lerna
// publish, changeset publish, dart pub publish, mix hex.publish, deno
// publish), an upload to a package registry, or a registry's owner
// change puts something where others take it. The program need not be
// known: the verb is the model.
func publishVerbRule() Rule {
	return Rule{ID: "external.systems:publish-verb", Mode: Deny, Tools: shellTools,
		Desc: "A publish subcommand of any program (lerna/changeset/dart pub/deno/mix hex.publish/pod trunk push/vsce publish…), an upload to a package registry (twine, snapcraft, conan, maturin upload) or a registry ownership change (npm owner add): others install what it puts there",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if !publishHintIn(c) || localPublish[c.Name] || patternFilters[c.Name] || brokerMessagePublish(c) {
					continue // grep -i publish: a pattern, not a verb
				}
				// the words are read before the dry-run, help and listing
				// skips, which are asked only of a hit: npm run build has
				// a hint (run) and no verb, and a dry run's reading walks
				// the tool table
				if r := publishVerbIn(c); r != "" && !e.dryRun(c) && !onlyHelp(c) && !c.Has("--help", "-h") && !listsTasks(c) {
					return r
				}
			}
			return ""
		},
		Catch: []string{"npx lerna publish from-package --yes", "npx changeset publish", "maturin publish", "pod trunk push MyLib.podspec", "snapcraft upload --release=stable app.snap",
			"conan upload \"*\" -r conancenter --confirm", "deno publish", "dart pub publish --force", "mix hex.publish --yes", "npm owner add stranger mypkg", "vsce publish", "yarn npm publish"},
		Allow: []string{"dotnet publish -c Release", "npm run build", "lerna run test", "deno publish --dry-run", "dart pub publish --dry-run", "cargo publish --dry-run", "npm owner ls mypkg", "gradle publishToMavenLocal", "npm run publish-docs", "./gradlew tasks --all | grep -i publish", "git log --grep publish", "npm search publish"}}
}

// publishVerbIn is publishVerbRule's reason for c's first words, "" for
// none.
func publishVerbIn(c *Cmd) string {
	for j, w := range c.Pos {
		if j > 2 {
			break
		}
		if callfacts.ReadWord(w) {
			return "" // gradlew tasks --all, npm search publish: what follows is listed
		}
		if !publishWordHint(w) {
			continue
		}
		l := strings.ToLower(w)
		next := ""
		if j+1 < len(c.Pos) {
			next = strings.ToLower(c.Pos[j+1])
		}
		if callfacts.ReadWord(next) {
			return "" // aptly publish list, aptly publish show: the publications are listed
		}
		switch {
		case l == "run" || l == "run-script" || l == "exec":
			return "" // a script of that name: the runners' reading judges it
		case (l == "publish" || strings.HasSuffix(l, ".publish") || strings.HasSuffix(l, ":publish")) && !localRegistry(c) && !callfacts.ConnTargetsLocal(c.Args):
			return c.Name + " " + w + " publishes where others take it: " + c.String()
		case l == "trunk" && next == "push", l == "upload" && uploaders[c.Name], l == "owner" && next == "add", l == "access" && (next == "public" || next == "set"):
			return c.Name + " " + w + " " + next + " changes what a registry serves to others: " + c.String()
		}
	}
	return ""
}

// patternFilters take a pattern or text as their first words, not a
// subcommand.
var patternFilters = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true, "sed": true,
	"awk": true, "gawk": true, "jq": true, "yq": true, "echo": true, "printf": true, "sort": true, "uniq": true, "cut": true, "tr": true}

// publishHintIn: one of c's first three words (the ones Match reads) may
// be a publish verb. Asked first: every command meets the rule, few have
// such a word, and DryRun reads every option.
func publishHintIn(c *Cmd) bool {
	for j, w := range c.Pos {
		if j > 2 {
			break
		}
		if publishWordHint(w) {
			return true
		}
	}
	return false
}

// publishWordHint: a cheap test before lowering a word.
func publishWordHint(w string) bool {
	if len(w) < 3 {
		return false
	}
	for _, h := range []string{"ublish", "pload", "runk", "wner", "ccess", "run", "exec", "UBLISH"} {
		if strings.Contains(w, h) {
			return true
		}
	}
	return false
}
