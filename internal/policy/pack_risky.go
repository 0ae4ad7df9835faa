package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// sendsRequests are HTTP clients: judged by what they send (a local
// DELETE of one index is scratch state; a DROP statement is not), in
// externalVerbRules, not by where they send it alone.
var sendsRequests = map[string]bool{"curl": true, "http": true, "https": true, "xh": true, "wget": true}

// riskyPack: routine but risky commands, recorded (audit) by default; a
// user or project may raise the pack to warn or ask (policy.raise).
func riskyPack() Pack {
	return Pack{Name: "risky.routine", Desc: "Risky but routine: recursive/forced/glob deletes in the project or /tmp, rm alias bypasses, kill, chmod 777/000, git branch -D, discarding changes, docker rm/prune, make/bazel clean", Rules: []Rule{
		cmdRule("risky.routine:rm-recursive", Audit, "Recursive, forced or glob deletes (outside the critical paths the core pack denies)", []string{"rm", "rimraf"},
			func(e *Env, c *Cmd) string {
				glob := false
				for _, p := range c.Pos {
					if strings.ContainsAny(p, "*?[") {
						glob = true
					}
				}
				if recursive(c) || c.Has("-f", "--force") || glob || c.Name == "rimraf" {
					return "delete: " + c.String()
				}
				return ""
			},
			[]string{"rm -rf ./build", "rm -r node_modules", "rm -f *.o", "rm /tmp/*.log"},
			[]string{"rm file.txt", "echo rm -rf x", "ls -rf", "rmdir empty"}),
		cmdRule("risky.routine:rm-alias-bypass", Audit, "rm run past aliases (\\rm, command rm, /bin/rm)", []string{"rm"},
			func(e *Env, c *Cmd) string {
				if c.Escaped || strings.Contains(c.Raw, "/") {
					return "rm bypasses shell aliases (" + c.Raw + ")"
				}
				return ""
			},
			[]string{"\\rm -r x", "command rm x", "/bin/rm -f x", "'rm' old.txt"},
			[]string{"rm x", "command -v rm", "echo \\rm", "alias rm='rm -i'"}),
		cmdRule("risky.routine:kill", Audit, "kill, pkill, killall", []string{"kill", "pkill", "killall", "skill", "kill-port", "fuser"},
			func(e *Env, c *Cmd) string {
				if c.Name == "kill" && c.Has("-l", "-L") || c.Name == "fuser" && !c.Has("-k") {
					return ""
				}
				return "ends processes: " + c.String()
			},
			[]string{"kill -9 1234", "pkill -f node", "killall python3", "fuser -k 8080/tcp"},
			[]string{"kill -l", "ps aux | grep node", "echo kill", "pgrep node"}),
		cmdRule("risky.routine:chmod-perm", Audit, "chmod 777/666/000 or a+rwx", []string{"chmod"},
			func(e *Env, c *Cmd) string {
				if len(c.Pos) == 0 {
					return ""
				}
				m := c.Pos[0]
				if strings.HasSuffix(m, "777") || strings.HasSuffix(m, "666") || m == "000" || m == "0000" || strings.Contains(m, "a+rwx") || m == "o+w" || m == "ugo+rwx" {
					return "world-writable or no permissions: chmod " + strings.Join(c.Args, " ")
				}
				return ""
			},
			[]string{"chmod 777 run.sh", "chmod -R 777 ./public", "chmod 000 secret.txt", "chmod a+rwx data"},
			[]string{"chmod 755 bin/tool", "chmod +x run.sh", "chmod 644 README.md", "chmod u+w f"}),
		cmdRule("risky.routine:branch-delete", Audit, "git branch -D and remote branch deletion", []string{"git"},
			func(e *Env, c *Cmd) string {
				switch sub(c) {
				case "branch":
					if c.Has("-D") || c.Has("--delete") && c.Has("--force", "-f") {
						return "force-deletes a branch: git " + strings.Join(c.Args, " ")
					}
				case "push":
					if c.Has("--delete", "-d") {
						return "deletes a remote branch: git " + strings.Join(c.Args, " ")
					}
					for _, p := range c.Pos[1:] {
						if strings.HasPrefix(p, ":") && len(p) > 1 {
							return "deletes a remote branch: git " + strings.Join(c.Args, " ")
						}
					}
				}
				return ""
			},
			[]string{"git branch -D feature/x", "git branch --delete --force old", "git push origin --delete feature/x", "git push origin :old-branch"},
			[]string{"git branch -d merged", "git branch", "git branch -a", "git push origin feature/x"}),
		cmdRule("risky.routine:discard-changes", Audit, "git checkout/restore of files, git switch --discard-changes: uncommitted edits are lost", []string{"git"},
			func(e *Env, c *Cmd) string {
				s := sub(c)
				switch {
				case s == "restore" && !(c.Has("--staged", "-S") && !c.Has("--worktree", "-W")) && len(c.Pos) > 1:
					return "discards changes: git " + strings.Join(c.Args, " ")
				case s == "checkout" && strings.Contains(" "+strings.Join(c.Args, " ")+" ", " -- ") && len(c.Pos) > 1:
					return "discards changes: git " + strings.Join(c.Args, " ")
				case (s == "checkout" || s == "switch") && gitForce(c):
					return "discards changes: git " + strings.Join(c.Args, " ")
				}
				return ""
			},
			[]string{"git checkout -- src/main.go", "git restore README.md", "git switch --discard-changes main", "git checkout -f dev"},
			[]string{"git checkout feature", "git restore --staged f.go", "git checkout -b new", "git switch main"}),
		cmdRule("risky.routine:container-rm", Audit, "docker/podman rm, rmi, prune, volume rm, compose down -v", []string{"docker", "podman", "nerdctl", "docker-compose"},
			func(e *Env, c *Cmd) string {
				pos := c.Pos
				for i, p := range pos {
					if p == "exec" || p == "run" {
						pos = pos[:i] // the words after are the command run in the container (docker compose exec app kill -HUP 1)
						break
					}
				}
				a := " " + strings.Join(pos, " ") + " "
				for _, s := range []string{" rm ", " rmi ", " prune ", " kill "} {
					if strings.Contains(a, s) || strings.HasSuffix(strings.TrimSpace(a), strings.TrimSpace(s)) {
						return "removes containers, images or volumes: " + c.String()
					}
				}
				if strings.Contains(a, " down ") && c.Has("-v", "--volumes", "--rmi") {
					return "removes containers and volumes: " + c.String()
				}
				return ""
			},
			[]string{"docker rm -f web", "docker rmi app:old", "docker system prune -af", "podman volume rm data", "docker compose down -v"},
			[]string{"docker ps", "docker run --rm alpine echo hi", "docker build -t app .", "docker compose up -d"}),
		cmdRule("risky.routine:clean-target", Audit, "make clean/distclean, bazel clean, cargo clean, gradle/mvn clean", []string{"make", "gmake", "bazel", "bazelisk", "cargo", "gradle", "gradlew", "mvn", "go", "ninja"},
			func(e *Env, c *Cmd) string {
				for _, p := range c.Pos {
					if p == "clean" || p == "distclean" || p == "clobber" || p == "mrproper" || p == "realclean" || c.Name == "bazel" && p == "--expunge" {
						if c.Name == "go" && !c.Has("-cache", "-modcache", "-testcache") {
							return ""
						}
						return "cleans build outputs: " + c.String()
					}
				}
				if c.Name == "bazel" && c.Has("--expunge") {
					return "cleans build outputs: " + c.String()
				}
				return ""
			},
			[]string{"make clean", "bazel clean --expunge", "cargo clean", "./gradlew clean build"},
			[]string{"make", "make test", "bazel build //...", "cargo build --release"}),
	}}
}

