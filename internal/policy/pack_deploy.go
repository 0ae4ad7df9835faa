package policy

import (
	"strings"
)

// deployTools change infrastructure and running services elsewhere.
var deployTools = []string{"terraform", "tofu", "terragrunt", "pulumi", "kubectl", "oc", "k", "helm", "helmfile", "cdk", "cdktf", "serverless", "sls", "sam",
	"flyctl", "fly", "vercel", "netlify", "firebase", "wrangler", "gcloud", "az", "aws", "eb", "heroku", "ansible-playbook", "kustomize", "skaffold",
	"railway", "render", "doctl", "eksctl", "kops", "nomad", "waypoint", "cf", "dokku", "kamal"}

// deployRule: applying changes to infrastructure or deploying to a
// running environment needs the user; plans, diffs, templates and
// previews are reads. Changes only to this machine's clusters (kind,
// minikube, k3d) are left alone by cmdRule's local check.
func deployRule() Rule {
	return cmdRule("external.systems:deploy", Ask, "Applying infrastructure or deploying to a running environment (terraform apply, pulumi up, kubectl apply/scale/rollout restart, helm install/upgrade/rollback, cdk/sam/serverless/fly/vercel/firebase deploy, ansible-playbook): it changes what others use; plans, diffs and previews are reads", deployTools,
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || c.Has("--check", "-C", "--dry-run", "--diff", "--syntax-check", "--list-hosts", "--list-tasks", "--list-tags") && c.Name == "ansible-playbook" {
				return ""
			}
			if dry := strings.Join(c.Flags, " "); strings.Contains(dry, "--dry-run") || strings.Contains(dry, "--preview") || e.dryRun(c) || c.PreviewDeploy() || c.OwnTarget(true) {
				return "" // OwnTarget: --project x-dev, --environment-name development: a dev or test environment (callfacts/verbs.txt target-options)
			}
			s := fannedSub(c)
			w := deployWords[c.Name]
			if c.Name == "ansible-playbook" {
				if ansibleLab(c) {
					return "" // -i inventory/lab.yml, -i localhost,: the developer's own hosts
				}
				return "ansible-playbook changes the hosts of its inventory: " + c.String()
			}
			if c.Name == "kubectl" || c.Name == "oc" || c.Name == "k" {
				if s == "config" && anyPos(c, "delete-context", "delete-cluster", "delete-user") {
					return c.Name + " config removes a cluster's context from the user's kubeconfig: " + c.String()
				}
				if s == "rollout" && !anyPos(c, "restart", "undo", "pause", "resume") {
					return ""
				}
			}
			if c.Name == "vercel" && s == "" {
				if c.Has("--prod") {
					return "vercel --prod deploys to production: " + c.String()
				}
				return "" // bare vercel deploys a preview
			}
			if c.Name == "gcloud" || c.Name == "az" || c.Name == "aws" || c.Name == "eb" || c.Name == "doctl" {
				for _, p := range cloudWords(c.Pos) {
					l := strings.ToLower(p)
					if l == "deploy" || strings.HasPrefix(l, "update-stack") || strings.HasPrefix(l, "create-stack") || l == "update-function-code" || l == "swap" {
						return c.Name + " deploys: " + c.String()
					}
				}
				return ""
			}
			if paasReport[c.Name] && len(c.Pos) > 1 && s == c.Pos[0] && paasReportWords[strings.ToLower(c.Pos[1])] {
				return "" // fly scale show, kamal rollback --help: the verb's own report
			}
			for _, x := range w {
				if s == x {
					return c.Name + " " + s + " changes a running environment: " + c.String()
				}
			}
			return ""
		},
		[]string{"terraform apply -auto-approve", "pulumi up --yes", "kubectl apply -f k8s/", "helm upgrade --install app ./chart -n staging", "kubectl config delete-context prod", "kubectl scale deploy/api --replicas=3",
			"kubectl rollout restart deploy/api", "cdk deploy --all", "fly deploy", "firebase deploy --only hosting", "sam deploy --no-confirm-changeset", "ansible-playbook -i prod site.yml", "gcloud run deploy api --source .", "netlify deploy --prod --dir=public", "vercel deploy --prebuilt --prod"},
		[]string{"terraform plan", "terraform init", "terraform validate", "pulumi preview", "kubectl get pods", "kubectl diff -f k8s/", "helm template ./chart", "helm lint ./chart", "cdk synth", "cdk diff",
			"sam build", "ansible-playbook --check site.yml", "ansible-playbook site.yml --syntax-check", "ansible-playbook -i prod site.yml --list-hosts", "kubectl apply --dry-run=client -f k8s/", "gcloud run services list", "kubectl rollout status deploy/api", "kubectl apply -f k8s/ --context kind-dev",
			"netlify deploy --dir=public --alias pr-412", "vercel deploy --prebuilt", "gcloud app deploy --no-promote --version pr-12", "az deployment group what-if -g rg-prod --template-file main.bicep"})
}

