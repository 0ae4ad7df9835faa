package policy

import "strings"

// A secret posted to a chat webhook is a secret told to people: the
// message lands in a channel (Slack, Teams, Discord, Google Chat, a
// $…_WEBHOOK_URL), is kept in its history and its search, and reaches
// whoever reads the channel, its integrations and its exports. The
// webhook's own URL carries no secret of the sender's to its own service
// (the send rules treat a URL held in a variable as a host they cannot
// judge), so the body is read here: a variable named as a secret in the
// message (a token, a password, a key) sends that secret to the
// network, which the product denies. A length (${#T}), a prefix
// (${T:0:4}) or a test that it is set (${T:+set}) tells nothing of it.
func secretWebhookRule() Rule {
	return cmdRule("core.secrets:secret-to-webhook", Deny, "A variable named as a secret ($…_TOKEN, $…_PASSWORD, $…_API_KEY) in the message an HTTP client posts to a chat webhook (hooks.slack.com, a Teams or Discord webhook, $SLACK_WEBHOOK_URL): the secret is written into a channel people and integrations read, and kept there", httpClients,
		func(e *Env, c *Cmd) string {
			parts := e.requestParts(c)
			hook := ""
			for _, p := range parts {
				if p.kind == "url" && webhookURL(p.val) {
					hook = p.val
					break
				}
			}
			if hook == "" {
				return ""
			}
			for _, p := range parts {
				if p.kind == "url" || p.kind == "header" || p.kind == "auth" {
					continue
				}
				for _, m := range wholeVar.FindAllStringSubmatch(p.val, 8) {
					if n := m[1] + m[2]; secretName(n) && !webhookVar(n) {
						return c.Name + " posts $" + n + " in a message to the webhook " + hook + ": the secret is written into a channel others read"
					}
				}
			}
			return ""
		},
		[]string{
			`curl -X POST -H 'Content-type: application/json' --data "{\"text\":\"staging db password: $STAGING_DB_PASSWORD\"}" https://hooks.slack.com/services/T0/B0/XX`,
			`curl -s -d "{\"content\":\"new key $STRIPE_SECRET_KEY\"}" -H 'Content-Type: application/json' "$DISCORD_WEBHOOK_URL"`,
			`curl -H 'Content-Type: application/json' -d "{\"text\":\"token=${NPM_TOKEN}\"}" "$TEAMS_WEBHOOK"`,
			`http POST "$SLACK_WEBHOOK_URL" text="deploy key: $DEPLOY_API_KEY"`,
			`wget --post-data "{\"text\":\"$SENTRY_AUTH_TOKEN\"}" https://chat.googleapis.com/v1/spaces/AAA/messages?key=k`,
			`curl --json "{\"text\":\"rotated: $GRAFANA_ADMIN_PASSWORD\"}" https://outlook.office.com/webhook/abc`,
		},
		[]string{
			`curl -X POST -H 'Content-type: application/json' --data '{"text":"deploy done"}' "$SLACK_WEBHOOK_URL"`,
			`curl -d "{\"text\":\"build $CI_PIPELINE_ID passed on $CI_COMMIT_REF_NAME\"}" "$SLACK_WEBHOOK_URL"`,
			`curl -d "{\"text\":\"token ends ${NPM_TOKEN: -4}, length ${#NPM_TOKEN}\"}" "$SLACK_WEBHOOK_URL"`,
			`curl -d "{\"text\":\"the NPM_TOKEN was rotated\"}" https://hooks.slack.com/services/T0/B0/XX`,
			`curl -H "Authorization: Bearer $SLACK_BOT_TOKEN" -d text=hi https://slack.com/api/chat.postMessage`,
			`curl -d "{\"text\":\"$STAGING_DB_PASSWORD\"}" https://api.example.com/v1/notes`,
		})
}

// wholeVar: a variable expanded whole ($NAME, ${NAME}, ${NAME:-x}); not
// its length (${#NAME}), a slice (${NAME:0:4}) nor a test (${NAME:+x}).
var wholeVar = re(`\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)(?:\}|:-|-))`)

// webhookVar: the variable is the webhook's own address, not a secret
// told in the message.
func webhookVar(n string) bool {
	u := strings.ToUpper(n)
	return strings.Contains(u, "WEBHOOK") || strings.HasSuffix(u, "HOOK_URL")
}
