package policy

import (
	"fmt"
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Secrets printed into the conversation: a tool's credentials file read
// to the screen (cat ~/.cache/huggingface/token, grep token
// ~/.config/rclone/rclone.conf). An environment dump filtered for a
// provider's variables (env | grep -i 'hf_|wandb') is
// core.local:env-secret-grep, its provider words data here
// (policy/remoteops.txt env-provider-words). Sending them anywhere is denied by
// the exfil rules; here the user is asked, since the transcript keeps them.

// credentialNotSecret: files in credential directories that hold no
// secret (ssh's config, known hosts, public keys).
func credentialNotSecret(p string) bool {
	b := path.Base(p)
	return strings.HasSuffix(b, ".pub") || b == "config" && strings.HasSuffix(path.Dir(p), "/.ssh") || b == "known_hosts" || b == "known_hosts.old" || b == "authorized_keys"
}

func net3SecretRules() []Rule {
	return []Rule{
		{
			ID: "core.secrets:print-credential-file", Mode: Ask, Tools: shellTools,
			Desc: "Reading a tool's credentials file into the conversation (cat ~/.cache/huggingface/token, grep token ~/.config/rclone/rclone.conf, cat ~/.kaggle/kaggle.json): the transcript keeps the token; listing, public keys and ssh's config stay allowed",
			Match: func(e *Env) string {
				for _, p := range e.F.Paths {
					if p.Op != OpRead || !strings.HasPrefix(p.Path, e.F.Home+"/") || listing[p.Via] || p.Via == "source" || p.Via == "." || credentialNotSecret(p.Path) {
						continue
					}
					if callfacts.ZoneOf(p.Path, e.F.Home, e.F.Project) != callfacts.ZoneCredentials {
						continue
					}
					if generatesKeys(e, p.Via) || usesSecretQuietly(e, p.Via) || reducedOutput(e, p.Via) {
						continue
					}
					return fmt.Sprintf("%s reads %s, a credentials file, into the conversation", p.Via, homeRel(p.Path, e.F.Home))
				}
				return ""
			},
			Catch: []string{"cat ~/.cache/huggingface/token", "grep -r 'token' ~/.config/rclone/rclone.conf", "cat ~/.kaggle/kaggle.json", "head -3 ~/.config/gh/hosts.yml", "less ~/.s3cfg"},
			Allow: []string{"ls ~/.cache/huggingface", "cat ~/.ssh/config", "cat ~/.ssh/id_ed25519.pub", "cat ~/.cache/huggingface/hub/version.txt", "grep -c token ~/.config/rclone/rclone.conf", "cat ~/.config/rclone/README.md"},
		},
	}
}

// envProviderWord: a filter's pattern names an API provider's variables
// (HF_TOKEN, WANDB_API_KEY, OPENAI_API_KEY; policy/remoteops.txt
// env-provider-words): what it prints are those credentials.
func envProviderWord(a string) bool {
	l := strings.ToLower(a)
	for w := range opsList("env-provider-words") {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}
