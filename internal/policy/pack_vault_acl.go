package policy

import (
	"strings"
)

// An access policy that grants everything: a Vault ACL policy whose path
// is "*" (every secret, every mount, the system backend), or that gives
// sudo on sys/, is root in all but name. Written through vault policy
// write (from a here-document, an echo piped in, a file the line writes)
// or vault write sys/policy/NAME policy=…, whoever holds a token with it
// reads and changes every secret. A narrower policy written asks (the
// identity table, callfacts/identity.txt).

var vaultAdminPolicy = re(`path\s+"\*"\s*\{|path\s+"sys/\*?"\s*\{[^}]*"sudo"|path\s+"\+/\*"\s*\{`)

// vaultAdminPolicyRule: vault policy write / vault write sys/policy with a
// policy text, shown on the line, that grants every path.
func vaultAdminPolicyRule() Rule {
	return cmdRule("external.systems:vault-admin-policy", Deny, `Writing a Vault ACL policy that grants every path (path "*", sudo on sys/*): a token with it reads and changes every secret`, []string{"vault", "bao"},
		func(e *Env, c *Cmd) string {
			writes := sub(c) == "policy" && c.Sub(1) == "write" || sub(c) == "write" && (strings.HasPrefix(c.Sub(1), "sys/policy/") || strings.HasPrefix(c.Sub(1), "sys/policies/acl/"))
			if !writes || onlyHelp(c) {
				return ""
			}
			// the policy's text: a here-document or what is piped in, the
			// arguments (policy=…), or a file the line itself writes
			text := c.Heredoc + "\n" + strings.Join(c.Args, " ")
			if len(e.F.Commands) > 1 {
				text += "\n" + e.F.Command
			}
			if vaultAdminPolicy.MatchString(text) {
				return c.Name + " writes an access policy that grants every path: " + c.String()
			}
			return ""
		},
		[]string{"vault policy write admin - <<'EOF'\npath \"*\" {\n  capabilities = [\"create\", \"read\", \"update\", \"delete\", \"list\", \"sudo\"]\n}\nEOF",
			`echo 'path "*" { capabilities = ["read","list"] }' | vault policy write all -`,
			`vault write sys/policy/ops policy='path "sys/*" { capabilities = ["sudo","update"] }'`},
		[]string{"vault policy write app-read - <<'EOF'\npath \"secret/data/app/*\" {\n  capabilities = [\"read\"]\n}\nEOF", "vault policy read admin", "vault policy list"})
}
