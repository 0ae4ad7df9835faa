package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Cloud and provider CLIs judged by the structure of their operation
// names (callfacts/cloudops.txt): an operation whose verb changes a
// resource (stop-instances, update-certificate, kms keys versions
// disable, StopInstances) asks; one whose verb ends it (revoke-…,
// disassociate-…, cancel-…, a status set to REVOKED) is denied; a policy
// or ACL that opens a resource to anyone, or a job aimed at every device
// of a fleet, is denied. Reads, the CLI's own login and configuration,
// help, dry runs and a local emulator's endpoint stay allowed; the
// credentials a read prints are judged by the secret rules
// (printsToken).

// cloudOpExempt: c changes nothing remote whatever its verb says — help,
// a dry run or validation, an emulator on this machine, a CI run's own
// resource.
func cloudOpExempt(e *Env, c *Cmd) bool {
	return onlyHelp(c) || c.Has("--help", "--validate-only", "--generate-cli-skeleton") || anyPos(c, "help") || e.dryRun(c) || c.PreviewDeploy() ||
		localEndpoint(e, c) || ephemeralTargets(c) && cloudEnvSelected(e, c) == "" || cloudEnvClass(e, c) == "local"
}

// cloudOpOf is c's operation when it is not exempt, nil otherwise.
func cloudOpOf(e *Env, c *Cmd) *callfacts.CloudOp {
	op := c.CloudOp()
	if op == nil || op.Class == "" || op.Class == "read" || op.Class == "local" || cloudOpExempt(e, c) {
		return nil
	}
	return op
}

// publicPrincipal matches a policy document's statement that lets anyone
// in: "Principal": "*", {"AWS": "*"}, ["*"] (spaces removed, lower case).
var publicPrincipal = re(`"principal":(\[?"\*"|\{"aws":\[?"\*")`)

// everyAction matches a statement allowing every action ("*", or every
// action of a service, "iot:*") on every resource.
var everyAction = re(`"action":\[?"([a-z0-9-]+:)?\*"`)
var everyResource = re(`"resource":\[?"\*"`)

// openWords of a policy file's name say it opens a resource to anyone.
var openWords = map[string]bool{"public": true, "anyone": true, "everyone": true, "allusers": true, "world": true, "anonymous": true, "open": true}

