package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A container given the user's credentials: a credentials folder or file
// (~/.config/solana, ~/.aws, ~/.ssh, ~/.kube/config) mounted into an
// image from a publisher nobody vetted. The image's code holds the keys
// from then on: a wallet emptied, a cloud account used. The official
// image of the tool that owns the credentials (amazon/aws-cli with
// ~/.aws, google/cloud-sdk with ~/.config/gcloud, solanalabs/solana with
// ~/.config/solana), an image of a known publisher (policy/remoteops.txt
// image-known) or an official library image (ubuntu, node) is the
// ordinary way to run the tool, and stays allowed.

// credToolWords: words of a credential's folder that name the tool owning
// it, and other names its publisher's images go by.
var credToolWords = map[string][]string{"aws": {"amazon", "aws"}, "gcloud": {"google", "gcloud", "cloud-sdk"}, "azure": {"microsoft", "azure", "mcr"},
	"kube": {"kube", "k8s", "bitnami", "rancher"}, "gh": {"github", "cli/cli"}, "docker": {"docker"}, "gnupg": {"gpg", "gnupg"}, "ssh": {"ssh", "git"}}

// mountedCredential: the credential path a -v/--volume/--mount value
// mounts, "" for none.
func mountedCredential(e *Env, c *Cmd, v string) string {
	src := v
	if strings.Contains(v, "source=") || strings.Contains(v, "src=") {
		for _, kv := range strings.Split(v, ",") {
			if k, x, ok := strings.Cut(kv, "="); ok && (k == "source" || k == "src") {
				src = x
			}
		}
	} else if i := strings.IndexByte(v, ':'); i > 0 {
		src = v[:i]
	} else {
		return "" // a named or anonymous volume
	}
	if !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, "~") && !strings.HasPrefix(src, "$") && !strings.HasPrefix(src, ".") {
		return "" // a named volume
	}
	p := e.abs(c, src)
	if callfacts.ZoneOf(p, e.F.Home, e.F.Project) == callfacts.ZoneCredentials || secretPath(p, e.F.Home) {
		return p
	}
	return ""
}

// envCredential: the secret variable an -e/--env value passes from the
// user's environment ("" for none): NAME=$NAME or NAME alone (passed
// through) with a secret's name.
func envCredential(v string) string {
	name, val, hasVal := strings.Cut(v, "=")
	if !secretName(name) || hasVal && !strings.HasPrefix(val, "$") {
		return "" // a literal the line shows (POSTGRES_PASSWORD=test) is no one's credential
	}
	return "$" + name
}

// imageOwnsCredential: image is the official image of the tool whose
// credentials live at p (its folder's tool word in the image's name).
func imageOwnsCredential(image, p, home string) bool {
	img := strings.ToLower(image)
	rel := strings.TrimPrefix(strings.TrimPrefix(p, home), "/")
	for _, part := range strings.Split(rel, "/") {
		w := strings.TrimPrefix(strings.ToLower(part), ".")
		if w == "" || w == "config" || w == "local" || w == "share" {
			continue
		}
		if strings.Contains(img, w) {
			return true // solanalabs/solana with ~/.config/solana
		}
		for k, alts := range credToolWords {
			if strings.HasPrefix(w, k) {
				for _, a := range alts {
					if strings.Contains(img, a) {
						return true
					}
				}
			}
		}
	}
	return false
}

// libraryImage: an official image of Docker Hub's library (ubuntu:22.04,
// node:20, docker.io/library/python).
func libraryImage(image string) bool {
	image = strings.TrimPrefix(strings.TrimPrefix(image, "docker.io/"), "library/")
	return !strings.Contains(image, "/")
}

// containerCredentialRules: credentials mounted or passed into a
// container image from a publisher nobody vetted
// (core.secrets:container-credentials).
func containerCredentialRules() []Rule {
	return []Rule{
		cmdRule("core.secrets:container-credentials", Deny, "A credentials folder or file mounted, or a secret variable or environment file passed, into a container image from a publisher nobody vetted (-e AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY, docker run -v ~/.config/solana:/keys ghcr.io/someone/sniper, -v ~/.aws:/root/.aws randomdev/s3-tool): the image's code holds the keys; the tool's own official image, a known publisher's (policy/remoteops.txt image-known) or a library image stays allowed", []string{"docker", "podman", "nerdctl", "finch"},
			func(e *Env, c *Cmd) string {
				if c.Sub(0) != "run" && c.Sub(0) != "create" && !(c.Sub(0) == "container" && (c.Sub(1) == "run" || c.Sub(1) == "create")) {
					return ""
				}
				cred := ""
				image := dockerRunOptions(c, func(k, v string) {
					if cred != "" {
						return
					}
					switch k {
					case "-v", "--volume", "--mount":
						cred = mountedCredential(e, c, v)
					case "-e", "--env":
						cred = envCredential(v)
					case "--env-file":
						if p := e.abs(c, v); secretPath(p, e.F.Home) {
							cred = p
						}
					}
				})
				if cred == "" || image == "" || imageKnown(image) || libraryImage(image) || imageOwnsCredential(image, cred, e.F.Home) {
					return ""
				}
				return c.Name + " gives " + homeRel(cred, e.F.Home) + ", credentials, to the image " + image + " of a publisher nobody vetted: " + c.String()
			},
			[]string{"docker run --rm -v ~/.config/solana:/keys ghcr.io/sol-snipe-bot/sniper:latest --keypair /keys/id.json", "docker run -e AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY someone/img", "docker run --env-file .env ghcr.io/x1/sync-bot", "docker run --rm -v ~/.aws:/root/.aws randomdev/s3-tool sync", "podman run -v $HOME/.ssh:/root/.ssh:ro someone/deployer",
				"docker run --mount type=bind,source=/home/dev/.kube/config,target=/kc ghcr.io/x1/cluster-helper", "docker run -v ~/.gnupg:/gpg quay.io/anon/signer"},
			[]string{"docker run --rm -v ~/.aws:/root/.aws amazon/aws-cli s3 ls", "docker run --rm -v ~/.config/gcloud:/root/.config/gcloud google/cloud-sdk gcloud auth list", "docker run --rm -v ~/.config/solana:/root/.config/solana solanalabs/solana solana balance",
				"docker run --rm -v ~/.kube:/root/.kube bitnami/kubectl get pods", "docker run --rm -v \"$PWD\":/app -w /app node:20 npm test", "docker run --rm -v ~/.ssh:/root/.ssh:ro ubuntu:22.04 ls /root/.ssh", "docker run --rm -v ~/projects:/work someone/tool", "docker run -e AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY amazon/aws-cli s3 ls", "docker run -e LOG_LEVEL=debug someone/img", "docker run -e DB_PASSWORD=test someorg/app", "docker run --env-file .env.example someone/img"}),
	}
}
