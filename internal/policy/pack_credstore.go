package policy

import (
	"maps"
	"slices"
	"strings"
	"sync"
)

// credStoreOps are credential stores' commands that destroy or dump what
// they hold: program → subcommand words (a word may be "sub opt": the
// subcommand with that option). Adding a store is a line here.
var credStoreOps = map[string][]string{
	"security":    {"delete-keychain", "delete-generic-password", "delete-internet-password", "delete-certificate", "delete-identity", "dump-keychain", "export", "find-generic-password Safe Storage"},
	"keytool":     {"-delete", "-changealias"},
	"secret-tool": {"clear"}, "pass": {"rm", "delete", "remove", "git push"}, "gopass": {"rm", "delete", "remove"},
	"gpg":  {"--delete-secret-keys", "--delete-secret-and-public-key", "--delete-secret-and-public-keys", "--delete-secret-key", "--export-secret-keys", "--export-secret-subkeys"},
	"gpg2": {"--delete-secret-keys", "--delete-secret-and-public-key", "--delete-secret-and-public-keys", "--delete-secret-key", "--export-secret-keys"},
	// hardware keys reset, signing keys scheduled for deletion: what they signed or decrypted is lost
	"gpg-connect-agent": {"delete_key"}, "ykman": {"piv reset", "openpgp reset", "fido reset", "oath reset", "otp delete"}, "gcloud": {"kms keys versions destroy"},
	"op": {"item delete", "vault delete", "document delete"}, "bw": {"delete"}, "lpass": {"rm"}, "keepassxc-cli": {"rm"},
	"ssh-add": {"-D"}, "keyring": {"del"}, "cmdkey": {"/delete"}, "vault": {"kv destroy", "kv metadata delete", "secrets disable", "token revoke"},
	"aws": {"secretsmanager delete-secret", "ssm delete-parameter", "ssm delete-parameters", "kms schedule-key-deletion"}, "gh": {"secret delete", "secret remove", "variable delete", "ssh-key delete", "gpg-key delete"},
	"glab": {"variable delete"}, "doppler": {"secrets delete"}, "infisical": {"secrets delete"},
	// d46: a cloud profile's keys kept in the OS keychain (aws-vault), a
	// Bitwarden client's entry: removed from the store, the only copy
	"aws-vault": {"remove", "rm"}, "rbw": {"remove", "rm"},
}

// credChangeOps change what a store holds, or log the user out: asked.
var credChangeOps = map[string][]string{
	"gh": {"auth logout", "auth refresh", "secret set", "ssh-key add"}, "glab": {"auth logout", "variable set"}, "aws": {"configure set"}, "gcloud": {"auth revoke", "config set account"},
	"docker": {"logout"}, "npm": {"logout", "token revoke", "token create"}, "ssh-copy-id": {""}, "ssh-keygen": {"-R"},
	"kubectl": {"config unset", "config delete-user", "config set-credentials"}, "firebase": {"logout"}, "heroku": {"auth:logout", "logout"},
	// platform CLIs' logouts, and a cluster's entries in the
	// kubeconfig replaced by a cloud CLI told to overwrite them (without
	// the switch az refuses a clash; the other clusters' entries stay, and
	// the replaced ones can be fetched again: ask, not the zone table's
	// deny for an overwritten credentials file)
	"sf": {"org logout", "logout"}, "sfdx": {"auth:logout", "force:auth:logout"}, "fly": {"auth logout"}, "flyctl": {"auth logout"}, "vercel": {"logout"},
	"netlify": {"logout"}, "wrangler": {"logout"}, "supabase": {"logout"}, "railway": {"logout"},
	"az": {"logout", "account clear", "aks get-credentials --overwrite-existing"},
	// an application's admin password reset or a user's
	// password changed by its admin tool (the old one stops working)
	"grafana-cli": {"admin reset-admin-password"},
	// d54: a password manager's entry written over (insert or generate
	// told to replace it: -f; without it the store refuses), edited or
	// renamed: the old secret is gone unless the store's history keeps
	// it; a new API token minted for a cloud CLI's profile
	"pass":   {"insert -f", "insert --force", "generate -f", "generate --force", "generate -i", "generate --in-place", "edit", "mv"},
	"gopass": {"insert -f", "insert --force", "generate -f", "generate --force", "edit", "mv", "move"},
	"rbw":    {"edit"}, "lpass": {"edit", "mv"}, "bw": {"edit"}, "keepassxc-cli": {"edit", "mv"},
	"op": {"item edit"}, "linode-cli": {"profile token-create", "profile token-delete"},
	// d46: the user's own GnuPG key changed: its expiry moved, a user id
	// added or revoked (what others see when they refresh the key)
	"gpg": {"--quick-set-expire", "--quick-add-uid", "--quick-revoke-uid", "--quick-set-primary-uid", "--quick-add-key", "--quick-revoke-sig"}, "rabbitmqctl": {"change_password", "clear_password"}, "gitlab-rake": {"gitlab:password:reset"},
}