// opensToAnyone says how c's change opens a resource to anyone or
// grants every action on every resource, "" when it does not: a policy
// document on the line or in the file it names (file://p.json, @p.json),
// allUsers members, a public-read ACL, a public visibility.
func opensToAnyone(e *Env, c *Cmd) string {
	for i, a := range c.Args {
		l := strings.ToLower(a)
		switch {
		case strings.Contains(l, "allusers") || strings.Contains(l, "allauthenticatedusers"):
			return a + " (every Google account or anyone)"
		case (l == "--acl" || l == "--public-access" || l == "--visibility") && i+1 < len(c.Args):
			if v := strings.ToLower(c.Args[i+1]); strings.HasPrefix(v, "public") || v == "blob" || v == "container" {
				return a + " " + c.Args[i+1]
			}
		case strings.HasPrefix(l, "--acl=public") || strings.HasPrefix(l, "--visibility=public") || l == "--public":
			return a
		}
		doc := l
		if f, ok := policyFile(a); ok {
			b := path.Base(strings.ToLower(f))
			for _, w := range strings.FieldsFunc(b, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
				if openWords[w] {
					return "the policy file " + f + " (its name says it opens the resource)"
				}
			}
			doc, _ = callfacts.ReadBounded(e.abs(c, f)) // bounded in size and time
		}
		if doc == "" || !strings.Contains(doc, "{") {
			continue
		}
		doc = strings.ReplaceAll(strings.Join(strings.Fields(strings.ToLower(doc)), ""), `\`, "") // a policy inside a JSON string: \"Principal\"
		if publicPrincipal.MatchString(doc) && !strings.Contains(doc, `"condition"`) {
			return "a policy whose principal is anyone (\"*\")"
		}
		if everyAction.MatchString(doc) && everyResource.MatchString(doc) && !strings.Contains(doc, `"effect":"deny"`) {
			return "a policy allowing every action on every resource"
		}
	}
	return ""
}

// policyFile is the file an argument names for a CLI to read
// (file://p.json, fileb://p.json, @p.json).
func policyFile(a string) (string, bool) {
	for _, p := range []string{"file://", "fileb://", "@"} {
		if f, ok := strings.CutPrefix(a, p); ok && f != "" && !strings.ContainsAny(f, " $") {
			return f, true
		}
	}
	return "", false
}

func cloudOpRules() []Rule {
	tools := callfacts.CloudOpTools()
	return append([]Rule{
		cmdRule("external.systems:cloud-op-change", Ask, "An operation of a cloud or provider CLI whose verb changes a resource (aws … stop-instances, update-certificate, gcloud … kms keys versions disable, az vm deallocate, hcloud server reboot, tccli cvm StopInstances); the verbs and CLIs are data (callfacts/cloudops.txt)", tools,
			func(e *Env, c *Cmd) string {
				op := cloudOpOf(e, c)
				switch {
				case op == nil:
				case op.Class == "destroy" && ownDevDestroy(e, c):
					return "" // the developer's own dev or sandbox resource (own_dev_destroy.go)
				case op.Class == "destroy" && cloudEnvClass(e, c) == "nonprod":
					// the environment selector names a non-production one
					// (--os-cloud staging): a delete there asks (pack_cloud_envsel.go)
					return c.Name + " " + op.Op + " destroys a resource in the non-production environment " + cloudEnvSelected(e, c) + " (" + op.Verb + "): " + c.String()
				case op.Class == "change" && sessionCommandRead(c):
					return "" // ssm send-command --instance-ids i-… whose command was read: judged as what it runs there (pack_cloudgrant.go)
				case op.Class == "change" && cloudDevOwnSelected(e, c):
					return "" // --profile cc-sandbox-dev: the developer's own environment (pack_cloud_devenv.go)
				case op.Class == "change" && !cloudOverwritesProd(e, c, op):
					return c.Name + " " + op.Op + " changes a cloud resource (" + op.Verb + "): " + c.String()
				}
				return ""
			},
			[]string{"aws ec2 stop-instances --instance-ids i-0abc", "aws --profile prod iot update-certificate --certificate-id 8f2e --new-status INACTIVE", "gcloud kms keys versions disable 3 --key k --keyring r --location us", "az vm deallocate -g rg -n vm1", "hcloud server reboot web1", "tccli cvm StopInstances --InstanceIds '[\"ins-1\"]'", "openstack server stop vm1", "aws iot create-job --job-id ota-1 --targets arn:aws:iot:eu-west-1:1:thinggroup/canary --document file://ota.json"},
			[]string{"aws ec2 describe-instances", "aws --region us-east-1 ec2 stop-instances --instance-ids i-1 --dry-run", "gcloud config set project acme", "az login", "aws --endpoint-url http://localhost:4566 sqs send-message --queue-url q --message-body x", "aws ec2 stop-instances help", "aliyun ecs DescribeInstances", "aws eks update-kubeconfig --name prod"}),
		cmdRule("external.systems:cloud-op-destroy", Deny, "An operation of a cloud or provider CLI whose verb ends a resource or an access for good (revoke-…, disassociate-…, cancel-…, reset-…, a certificate's status set to REVOKED, tccli … TerminateInstances); the verbs are data (callfacts/cloudops.txt)", tools,
			func(e *Env, c *Cmd) string {
				op := cloudOpOf(e, c)
				switch {
				case op == nil:
				case op.Class == "destroy" && ownDevDestroy(e, c):
					return "" // the developer's own dev or sandbox resource (own_dev_destroy.go)
				case op.Class == "destroy" && cloudEnvClass(e, c) != "nonprod":
					return c.Name + " " + op.Op + " destroys a cloud resource (" + op.Verb + "): " + c.String()
				case cloudOverwritesProd(e, c, op):
					return c.Name + " " + op.Op + " writes over a resource in production (" + cloudEnvSelected(e, c) + ", " + op.Verb + "): " + c.String()
				}
				return ""
			},
			[]string{"aws iot update-certificate --certificate-id 8f2e --new-status REVOKED", "tccli cvm TerminateInstances --InstanceIds '[\"ins-1\"]'", "aws ec2 revoke-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr 10.0.0.0/8", "scw instance server terminate 11", "yc compute instance delete vm1"},
			[]string{"aws iot describe-certificate --certificate-id 8f2e", "tccli cvm DescribeInstances", "aws --endpoint-url=http://localhost:4566 dynamodb delete-table --table-name t", "scw instance server list", "aws ec2 terminate-instances --instance-ids i-1 --dry-run"}),
		cmdRule("external.systems:cloud-op-open", Deny, "A cloud CLI's change that opens a resource to anyone or grants every action on every resource: a policy whose principal is \"*\" (on the line or in the file it names, or a file named public), allUsers members, a public-read ACL, a public visibility, an \"Action\": \"*\" on \"Resource\": \"*\"", tools,
			func(e *Env, c *Cmd) string {
				op := cloudOpOf(e, c)
				if op == nil || op.Class != "change" {
					return ""
				}
				if why := opensToAnyone(e, c); why != "" {
					return c.Name + " " + op.Op + " opens a resource to anyone: " + why + ": " + c.String()
				}
				return ""
			},
			[]string{"aws s3api put-bucket-policy --bucket b --policy file://policies/public-read.json", `aws iot create-policy --policy-name open --policy-document '{"Statement":[{"Effect":"Allow","Action":"iot:*","Resource":"*"}]}'`, `aws sqs set-queue-attributes --queue-url q --attributes '{"Policy":"{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"sqs:SendMessage\"}]}"}'`, "gcloud functions add-iam-policy-binding fn --member=allUsers --role=roles/cloudfunctions.invoker", "openstack image set --public img1"},
			[]string{"aws s3api put-bucket-policy --bucket b --policy file://policies/ci-readonly.json", `aws iot create-policy --policy-name gw --policy-document '{"Statement":[{"Effect":"Allow","Action":"iot:Publish","Resource":"arn:aws:iot:eu-west-1:1:topic/gw/*"}]}'`, "gcloud functions add-iam-policy-binding fn --member=serviceAccount:ci@p.iam.gserviceaccount.com --role=roles/cloudfunctions.invoker", "aws s3api get-bucket-policy --bucket b", "openstack image set --private img1"}),
		cmdRule("external.systems:cloud-op-fleet-all", Deny, "A cloud CLI's change aimed at every device or machine of a fleet (aws iot create-job --targets …thinggroup/all-devices, --instance-ids '*'): one mistake reaches them all at once; a canary group asks as any change", tools,
			func(e *Env, c *Cmd) string {
				op := cloudOpOf(e, c)
				if op == nil || op.Class != "change" {
					return ""
				}
				if v := c.CloudFleetAll(); v != "" {
					return c.Name + " " + op.Op + " acts on every device of the fleet (" + v + "): " + c.String()
				}
				return ""
			},
			[]string{"aws iot create-job --job-id ota-all --targets arn:aws:iot:eu-west-1:1:thinggroup/all-devices --document file://ota.json --target-selection CONTINUOUS", "aws ssm send-command --document-name AWS-RunShellScript --instance-ids '*' --parameters commands=uptime", "aws greengrassv2 create-deployment --target-arn x --targets arn:aws:iot:eu-west-1:1:thinggroup/fleet"},
			[]string{"aws iot create-job --job-id ota-c --targets arn:aws:iot:eu-west-1:1:thinggroup/canary --document file://ota.json --dry-run", "aws iot list-jobs", "aws iot describe-thing-group --thing-group-name all-devices"}),
		jobsBulkCancelRule(),                  // pack_jobs_cancel.go
		jobsEveryoneCancelRule(),              // pack_jobs_cancel.go
		lifecycleExpireAllRule(),              // pack_lifecycle_expire.go
		deviceChangeRule(), deviceGuardRule(), // pack_device_bridge.go
	}, append(liveHostRules(), appConsoleRules()...)...) // pack_live_hosts.go, pack_app_consoles.go
}

// narrowedOutput: a cloud CLI's output is cut down to fields that hold
// no secret (--query attributes.expires, --query "[].name",
// --format='value(name)'): the value itself is not printed.
func narrowedOutput(c *Cmd) bool {
	for _, o := range []string{"--query", "--format"} {
		v := strings.ToLower(strings.Trim(optValue(c, o), `"'`))
		if !strings.ContainsAny(v, ".([{,?") {
			continue // a format (json, env), not a selection of fields
		}
		for _, f := range []string{"value(", "table(", "csv(", "get(", "list(", "flattened("} {
			v = strings.TrimPrefix(v, f)
		}
		switch v {
		case "json", "yaml", "text", "table", "tsv", "none", "jsonc", "yamlc", "value", "flattened", "list", "csv":
			return false // a format, not a field
		}
		for _, w := range []string{"value", "secret", "password", "token", "key", "data", "payload", "credential", "connection", "*", "@"} {
			if strings.Contains(v, w) {
				return false
			}
		}
		return true
	}
	return false
}