// kubeSub is kubectl's subcommand: the facts set its global options
// (-n prod, --context x, --kubeconfig f) aside wherever they stand
// (callfacts tools.txt).
func kubeSub(c *Cmd) string { return c.Sub(0) }

// externalPack: destroying things outside the machine needs the user.
func externalPack() Pack {
	return Pack{Name: "external.systems", Remote: true, Desc: "External systems: cloud deletes, terraform destroy, kubectl delete, helm uninstall, npm unpublish, crontab -r, redis FLUSHALL, iptables -F, systemctl stop/disable", Rules: append([]Rule{
		cmdRule("external.systems:cloud-delete", Deny, "Deleting cloud resources (aws/gcloud/az/doctl … delete, aws s3 rm/rb)", []string{"aws", "gcloud", "az", "doctl", "gsutil", "linode-cli", "hcloud", "flyctl", "fly", "vercel", "heroku", "oci", "ibmcloud"},
			func(e *Env, c *Cmd) string {
				if localEndpoint(e, c) || ephemeralTargets(c) || c.Name == "heroku" && sub(c) == "pg:psql" || planOp(c) || ownDevDestroy(e, c) {
					return "" // LocalStack or an emulator; a CI run's own resource (pack_test_resources.go); heroku pg:psql's statements are judged as SQL (pack_db_place.go); a change set dropped
				}
				if awsReadOp(c) {
					return "" // aws iam simulate-principal-policy --action-names s3:DeleteObject: the delete is a value the operation only evaluates
				}
				if awsReleaseOp(c) {
					return fmt.Sprintf("%s gives a resource back to the provider for good (release-…): %s", c.Name, c.String()) // pack_cloud_devenv.go
				}
				for _, p := range cloudWords(c.Pos) {
					l := strings.ToLower(p)
					if strings.HasPrefix(l, "delete") || strings.HasPrefix(l, "terminate") || strings.HasPrefix(l, "destroy") || l == "remove" || l == "rb" ||
						(l == "rm" && (c.Name == "aws" || c.Name == "gsutil" || c.Name == "vercel")) || strings.HasPrefix(l, "deregister") || l == "purge" && c.RemoteAction() != "change" {
						return fmt.Sprintf("%s deletes cloud resources: %s", c.Name, c.String())
					}
				}
				return ""
			},
			[]string{"aws ec2 terminate-instances --instance-ids i-1", "gcloud compute instances delete vm1", "az group delete -n rg", "aws s3 rb s3://bucket --force", "aws s3 rm s3://b/ --recursive", "doctl compute droplet delete 1"},
			[]string{"aws s3 ls", "gcloud config list", "az account show", "aws ec2 describe-instances", "aws iam simulate-principal-policy --policy-source-arn arn:aws:iam::1:role/app --action-names s3:DeleteObject"}),
		cmdRule("external.systems:terraform-destroy", Deny, "terraform/tofu destroy, apply -destroy, pulumi/cdk destroy", []string{"terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "serverless", "sls"},
			func(e *Env, c *Cmd) string {
				if iacOwnEnv(c) {
					return "" // a developer's, a branch's or a local environment
				}
				if sub(c) == "state" && (c.Sub(1) == "rm" || c.Sub(1) == "push" || c.Sub(1) == "replace-provider") || sub(c) == "workspace" && c.Sub(1) == "delete" || sub(c) == "force-unlock" ||
					sub(c) == "stack" && c.Sub(1) == "rm" {
					return c.Name + " changes the recorded state of real infrastructure: " + c.String()
				}
				if sub(c) == "destroy" || sub(c) == "remove" && (c.Name == "serverless" || c.Name == "sls") || sub(c) == "apply" && (c.Has("-destroy", "--destroy") || hasPrefixArg(c, "-replace=") && c.Has("-auto-approve", "--auto-approve")) || sub(c) == "run-all" && c.Sub(1) == "destroy" {
					return c.Name + " destroys infrastructure: " + c.String()
				}
				return ""
			},
			[]string{"terraform destroy", "terraform apply -destroy -auto-approve", "tofu destroy", "pulumi destroy --yes", "terraform apply -auto-approve -replace=aws_db_instance.main"},
			[]string{"terraform plan", "terraform init", "terraform fmt", "pulumi preview"}),
		cmdRule("external.systems:kubectl-delete", Deny, "kubectl/oc delete, drain", []string{"kubectl", "oc", "k"},
			func(e *Env, c *Cmd) string {
				if ephemeralTargets(c) || devNamespaceDataDelete(e, c) {
					return "" // a CI run's or a preview's own namespace (pack_test_resources.go); a dev namespace's claims: kubectl-claims-delete
				}
				if s := kubeSub(c); s == "delete" || s == "drain" || s == "replace" && c.Has("--force") || s == "scale" && strings.Contains(strings.Join(c.Args, " "), "--replicas=0") || s == "cordon" {
					return c.Name + " deletes cluster resources: " + c.String()
				}
				return ""
			},
			[]string{"kubectl delete pod web-1", "kubectl delete ns prod", "oc delete project x", "kubectl drain node-1", "kubectl -n prod delete secret db", "kubectl --context prod delete deploy api"},
			[]string{"kubectl get pods", "kubectl describe pod x", "kubectl logs web-1", "kubectl apply -f k8s/"}),
		cmdRule("external.systems:kubectl-claims-delete", Ask, "Deleting volume claims in a development or test namespace (kubectl -n dispatch-test delete pvc --all): the volumes they hold, the stage's stored data, go with them and no redeploy brings them back", []string{"kubectl", "oc", "k"},
			func(e *Env, c *Cmd) string {
				if devNamespaceDataDelete(e, c) {
					return c.Name + " deletes volume claims, and the data their volumes hold: " + c.String()
				}
				return ""
			},
			[]string{"kubectl -n dispatch-test delete pvc --all", "kubectl -n dev-alice delete pvc data-pg-0", "kubectl -n e2e delete persistentvolumeclaim/data-mysql-0"},
			[]string{"kubectl -n dispatch-test get pvc", "kubectl -n dispatch-test delete pod --all", "kubectl -n dev delete deploy api"}),
		cmdRule("external.systems:helm-uninstall", Deny, "helm uninstall/delete", []string{"helm"},
			func(e *Env, c *Cmd) string {
				if s := sub(c); (s == "uninstall" || s == "delete" || s == "del" || s == "un" || s == "rollback") && !ephemeralTargets(c) {
					return "helm removes a release: " + c.String()
				}
				return ""
			},
			[]string{"helm uninstall web", "helm delete web --purge", "helm uninstall -n prod api"},
			[]string{"helm list", "helm install web ./chart", "helm upgrade web ./chart", "helm template ./chart"}),
		cmdRule("external.systems:npm-unpublish", Deny, "npm/yarn/pnpm unpublish", []string{"npm", "yarn", "pnpm"},
			func(e *Env, c *Cmd) string {
				if anyPos(c, "unpublish") {
					return "removes a published package: " + c.String()
				}
				return ""
			},
			[]string{"npm unpublish mypkg@1.0.0", "npm unpublish --force", "pnpm unpublish pkg", "yarn npm unpublish"},
			[]string{"npm publish --dry-run", "npm install", "npm test", "yarn build"}),
		cmdRule("external.systems:crontab-remove", Ask, "crontab -r (removes every cron job)", []string{"crontab", "scrontab"},
			func(e *Env, c *Cmd) string {
				if c.Has("-r", "-ir", "-ri") {
					return "crontab -r removes every cron job"
				}
				return ""
			},
			[]string{"crontab -r", "crontab -u root -r", "sudo crontab -r", "bash -c 'crontab -r'"},
			[]string{"crontab -l", "crontab -e", "echo crontab -r", "scrontab -l"}),
		cmdRule("external.systems:forge-delete", Deny, "Deleting repositories, releases and other forge objects (gh repo delete, gh release delete, glab repo delete, gh api -X DELETE)", []string{"gh", "glab", "tea", "hub"},
			func(e *Env, c *Cmd) string {
				a := " " + strings.Join(c.Args, " ") + " "
				if anyPos(c, "delete", "delete-asset", "archive") && !anyPos(c, "label") || sub(c) == "api" && (strings.Contains(a, "-X DELETE") || strings.Contains(a, "--method DELETE") || strings.Contains(a, "-XDELETE") || strings.Contains(a, "--method=DELETE")) {
					return c.Name + " deletes on the forge: " + c.String()
				}
				return ""
			},
			[]string{"gh repo delete me/app --yes", "gh release delete v1.0", "glab repo delete grp/x", "gh api -X DELETE repos/me/app"},
			[]string{"gh repo view", "gh pr list", "gh release create v1.1", "gh api repos/me/app"}),
		cmdRule("external.systems:redis-flush", Deny, "redis-cli FLUSHALL/FLUSHDB", []string{"redis-cli", "valkey-cli", "keydb-cli"},
			func(e *Env, c *Cmd) string {
				if projectContainer(e, c) {
					return "" // docker exec proj-redis-1 redis-cli FLUSHALL: the project's own compose store
				}
				if a := lowerArgs(c); strings.Contains(a, "flushall") || strings.Contains(a, "flushdb") {
					if localScratchRedis(c) {
						return "" // one numbered database of this machine's server: a test index
					}
					if redisDefaultLocal(c) {
						return "" // this machine's server: a side port is a test one, the default asks (redis-flush-local, pack_local_servers.go)
					}
					return c.Name + " empties the database"
				}
				if anyPos(c, "del", "DEL", "unlink", "UNLINK") {
					for _, p := range c.Pos {
						if (callfacts.UnknownValue(p) || strings.Contains(p, "*")) && !testKeysFromLocal(e, c) {
							return c.Name + " deletes keys the command does not name: " + c.String()
						}
					}
				}
				return ""
			},
			[]string{"redis-cli -u redis://10.0.4.2:6379 FLUSHALL", "redis-cli -h prod flushdb", "redis-cli -h cache.example.com -n 2 FLUSHDB ASYNC", "ssh app1 redis-cli flushdb"},
			[]string{"redis-cli ping", "redis-cli get k", "redis-cli info", "echo FLUSHALL", "redis-cli -n 15 flushdb", "redis-cli -h 127.0.0.1 -n 3 FLUSHDB"}),
		redisFlushLocalRule(),
		cmdRule("external.systems:iptables-flush", Ask, "iptables/nft flush", []string{"iptables", "ip6tables", "nft", "ufw"},
			func(e *Env, c *Cmd) string {
				if c.Has("-F", "--flush", "-X") || c.Name == "nft" && anyPos(c, "flush") || c.Name == "ufw" && (anyPos(c, "reset") || anyPos(c, "disable") || anyPos(c, "deny") && anyPos(c, "default")) ||
					c.Has("-P", "--policy") && (anyPos(c, "DROP") || anyPos(c, "REJECT")) {
					return c.Name + " drops firewall rules: " + c.String()
				}
				return ""
			},
			[]string{"iptables -F", "sudo iptables --flush INPUT", "nft flush ruleset", "ufw disable"},
			[]string{"iptables -L", "nft list ruleset", "ufw status", "iptables -S"}),
		cmdRule("external.systems:systemctl-stop", Deny, "systemctl stop/disable/mask of system services", []string{"systemctl", "service"},
			func(e *Env, c *Cmd) string {
				if c.Has("--user") {
					return ""
				}
				if c.Name == "service" && len(c.Pos) > 1 && (c.Pos[1] == "stop") {
					return "stops a system service: " + c.String()
				}
				if s := sub(c); c.Name == "systemctl" && (s == "stop" || s == "disable" || s == "mask" || s == "kill" || s == "poweroff" || s == "reboot" || s == "halt") {
					return "systemctl " + s + " of a system service: " + c.String()
				}
				return ""
			},
			[]string{"systemctl stop nginx", "sudo systemctl disable sshd", "systemctl mask docker", "service postgresql stop"},
			[]string{"systemctl status nginx", "systemctl --user stop app", "systemctl list-units", "service nginx status"}),
		cmdRule("external.systems:systemctl-restart", Ask, "systemctl restart/reload of a system service, sudo or not: whoever uses the service (this machine's users, the clients of a server) is cut off while it comes back, and a broken unit or config does not come back", []string{"systemctl", "service"},
			func(e *Env, c *Cmd) string {
				if c.Has("--user") || hostOptionLab(e) {
					return "" // the user's own units; a lab VM's (systemctl -H vagrant@test-vm1)
				}
				if c.Name == "service" && len(c.Pos) > 1 && (c.Pos[1] == "restart" || c.Pos[1] == "reload" || c.Pos[1] == "force-reload") {
					return "restarts a system service: " + c.String()
				}
				if s := sub(c); c.Name == "systemctl" && (s == "restart" || s == "reload" || s == "try-restart" || s == "reload-or-restart" || s == "try-reload-or-restart" || s == "isolate") && len(c.Pos) > 1 {
					return "systemctl " + s + " of a system service: " + c.String()
				}
				return ""
			},
			[]string{"systemctl restart redis-sentinel", "systemctl reload nginx", "service php8.3-fpm restart", "systemctl try-restart gitlab-runsvdir"},
			[]string{"systemctl status nginx", "systemctl --user restart syncthing", "systemctl is-active nginx", "service nginx status", "systemctl restart --help"}),
	}, slices.Concat(externalVerbRules(), apiDeletePathRules(), handoffUploadRules(),
		[]Rule{publishRule(), deployRule(), publishVerbRule(), unknownPublishRule(), iacStateEditRule(), vaultAdminPolicyRule()},
		remoteActionRules(), moneyActRules(), []Rule{moneyTaskRule(), varEnvTaskRule(), consoleFeedRule()}, cloudControlRules(), netRules(), forkAndUnreadScriptRules(),
		settingOffRules(), []Rule{prodDataPulldownRule()}, cloudOpRules(), projectDataOutRules(),
		offensiveToolRules(), warehouseProdRules(), releaseEvalRules(), dbPlaceRules(), sharedProdChangeRules(), openConfigRules(), publishRules(), projBinConfirmSkipRules())...)}
}

// cloudWords splits subcommands like apps:destroy and delete-db-instance
// into their words.
func cloudWords(pos []string) []string {
	var out []string
	for _, p := range pos {
		out = append(out, p)
		if strings.ContainsAny(p, ":") {
			out = append(out, strings.FieldsFunc(p, func(r rune) bool { return r == ':' })...)
		}
	}
	return out
}
