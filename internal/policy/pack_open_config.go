package policy

import (
	"maps"
	"slices"
	"strings"
)

// openConfigRules: what a line writes, then publishes. Access rules, bucket
// policies and bindings written by the line (a here-document, echo > f)
// and deployed or applied by the same line are judged by what they open:
// a Firestore rule `allow read, write: if true`, a Realtime Database
// `".read": true`, a bucket policy for Principal "*", a binding for
// allUsers or system:anonymous opens the data to everyone — denied, as
// the same change typed inline is (external.systems:make-public).
func openConfigRules() []Rule {
	return []Rule{openConfigPublishRule()}
}

// openAccess matches text that grants everyone access: Firebase rules
// with no condition or `if true`, RTDB rules set to true, a policy
// statement whose principal is anyone, GCP's allUsers members, the
// Kubernetes anonymous user or group.
var openAccess = re(`(?is)\ballow\s+(?:read|write|get|list|create|update|delete)(?:\s*,\s*(?:read|write|get|list|create|update|delete))*\s*(?::\s*if\s+true\s*)?;` +
	`|"\.(?:read|write)"\s*:\s*(?:true|"true")` +
	`|"principal"\s*:\s*(?:"\*"|\{\s*"aws"\s*:\s*(?:"\*"|\[\s*"\*"\s*\])\s*\})` +
	`|\ballusers\b|\ballauthenticatedusers\b|system:anonymous|system:unauthenticated`)

// policySetters are the subcommand words that install an access policy
// or rules file besides a deploy (deployRule's words).
var policySetters = map[string]bool{"put-bucket-policy": true, "put-bucket-acl": true, "put-object-acl": true, "set-iam-policy": true,
	"put-role-policy": true, "put-user-policy": true, "put-group-policy": true, "create-policy-version": true, "put-resource-policy": true,
	"set-queue-attributes": true, "set-topic-attributes": true, "add-permission": true, "set-json": true, "set": true, "write": true, "push": true}

// policyTools are the programs whose policySetters words install a policy.
var policyTools = map[string]bool{"aws": true, "gsutil": true, "gcloud": true, "mc": true, "vault": true, "supabase": true, "az": true}

func openConfigPublishRule() Rule {
	return Rule{
		ID: "external.systems:open-config-published", Mode: Deny, Tools: shellTools, Cmds: openConfigTools(),
		Desc: "Access rules or a policy the line writes that open data to everyone (Firestore `allow read, write: if true`, RTDB \".read\": true, a bucket policy for Principal \"*\", allUsers), then deployed or applied by the same line (firebase deploy --only firestore:rules, aws s3api put-bucket-policy --policy file://p.json, kubectl apply -f)",
		Match: func(e *Env) string {
			written := ""
			for i := range e.F.Commands {
				if h := e.F.Commands[i].Heredoc; h != "" {
					written += h + "\n"
				}
			}
			for _, p := range e.F.Paths {
				if p.Op == "write" && (p.Via == ">" || p.Via == ">>" || p.Via == "tee") {
					written += e.F.Command // echo '…' > f: the line's own text
					break
				}
			}
			if written == "" {
				return ""
			}
			m := openAccess.FindString(written)
			if m == "" {
				return ""
			}
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if e.dryRun(c) || onlyHelp(c) || e.localOnly(i) || c.Name == "echo" || c.Name == "printf" || c.Name == "cat" || c.Name == "tee" {
					continue
				}
				if publishesConfig(c) {
					return "the line writes access rules that open data to everyone (" + strings.Join(strings.Fields(m), " ") + ") and " + c.Name + " publishes them: " + c.String()
				}
			}
			return ""
		},
		Catch: []string{"cat > firestore.rules <<'EOF'\nservice cloud.firestore {\n  match /databases/{database}/documents {\n    match /{document=**} {\n      allow read, write: if true;\n    }\n  }\n}\nEOF\nfirebase deploy --only firestore:rules --project app-prod",
			`echo '{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::data/*"}]}' > /tmp/p.json && aws s3api put-bucket-policy --bucket data --policy file:///tmp/p.json`,
			`echo '{"rules":{".read":true,".write":true}}' > database.rules.json && firebase deploy --only database`},
		Allow: []string{"cat > firestore.rules <<'EOF'\nservice cloud.firestore {\n  match /{document=**} {\n    allow read, write: if request.auth != null;\n  }\n}\nEOF\nfirebase deploy --only firestore:rules --project app-prod",
			"cat > firestore.rules <<'EOF'\nallow read, write: if true;\nEOF\nfirebase emulators:start --only firestore",
			`echo '{"Statement":[{"Effect":"Allow","Principal":"*"}]}' > /tmp/p.json && cat /tmp/p.json`},
	}
}

// publishesConfig: c deploys or applies (deployRule's words) or installs
// a policy (policySetters of policyTools).
func publishesConfig(c *Cmd) bool {
	s := fannedSub(c)
	for _, x := range deployWords[c.Name] {
		if s == x {
			return true
		}
	}
	if !policyTools[c.Name] {
		return false
	}
	for _, p := range cloudWords(c.Pos) {
		if policySetters[strings.ToLower(p)] {
			return true
		}
	}
	return false
}

// openConfigTools are the programs publishesConfig knows.
func openConfigTools() []string {
	return slices.Sorted(maps.Keys(func() map[string]bool {
		m := maps.Clone(policyTools)
		for _, t := range deployTools {
			m[t] = true
		}
		return m
	}()))
}
