package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Sharing data and models, and switching protections off: an upload of a
// model, data set or notebook to a hub (huggingface-cli upload, kaggle
// datasets version, wandb artifact put), or a build's publish task
// (gradle publish…, closeAndRelease…), puts it where others take it and
// asks; switching off a remote resource's deletion protection is denied.
// The programs' words are data (callfacts/remote.txt upload, unprotect).

// gradlePublishes: a Gradle task that publishes to a remote repository
// (publish, publishAllPublicationsToSonatypeRepository, closeAndRelease…,
// publishPlugins); publishing to Maven Local stays on this machine.
func gradlePublishes(c *Cmd) string {
	for _, p := range c.Pos {
		l := strings.ToLower(p[strings.LastIndexByte(p, ':')+1:])
		if strings.HasSuffix(l, "mavenlocal") {
			continue
		}
		if strings.HasPrefix(l, "publish") || strings.HasPrefix(l, "closeandrelease") || strings.HasPrefix(l, "releaserepository") || l == "uploadarchives" || strings.HasPrefix(l, "bintrayupload") {
			return p
		}
	}
	return ""
}

func shareRules() []Rule {
	kindRule := func(id string, mode Mode, kind, desc, what string, catch, allow []string) Rule {
		return cmdRuleIf(id, mode, desc, callfacts.RemoteActionTools(),
			func(e *Env, c *Cmd) bool { return e.remoteAction(c) == kind },
			func(e *Env, c *Cmd) string {
				if e.remoteAction(c) == kind && !(kind == "change" && devServerOperand(c)) {
					return c.Name + " " + what + ": " + c.String()
				}
				return ""
			}, catch, allow)
	}
	return []Rule{
		copyOverProdRule(),
		kindRule("external.systems:share-upload", Ask, "upload", "Uploading a model, data set or notebook to a hub others read (huggingface-cli upload, kaggle datasets version, wandb artifact put, ollama push); the list is data (callfacts/remote.txt upload)",
			"shares data or a model where others take it",
			[]string{"huggingface-cli upload acme/internal-ranker ./checkpoints --repo-type model", "hf upload acme/data ./data --repo-type dataset", "kaggle datasets version -p ./out -m 'v2'", "wandb artifact put --name team/proj/ds ./data", "ollama push me/model"},
			[]string{"huggingface-cli download acme/ranker", "huggingface-cli whoami", "kaggle datasets list", "wandb artifact get team/proj/ds:latest", "ollama pull llama3"}),
		kindRule("external.systems:unprotect", Deny, "unprotect", "Switching off a remote resource's deletion or termination protection (--no-deletion-protection-enabled, --no-disable-api-termination, bucket versioning suspended, az lock delete): the next mistake cannot be undone; the list is data (callfacts/remote.txt unprotect)",
			"switches off a protection against deletion",
			[]string{"aws dynamodb update-table --table-name Orders --no-deletion-protection-enabled", "aws rds modify-db-instance --db-instance-identifier prod --no-deletion-protection --apply-immediately", "gcloud sql instances patch prod-pg --no-deletion-protection", "aws s3api put-bucket-versioning --bucket b --versioning-configuration Status=Suspended"},
			[]string{"aws dynamodb update-table --table-name Orders --deletion-protection-enabled", "aws rds modify-db-instance --db-instance-identifier prod --deletion-protection", "gcloud sql instances describe prod-pg", "aws s3api get-bucket-versioning --bucket b"}),
		kindRule("external.systems:notify", Ask, "notify", "Sending a message to people through a service (aws ses send-email, aws sns publish, gcloud pubsub topics publish, twilio messages:create); the list is data (callfacts/remote.txt notify)",
			"sends a message to people",
			[]string{"aws ses send-email --from a@x.com --destination ToAddresses=b@y.com --message 'Subject={Data=hi},Body={Text={Data=x}}'", "aws sns publish --topic-arn arn:aws:sns:us-east-1:1:alerts --message test", "gcloud pubsub topics publish orders --message '{}'", "twilio api:core:messages:create --to +15551234567 --from +15557654321 --body hi"},
			[]string{"aws ses list-identities", "aws sns list-topics", "gcloud pubsub topics list", "twilio api:core:messages:list"}),
		kindRule("external.systems:remote-change", Ask, "change", "Changing a shared service's settings or secrets (gh secret set, gh variable set, glab variable set, gh repo rename): what others' builds and runs read; the list is data (callfacts/remote.txt change)",
			"changes a shared service's settings or secrets",
			[]string{"gh secret set NPM_TOKEN < token.txt", "gh variable set DEPLOY_ENV --body prod", "glab variable set AWS_KEY value", "gh repo rename api-v2"},
			[]string{"gh secret list", "gh variable list", "glab variable list", "gh repo view"}),
		cmdRule("external.systems:gradle-publish", Ask, "A Gradle publish task (publish, publishAllPublicationsTo…Repository, closeAndReleaseSonatypeStagingRepository, publishPlugins): the artifacts go to a remote repository others use; publishToMavenLocal stays here", []string{"gradle", "gradlew"},
			func(e *Env, c *Cmd) string {
				if t := gradlePublishes(c); t != "" && !c.Has("--dry-run", "-m") {
					return c.Name + " " + t + " publishes to a remote repository: " + c.String()
				}
				return ""
			},
			[]string{"./gradlew publishAllPublicationsToSonatypeRepository closeAndReleaseSonatypeStagingRepository", "gradle publish", "./gradlew :lib:publishMavenPublicationToGitHubPackagesRepository", "./gradlew publishPlugins"},
			[]string{"./gradlew publishToMavenLocal", "./gradlew build", "gradle publish --dry-run", "./gradlew :lib:publishMavenPublicationToMavenLocal"}),
	}
}

// devServerOperand: the last operand of a listed change — the queue
// manager, server or instance it acts on (amqsput BSM.IN QM_DEV_LOCAL) —
// is named for development or tests and for this machine (local), and
// nothing on the command names production (devObject), and the change is not to a secret, variable or
// setting a shared service keeps (gh secret set DEV_TOKEN still asks).
func devServerOperand(c *Cmd) bool {
	for _, a := range c.Args {
		switch strings.ToLower(a) {
		case "secret", "secrets", "variable", "variables", "var", "env", "token", "config", "settings", "key", "keys":
			return false
		}
	}
	if !devObject(c) {
		return false
	}
	// the operand also says local (QM_DEV_LOCAL): a dev or test word alone
	// also names shared lists, printers' test files and CI users
	// (mailman create dev@…, ipptool … cancel-jobs.test, nsc add user ci)
	for _, w := range strings.FieldsFunc(strings.ToLower(c.Pos[len(c.Pos)-1]), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if w == "local" || w == "localhost" {
			return true
		}
	}
	return false
}
