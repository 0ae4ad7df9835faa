package policy

import "strings"

// Security rules opened to everyone, then deployed. A platform's
// own access rules — Firestore and Storage rules, the Realtime
// Database's .read/.write — written on the line to allow every reader or
// writer (allow read, write: if true; ".read": true) and deployed in the
// same line put the project's data on the public internet: the rules
// are the only lock. The emulator's demo- projects are spared.

// openRule matches a rule that admits anyone.
var openRule = re(`(?i)allow\s+[\w\s,]*\b(read|write|get|list)\b[\w\s,]*(:\s*if\s+true\b|;)|["']\.(read|write)["']\s*:\s*(true|"true")`)

func openRulesDeployRule() Rule {
	return cmdRule("external.systems:open-rules-deploy", Deny, "Security rules written on the line to admit anyone (Firestore/Storage allow read, write: if true; Realtime Database \".read\": true) and deployed with them (firebase deploy): the project's data is open to the internet; an emulator's demo- project is spared", []string{"firebase"},
		func(e *Env, c *Cmd) string {
			if sub(c) != "deploy" || onlyHelp(c) || e.dryRun(c) {
				return ""
			}
			only := strings.ToLower(optValue(c, "--only"))
			if only != "" && !strings.Contains(only, "rules") && !strings.Contains(only, "firestore") && !strings.Contains(only, "storage") && !strings.Contains(only, "database") {
				return "" // --only hosting,functions: no rules go
			}
			if strings.HasPrefix(optValue(c, "--project"), "demo-") || strings.HasPrefix(optValue(c, "-P"), "demo-") {
				return ""
			}
			if m := openRule.FindString(e.F.Command); m != "" {
				return "firebase deploys rules that admit anyone (" + strings.TrimSpace(m) + "): " + short80(c.String())
			}
			return ""
		},
		[]string{"cat > firestore.rules <<'EOF'\nservice cloud.firestore {\n  match /databases/{database}/documents {\n    match /{document=**} {\n      allow read, write: if true;\n    }\n  }\n}\nEOF\nfirebase deploy --only firestore:rules --project shop-prod",
			`echo '{"rules": {".read": true, ".write": true}}' > database.rules.json && firebase deploy --only database`,
			"printf 'service firebase.storage { match /b/{bucket}/o { match /{p=**} { allow read; } } }' > storage.rules && firebase deploy"},
		[]string{"cat > firestore.rules <<'EOF'\nservice cloud.firestore {\n  match /databases/{database}/documents {\n    match /{document=**} {\n      allow read, write: if request.auth != null;\n    }\n  }\n}\nEOF\nfirebase deploy --only firestore:rules --project shop-prod",
			"firebase deploy --only hosting", `echo '{"rules": {".read": true}}' > database.rules.json && firebase deploy --only database --project demo-x`})
}