// deployWords are each tool's subcommands that change a running
// environment.
var deployWords = map[string][]string{
	"terraform": {"apply", "import", "taint", "untaint"}, "tofu": {"apply", "import", "taint", "untaint"}, "terragrunt": {"apply", "import", "taint", "untaint"},
	"pulumi": {"up", "update", "refresh", "import", "cancel"}, "kubectl": {"apply", "create", "replace", "patch", "scale", "set", "edit", "label", "annotate", "cordon", "taint", "autoscale", "expose", "rollout"},
	"oc": {"apply", "create", "replace", "patch", "scale", "set", "edit", "rollout", "new-app"}, "k": {"apply", "create", "replace", "patch", "scale", "set", "edit", "rollout"},
	"helm": {"install", "upgrade", "rollback"}, "helmfile": {"apply", "sync", "destroy"}, "cdk": {"deploy"}, "cdktf": {"deploy", "apply"},
	"serverless": {"deploy"}, "sls": {"deploy"}, "sam": {"deploy", "sync"}, "flyctl": {"deploy", "scale"}, "fly": {"deploy", "scale"},
	"vercel": {"deploy", "--prod", "promote", "rollback", "alias"}, "netlify": {"deploy"}, "firebase": {"deploy"}, "wrangler": {"deploy", "publish"},
	"heroku": {"releases:rollback", "ps:scale", "config:set", "config:unset", "maintenance:on"}, "skaffold": {"run", "deploy", "apply"},
	"railway": {"up", "deploy"}, "render": {"deploy"}, "eksctl": {"create", "upgrade", "scale"},
	"kops": {"update", "rolling-update"}, "nomad": {"run"}, "waypoint": {"up", "deploy"}, "cf": {"push", "scale", "restart"}, "dokku": {"ps:rebuild", "ps:scale"},
	"kamal": {"deploy", "rollback", "setup"},
}

// paasReport are the hosting CLIs whose deploy verbs are also command
// groups with their own reports (fly scale show, kamal rollback --help is
// a flag): a read word right after the verb lists. Not terraform or helm,
// where the next word may be a plan file or a release's name.
var paasReportWords = map[string]bool{"show": true, "list": true, "ls": true, "status": true, "logs": true, "history": true, "info": true, "help": true}

var paasReport = map[string]bool{"fly": true, "flyctl": true, "kamal": true, "railway": true, "render": true, "vercel": true, "netlify": true, "wrangler": true, "firebase": true}

// fanOut are the subcommands that run another subcommand of the same
// tool across many modules (terragrunt run-all plan, terragrunt run --all
// -- apply): what they do is what that subcommand does.
var fanOut = map[string]map[string]bool{"terragrunt": {"run-all": true, "run": true}}

// fannedSub is c's subcommand, looking through a fan-out to the
// subcommand it runs.
func fannedSub(c *Cmd) string {
	s := sub(c)
	if !fanOut[c.Name][s] {
		return s
	}
	for _, p := range c.Pos[1:] {
		if p != "--" {
			return p
		}
	}
	return s
}
