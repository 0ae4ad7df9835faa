package policy

import (
	"strings"
)

// cloudControlTools manage who may do what, and how much runs, elsewhere.
var cloudControlTools = []string{"aws", "gcloud", "az", "kubectl", "oc", "k", "vault", "heroku", "doctl", "flyctl", "fly", "gh", "glab", "oci", "ibmcloud"}

var (
	adminRole   = re(`(?i)AdministratorAccess|cluster-admin|roles/(owner|editor)|\bOwner\b|-policy=root|policy/\*|"Action"\s*:\s*"\*"|IAMFullAccess|--role[= ]admin\b`)
	grantVerb   = re(`(?i)\battach-(user|group|role)-policy\b|\bput-(user|group|role)-policy\b|add-iam-policy-binding|role assignment create|(create|patch|edit|replace|set subject) (cluster)?rolebinding|\btoken create\b|\bcreate-policy-version\b|\bpolicy add-(cluster-)?role-to-(user|group)\b`)
	worldOpen   = re(`(?i)(authorize-security-group-ingress|firewall-rules create|nsg rule create|--source-ranges|--cidr|--source-address-prefixes)\b.*(0\.0\.0\.0/0|::/0|\*)|(0\.0\.0\.0/0|::/0).*(authorize-security-group-ingress|firewall-rules create|nsg rule create)`)
	scaleToZero = re(`(?i)--replicas[= ]0\b|"replicas"\s*:\s*0\b|--desired-capacity[= ]0\b|--max-size[= ]0\b|ps:scale\s+\w+=0\b|scale\s+\S+=0\b|--max-instances[= ]0\b|--count[= ]0\b|--desired-count[= ]0\b`)
	keyDestroy  = re(`(?i)schedule-key-deletion|\bdisable-key\b|keys versions destroy|key delete|secrets disable|delete-secret\b.*--force-delete-without-recovery`)
	remoteExec  = re(`(?i)ssm send-command|ssm start-session|vm run-command|compute ssh .*--command|run-command invoke`)
	mintCred    = re(`(?i)create-access-key|keys create|create-login-profile|create-service-specific-credential|sp create-for-rbac|auth token create|token create`)
	dnsChange   = re(`(?i)change-resource-record-sets|dns record-sets (create|update|delete|transaction)|network dns record-set .* (create|update|delete)|dns records (create|update|delete)`)
)

// cloudControlRules: granting admin rights, opening a service to the
// world, scaling production to zero or destroying keys are denied;
// minting credentials, running commands on fleets and changing DNS ask.
func cloudControlRules() []Rule {
	return []Rule{
		cmdRule("external.systems:cloud-control", Deny, "Granting admin rights (AdministratorAccess, cluster-admin, roles/owner, a root token), opening a port to the whole internet, scaling a service to zero or destroying encryption keys, through a cloud or cluster CLI", cloudControlTools,
			func(e *Env, c *Cmd) string {
				a := strings.Join(c.Args, " ")
				switch {
				case grantVerb.MatchString(c.Name+" "+a) && adminRole.MatchString(a):
					return c.Name + " grants administrator rights: " + c.String()
				case worldOpen.MatchString(a):
					return c.Name + " opens access from the whole internet: " + c.String()
				case scaleToZero.MatchString(a) && !strings.Contains(a, "--dry-run"):
					return c.Name + " scales a service to zero: " + c.String()
				case keyDestroy.MatchString(a):
					return c.Name + " destroys or disables encryption keys or a secrets engine: " + c.String()
				}
				return ""
			},
			[]string{"aws iam attach-user-policy --user-name ci --policy-arn arn:aws:iam::aws:policy/AdministratorAccess", "kubectl create clusterrolebinding pwn --clusterrole=cluster-admin --serviceaccount=default:default",
				"vault token create -policy=root", "aws ec2 authorize-security-group-ingress --group-id sg-0abc --protocol tcp --port 22 --cidr 0.0.0.0/0", "kubectl patch deploy api -n prod -p '{\"spec\":{\"replicas\":0}}'",
				"aws autoscaling update-auto-scaling-group --auto-scaling-group-name web --min-size 0 --desired-capacity 0", "heroku ps:scale web=0 -a myapp", "aws kms schedule-key-deletion --key-id alias/prod --pending-window-in-days 7",
				"gcloud projects add-iam-policy-binding p --member user:x@y.z --role roles/owner"},
			[]string{"aws iam list-attached-user-policies --user-name ci", "kubectl get clusterrolebindings", "vault token lookup", "aws ec2 describe-security-groups", "kubectl scale deploy api --replicas=3", "aws kms list-keys"}),
		cmdRule("external.systems:cloud-access", Ask, "Minting credentials (create-access-key, service-account keys create), running commands across a fleet (ssm send-command, az vm run-command) or changing DNS records through a cloud CLI", cloudControlTools,
			func(e *Env, c *Cmd) string {
				a := strings.Join(c.Pos, " ")
				switch {
				case remoteExec.MatchString(a) && !sessionCommandRead(c):
					return c.Name + " runs commands on remote machines: " + c.String()
				case mintCred.MatchString(a):
					return c.Name + " creates a new credential: " + c.String()
				case dnsChange.MatchString(a):
					return c.Name + " changes DNS records: " + c.String()
				case grantVerb.MatchString(c.Name + " " + a):
					return c.Name + " grants access: " + c.String() // a narrower role than admin (gen12: oc adm policy add-role-to-user edit)
				}
				return ""
			},
			[]string{"aws iam create-access-key --user-name admin", "gcloud iam service-accounts keys create key.json --iam-account ci@proj.iam.gserviceaccount.com",
				"aws route53 change-resource-record-sets --hosted-zone-id Z1ABC --change-batch file://changes.json", "aws ssm send-command --document-name AWS-RunShellScript --targets Key=tag:env,Values=prod"},
			[]string{"aws iam list-access-keys", "gcloud iam service-accounts keys list --iam-account x", "aws route53 list-hosted-zones", "aws ssm describe-instance-information"}),
	}
}

// sessionCommandRead: c is one instance's session (aws ssm start-session
// --target i-…) whose document parameters were read into the command it
// runs there (callfacts/ssmparams.go): that command is judged on its
// own, as ssh host CMD is; so is send-command to instances named by id;
// a bare session, parameters not read (file://…) and send-command to
// --targets, which runs across a fleet, still ask.
func sessionCommandRead(c *Cmd) bool {
	if c.Name != "aws" || len(c.Pos) < 2 || c.Pos[0] != "ssm" || c.Payload == "" {
		return false
	}
	switch c.Pos[1] {
	case "start-session":
	case "send-command":
		// to the instances it names by id (--instance-ids i-…), no
		// --targets tag that picks a fleet: like ssh host CMD to each
		if optValue(c, "--instance-ids") == "" || optValue(c, "--targets") != "" || c.Has("--targets") {
			return false
		}
	default:
		return false
	}
	return strings.TrimSpace(optValue(c, "--parameters")) != strings.TrimSpace(c.Payload)
}