// credStoreRules: keychains, password managers, GPG and CLI logins.
func credStoreRules() []Rule {
	match := func(ops map[string][]string) func(e *Env, c *Cmd) string {
		// each operation's words, split once on first use, not on every
		// command the rule meets
		split := sync.OnceValue(func() map[string][][]string {
			m := make(map[string][][]string, len(ops))
			for n, ws := range ops {
				for _, w := range ws {
					m[n] = append(m[n], strings.Fields(w))
				}
			}
			return m
		})
		return func(e *Env, c *Cmd) string {
			if cliAddrLocal(e.F.Command, c.Name) {
				return "" // VAULT_ADDR=http://127.0.0.1:8200: a dev server on this machine, not the user's store
			}
			if forgetsLocalHostKey(c) {
				return "" // ssh-keygen -R 10.0.0.5: a rebuilt machine of this network (pack_knownhosts.go)
			}
			words, fields := ops[c.Name], split()[c.Name]
			a := " " + strings.Join(c.Args, " ") + " "
			for k, w := range words {
				f := fields[k]
				if len(f) == 0 {
					return c.Name + " changes the user's credentials: " + c.String()
				}
				ok := true
				at := 0
				for _, x := range f {
					j := strings.Index(a[at:], " "+x+" ")
					if j < 0 && strings.HasPrefix(x, "-") {
						j = strings.Index(a[at:], " "+x+"=")
					}
					if j < 0 {
						ok = false
						break
					}
					at += j + len(x)
				}
				if ok {
					return c.Name + " " + w + " acts on the user's stored credentials: " + c.String()
				}
			}
			return ""
		}
	}
	names := func(ops map[string][]string) []string { return slices.Sorted(maps.Keys(ops)) }
	return []Rule{
		cmdRule("core.secrets:credential-store", Deny, "Destroying or dumping what a credential store holds: keychains (security delete-keychain, dump-keychain), secret-tool clear, pass/gopass/op/bw rm, gpg --delete-secret-keys or --export-secret-keys, ssh-add -D, vault kv destroy, cloud and forge secrets deleted", names(credStoreOps),
			match(credStoreOps),
			[]string{"security delete-keychain ~/Library/Keychains/login.keychain-db", "security delete-generic-password -s github.com", "secret-tool clear service github", "pass rm -rf email",
				"gpg --batch --yes --delete-secret-keys ABCD1234EF567890", "gpg --export-secret-keys --armor > keys.asc", "security dump-keychain -d login.keychain > /tmp/k.txt", "gh secret delete PROD_TOKEN", "security find-generic-password -wa 'Chrome Safe Storage'", "keytool -delete -alias release -keystore ~/keys/release.jks",
				"gpg --batch --yes --delete-secret-and-public-keys 5A7F3C1E9B2D4F60A1C3E5B7D9F1A3C5E7B9D1F3", "ykman piv reset -f"},
			[]string{"security find-certificate -a", "pass ls", "gpg --list-keys", "gpg --verify x.asc x", "secret-tool search service github", "gh secret list", "ssh-add -l", "op item list"}),
		cmdRule("core.secrets:credential-change", Ask, "Logging the user out of a CLI, revoking or minting its tokens, adding keys to hosts or changing stored credentials (gh auth logout, aws configure set, ssh-copy-id, kubectl config unset users, npm token create)", names(credChangeOps),
			match(credChangeOps),
			[]string{"gh auth logout --hostname github.com", "aws configure set aws_secret_access_key AKIAFAKE --profile default", "ssh-copy-id -i ~/.ssh/id_ed25519.pub user@new-host", "kubectl config unset users", "docker logout"},
			[]string{"gh auth status", "aws configure list", "kubectl config view", "npm whoami", "gcloud auth list"}),
	}
}
