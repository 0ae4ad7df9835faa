package callfacts

import "testing"

// A cloud CLI's operation is read by its structure: where the operation
// stands for the CLI, its verb's class, the CLI's own settings, secrets
// and states that end a resource, global options wherever they stand.
func TestCloudOp(t *testing.T) {
	for _, tc := range []struct{ cmd, verb, class string }{
		{"aws ec2 stop-instances --instance-ids i-1", "stop", "change"},
		{"aws ec2 --region eu-west-1 stop-instances --instance-ids i-1", "stop", "change"},
		{"aws --profile prod ec2 describe-instances", "describe", "read"},
		{"aws dynamodb batch-get-item --request-items file://k.json", "get", "read"},
		{"aws iot update-certificate --certificate-id x --new-status REVOKED", "update", "destroy"},
		{"aws iot update-certificate --certificate-id x --new-status INACTIVE", "update", "change"},
		{"aws secretsmanager get-secret-value --secret-id db", "get", "secret"},
		{"aws iam get-account-password-policy", "get", "read"},
		{"aws ssm get-parameter --name /db --with-decryption", "get", "secret"},
		{"aws rds create-db-snapshot --db-instance-identifier db --db-snapshot-identifier s", "create", "read"},
		{"aws eks update-kubeconfig --name prod", "update", "local"},
		{"aws configure set region eu-west-1", "set", "local"},
		{"gcloud kms keys versions disable 3 --key k", "disable", "change"},
		{"gcloud beta compute instances stop vm1", "stop", "change"},
		{"gcloud run services update svc", "update", "change"},
		{"gcloud secrets versions access latest --secret db", "access", "secret"},
		{"gcloud config set project p", "set", "local"},
		{"az vm deallocate -g rg -n vm", "deallocate", "change"},
		{"az deployment group what-if -g rg", "what-if", "read"},
		{"ibmcloud is instance-stop i1", "stop", "change"},
		{"tccli cvm TerminateInstances --InstanceIds x", "terminate", "destroy"},
		{"aliyun ecs DescribeInstances", "describe", "read"},
		{"netlify api deleteSite", "delete", "destroy"},
		{"particle flash --usb fw.bin", "flash", "local"},
	} {
		c := bash(tc.cmd).Commands[0]
		op := c.CloudOp()
		if op == nil {
			t.Errorf("%q: no operation read, want %s %s", tc.cmd, tc.verb, tc.class)
			continue
		}
		if op.Verb != tc.verb || op.Class != tc.class {
			t.Errorf("%q: read %s %s, want %s %s", tc.cmd, op.Verb, op.Class, tc.verb, tc.class)
		}
	}
	for _, cmd := range []string{"aws s3 cp a s3://b/a", "kubectl delete pod x", "aws", "hcloud server"} {
		if op := bash(cmd).Commands[0].CloudOp(); op != nil && op.Class != "" {
			t.Errorf("%q: read %s %s, want no operation", cmd, op.Verb, op.Class)
		}
	}
	if v := bash("aws iot create-job --targets arn:aws:iot:eu-west-1:1:thinggroup/all-devices").Commands[0].CloudFleetAll(); v == "" {
		t.Error("a job aimed at thinggroup/all-devices: no fleet-wide target read")
	}
	if v := bash("aws iot create-job --targets arn:aws:iot:eu-west-1:1:thinggroup/canary").Commands[0].CloudFleetAll(); v != "" {
		t.Errorf("a canary group read as the whole fleet: %q", v)
	}
}
