package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Shipping to an environment others use: a deploy or release verb of a
// tool beyond pack_deploy's list (supabase functions deploy, nomad job
// run, mkdocs gh-deploy, fastlane beta, xcrun altool --upload-app,
// bazel run //deploy:…), a restore over a cluster (velero restore
// create), a reconciler paused (flux suspend) or a node taken out of a
// shared cluster (cockroach node decommission). The programs and words
// are data (callfacts/remote.txt ship); destroy verbs of the same tools
// are remote.txt destroy lines, denied by registry-delete.
func shipRule() Rule {
	return remoteActionRule("external.systems:ship", Ask, "Shipping to or changing an environment others use through a tool's deploy, release, upload-to-store, restore or cluster-membership verb (supabase functions deploy, nomad job run, mkdocs gh-deploy, fastlane beta, flux suspend, velero restore create, cockroach node decommission); the list is data (callfacts/remote.txt ship)",
		"ship", "ships to or changes an environment others use",
		[]string{"supabase functions deploy send-invoice --project-ref abc", "nomad job run jobs/api.nomad.hcl", "mkdocs gh-deploy --force", "fastlane ios beta", "fastlane android deploy_playstore",
			"xcrun altool --upload-app -f build/App.ipa -t ios", "bazel run //services/api:deploy_staging", "flux suspend kustomization --all -n flux-system", "velero restore create --from-backup nightly",
			"cockroach node decommission 4 --host=crdb-2:26257", "buildkite-agent pipeline upload .buildkite/release.yml", "act -j deploy -s GITHUB_TOKEN=x", "gh pr merge 12 --admin --merge", "gh pr merge 12 --squash", "nodetool decommission", "kubectl drain node-7 --ignore-daemonsets"},
		[]string{"supabase functions serve", "supabase functions list", "nomad job status api", "nomad job plan jobs/api.nomad.hcl", "mkdocs build", "mkdocs serve", "fastlane ios test", "fastlane lanes",
			"xcrun altool --validate-app -f build/App.ipa -t ios", "bazel run //tools:gazelle", "bazel build //deploy:all", "flux get kustomizations", "velero backup create nightly", "velero restore describe r1",
			"cockroach node status --host=crdb-2:26257", "buildkite-agent pipeline upload .buildkite/pipeline.yml", "act -j test", "gh pr view 12 --json mergeable", "gh pr checks 12", "nodetool status", "kubectl get nodes"})
}

// remoteActionRule fires on a command whose remote.txt action is action
// (callfacts RemoteAction); the reason is "NAME does: the command".
func remoteActionRule(id string, mode Mode, desc, action, does string, catch, allow []string) Rule {
	return cmdRuleIf(id, mode, desc, callfacts.RemoteActionTools(),
		func(e *Env, c *Cmd) bool { return e.remoteAction(c) == action },
		func(e *Env, c *Cmd) string {
			if e.remoteAction(c) == action && !(action == "ship" && (c.PreviewDeploy() || c.OwnTarget(true))) && !devAppCLI(e, c) {
				return c.Name + " " + does + ": " + c.String()
			}
			return ""
		}, catch, allow)
}

// devAppCLI: c is the project's own program (bin/tootctl, ./manage.py)
// run with its framework's environment set to development or test
// (RAILS_ENV=development bin/tootctl accounts create alice --role Owner):
// what it changes is the developer's own instance, whatever its verb.
func devAppCLI(e *Env, c *Cmd) bool {
	if !strings.Contains(c.Raw, "/") || strings.HasPrefix(c.Raw, "/") || strings.HasPrefix(c.Raw, "~") || !appDevEnv.MatchString(e.F.Command) || appProdEnv.MatchString(e.F.Command) || prodWord.MatchString(e.F.Command) {
		return false
	}
	return under(e.abs(c, c.Raw), e.F.Project)
}

// grantAccessRule: a key or a person given access to an account or a
// repository (gh ssh-key add, gh repo deploy-key add, heroku access:add):
// whoever holds that key gets in, long after the session; the list is
// data (callfacts/remote.txt grant).
func grantAccessRule() Rule {
	return remoteActionRule("external.systems:grant-access", Deny, "Giving a key or a person access to an account or a repository (gh ssh-key add, gh repo deploy-key add, glab deploy-key add, heroku keys:add, doctl compute ssh-key import): whoever holds the key gets in; the list is data (callfacts/remote.txt grant)",
		"grant", "gives a key or a person access to an account or repository",
		[]string{"gh ssh-key add /tmp/k.pub --title ci", "gh repo deploy-key add key.pub --allow-write", "glab ssh-key add ~/.ssh/other.pub -t laptop", "heroku access:add someone@x.example -a shop", "doctl compute ssh-key import ci --public-key-file k.pub"},
		[]string{"gh ssh-key list", "gh repo deploy-key list", "glab ssh-key list", "heroku access -a shop", "doctl compute ssh-key list"})
}
