package policy

import (
	"slices"

	"github.com/warden-dev/warden/internal/callfacts"
)

// remoteActionRules join external.systems: what a command does outside
// the machine by the word tables (callfacts/remote.txt, verbs.txt) —
// publishing, making public, deleting from a registry — and a destroy
// verb of a program no table names.
func remoteActionRules() []Rule {
	kind := func(id, k, desc string, catch, allow []string) Rule {
		return cmdRuleIf(id, Deny, desc, callfacts.RemoteActionTools(),
			func(e *Env, c *Cmd) bool { return e.remoteAction(c) == k && !(k == "destroy" && ownDevDestroy(e, c)) },
			func(e *Env, c *Cmd) string {
				if e.remoteAction(c) != k || k == "destroy" && ownDevDestroy(e, c) {
					return "" // the developer's own dev or sandbox resource (own_dev_destroy.go)
				}
				switch k {
				case "publish":
					return c.Name + " publishes where others take it: " + c.String()
				case "visibility":
					return c.Name + " makes something public: " + c.String()
				}
				return c.Name + " deletes outside this machine (a registry or a service): " + c.String()
			}, catch, allow)
	}
	return append(append(psCmdletRules(), remoteScriptNameRules()...), []Rule{ // remoteScriptNameRules: pack_remote_scriptnames.go
		kind("external.systems:publish-image", "publish", "Publishing images and changing published packages (docker/podman/buildah push, npm deprecate, npm dist-tag rm, crane/oras push, gh release create); the list is data (callfacts/remote.txt)",
			[]string{"docker push myorg/app:latest", "podman push quay.io/me/app", "buildah push app docker://x/app", "npm deprecate pkg@1 'old'", "npm dist-tag rm pkg beta", "docker buildx build --push -t x/y ."},
			[]string{"docker pull nginx", "docker build -t app .", "npm dist-tag ls pkg", "podman images", "docker push --help"}),
		kind("external.systems:make-public", "visibility", "Making a repository, bucket or object public (gh repo edit --visibility public, private=false, put-bucket-acl public-read, allUsers); the list is data (callfacts/remote.txt)",
			[]string{"gh repo edit --visibility public", "gh api -X PATCH repos/o/r -f private=false", "aws s3api put-bucket-acl --bucket b --acl public-read", "gsutil iam ch allUsers:objectViewer gs://b", "gh repo edit o/r --visibility=public --accept-visibility-change-consequences"},
			[]string{"gh repo view", "gh repo edit --description x", "aws s3api get-bucket-acl --bucket b", "gsutil iam get gs://b", "gh repo edit --visibility private"}),
		kind("external.systems:registry-delete", "destroy", "Deleting from a registry or a forge (skopeo delete, crane delete, regctl tag rm, oras manifest delete, gh release delete, gh api -X DELETE); the list is data (callfacts/remote.txt)",
			[]string{"skopeo delete docker://reg/app:1", "crane delete reg/app:1", "regctl tag rm reg/app:1", "oras manifest delete reg/app:1", "gh api -X DELETE repos/o/r/git/refs/heads/x"},
			[]string{"skopeo inspect docker://reg/app:1", "crane ls reg/app", "regctl tag ls reg/app", "oras manifest fetch reg/app:1", "gh api repos/o/r"}),
		{
			ID: "external.systems:unknown-destroy", Mode: Deny, Tools: shellTools,
			Desc: "A destroy verb or option of a program warden has no table for (hcloud server delete, pscale database delete, nomad job stop -purge): most likely a remote resource; the verbs and the local programs left out are data (callfacts/verbs.txt)",
			Match: func(e *Env) string {
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if c.Effect != callfacts.EffectDelete {
						continue // the reading gives an unknown destroy the delete effect
					}
					if v := c.UnknownDestroy(); v != "" && (!slices.Contains(externalCLIs, c.Name) || c.Has("-purge", "--purge")) && !e.localOnly(i) && !testStore(e, c) && !ownDevDestroy(e, c) {
						// external.systems:destructive-verb judges the CLIs it names
						return c.Name + " " + v + ": destroy remote resource (unknown tool): " + c.String()
					}
				}
				return ""
			},
			Catch: []string{"nomad job stop -purge web", "koyeb service delete web", "upctl server delete x", "triton instance delete vm1", "mytool cluster destroy prod", "exo compute instance delete vm1"},
			Allow: []string{"scw instance server list", "mytool cluster describe prod", "poetry remove requests", "cargo remove serde", "docker rmi app", "mytool delete --help", "mytool delete --dry-run x", "./scripts/cleanup.sh delete"},
		},
		{
			ID: "external.systems:unknown-change", Mode: Ask, Tools: shellTools,
			Desc: "A change verb of a program warden has no table for (deploy, release, promote, rollback, grant, revoke, suspend, refund, scale, restart, failover…): most likely a shared service or account; the verbs and the local programs left out are data (callfacts/verbs.txt)",
			Match: func(e *Env) string {
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if c.Effect != callfacts.EffectWrite {
						continue // the reading gives an unknown change the write effect
					}
					if v := c.UnknownChange(); v != "" && !c.PreviewDeploy() && !devObject(c) && !e.localOnly(i) && !stopsWhatLineStarted(e, i) && !sshDevHost(e, c) && !boardUpload(c) {
						return c.Name + " " + v + ": change remote resource (unknown tool): " + c.String()
					}
				}
				return ""
			},
			Catch: []string{"nomad deployment promote 3f2a", "koyeb service redeploy web", "upctl server rotate-keys x", "triton instance disable vm1", "acmectl account suspend 42", "exo compute instance-pool scale pool1 10", "mytool apps:rollback v41"},
			Allow: []string{"nomad deployment status 3f2a", "koyeb service describe web", "mytool deploy --help", "mytool deploy --dry-run prod", "./scripts/release.sh promote", "pnpm deploy out/", "poetry publish --dry-run", "mytool list deployments"},
		},
		{
			ID: "external.systems:host-action", Mode: Ask, Tools: shellTools,
			Desc: "An action option or a verb in the program's name aimed at another host's server (pt-kill --host db-prod-1 --kill, mysqlcheck -h db-prod-1 --optimize, mariadb-upgrade -h db-prod-1); this machine's server and lab boxes are the user's own",
			Match: func(e *Env) string {
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if c.Effect != callfacts.EffectWrite || e.dryRun(c) || c.Has("--help") {
						continue
					}
					if v := c.ServerAction(); v != "" && !e.localOnly(i) {
						return c.Name + " " + v + ": " + c.String()
					}
				}
				return ""
			},
			Catch: []string{"pt-kill --host db-prod-1.example.net --kill --victims all", "mysqlcheck -h db-prod-1.example.net --optimize orders", "mariadb-upgrade -h mariadb-prod-3.example.net -u root", "mytool --server=api.acme.io --restart web"},
			Allow: []string{"mysqlcheck -h localhost --optimize orders", "pt-kill --host db-lab-1 --kill", "mysqlcheck -h db-prod-1.example.net --check orders", "mariadb-upgrade", "pt-kill --host db-prod-1.example.net --print", "mysql -h db-prod-1.example.net -e 'SELECT 1'"},
		},
	}...)
}

// sshDevHost: c runs through ssh on a host named for development, test
// or a lab (ssh boomi-atom-dev01 'atom restart'), and every host the
// line reaches by ssh is such: a change there is the team's own scratch.
func sshDevHost(e *Env, c *Cmd) bool {
	if !runsOverSSH(c, sshOutermost) {
		return false
	}
	n := 0
	for _, s := range e.F.Cmds("ssh", "autossh", "mosh") {
		if len(s.Pos) == 0 {
			continue
		}
		h := sshHostOf(s.Pos[0])
		if prodWord.MatchString(h) || !callfacts.LabTarget(h, nil) && !devName(h) {
			return false
		}
		n++
	}
	return n > 0
}
