package policy

import "strings"

// sdkRunners are the interpreters whose one-liners and heredocs call
// services' SDKs (boto3, huggingface_hub, @aws-sdk, octokit).
var sdkRunners = []string{"python", "python3", "python2", "ipython", "ipython3", "pypy3", "node", "nodejs", "deno", "bun", "ruby",
	"rscript", "r", "julia", "php"} // R's rsconnect, pins, googledrive…

// sdkDestroyRule: code that deletes a service's resources through its SDK
// is that service's CLI deleting them (huggingface-cli repo delete, aws
// s3 rb, wandb artifact rm), disguised as library calls; the SDKs and
// their deleting calls are data (callfacts/sdkcalls.txt).
func sdkDestroyRule() Rule {
	return cmdRule("core.interp:sdk-destroy", Deny, "Interpreter code that deletes a service's resources through its SDK (delete_repo, Bucket(…).object_versions.delete(), wandb runs' .delete(), delete_namespace…): the service's CLI delete, spelled as library calls; the list is data (callfacts/sdkcalls.txt)", sdkRunners,
		func(e *Env, c *Cmd) string {
			if what := c.SDKDestroy(); what != "" {
				return c.Name + " code deletes " + what + " through the service's SDK"
			}
			return ""
		},
		[]string{`python -c "from huggingface_hub import delete_repo; delete_repo('acme/model-v2')"`,
			`python3 -c "import boto3; boto3.resource('s3').Bucket('acme-logs').objects.all().delete()"`,
			`node -e "const {S3Client,DeleteBucketCommand}=require('@aws-sdk/client-s3'); new S3Client({}).send(new DeleteBucketCommand({Bucket:'b'}))"`,
			`python3 -c "from kubernetes import client,config; config.load_kube_config(); client.CoreV1Api().delete_namespace('staging')"`},
		[]string{`python -c "from huggingface_hub import list_models; print(list(list_models(author='acme')))"`,
			`python3 -c "import boto3; print([b.name for b in boto3.resource('s3').buckets.all()])"`,
			`python -c "import wandb; print(wandb.Api().runs('acme/x'))"`,
			`python -c "d={'a':1}; del d['a']; print(d)"`})
}

// sdkAdminChangeRule: code that changes a service's administration
// through its SDK (firebase-admin setCustomUserClaims, set_iam_policy,
// attach_role_policy, grants.update) is the service's CLI granting or
// reconfiguring, spelled as library calls: an undoable change of shared
// state, so it asks; an emulator or a store on this machine is spared.
// The calls are data (callfacts/sdkcalls.txt @change).
func sdkAdminChangeRule() Rule {
	return cmdRule("core.interp:sdk-admin-change", Ask, "Interpreter code that changes a service's administration through its SDK (setCustomUserClaims, set_iam_policy, attach_role_policy, role_assignments.create, grants.update, security rules published): who may do what changes; an emulator on this machine is spared; the list is data (callfacts/sdkcalls.txt @change)", sdkRunners,
		func(e *Env, c *Cmd) string {
			if what := c.SDKChange(); what != "" {
				if strings.Contains(e.F.Command, "_EMULATOR_HOST=") || strings.Contains(c.Payload, "'demo-") || strings.Contains(c.Payload, `"demo-`) {
					return "" // FIREBASE_AUTH_EMULATOR_HOST=…, a demo- project: the emulator on this machine
				}
				return c.Name + " code changes " + what + " through the service's SDK"
			}
			return ""
		},
		[]string{`node -e "const a=require('firebase-admin');a.initializeApp();a.auth().setCustomUserClaims('uid1',{admin:true})"`,
			`python3 -c "import boto3; boto3.client('iam').attach_role_policy(RoleName='ci', PolicyArn='arn:aws:iam::aws:policy/AdministratorAccess')"`,
			`python -c "from databricks.sdk import WorkspaceClient; WorkspaceClient().grants.update('table','main.gold.x',changes=[])"`},
		[]string{`node -e "const a=require('firebase-admin');a.initializeApp();a.auth().getUser('uid1').then(u=>console.log(u.customClaims))"`,
			`python3 -c "import boto3; print(boto3.client('iam').list_attached_role_policies(RoleName='ci'))"`,
			`python -c "from databricks.sdk import WorkspaceClient; print(WorkspaceClient().grants.get('table','main.gold.x'))"`,
			`FIREBASE_AUTH_EMULATOR_HOST=localhost:9099 node -e "const a=require('firebase-admin');a.initializeApp({projectId:'demo-x'});a.auth().setCustomUserClaims('u',{admin:true})"`})
}
