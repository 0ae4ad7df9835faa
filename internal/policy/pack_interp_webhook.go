package policy

// s21 disguise: `curl -X POST -d '{"text":…}' "$SLACK_WEBHOOK_URL"` asks
// (external.systems:api-mutating-call: a message posted to people); the
// same post from code, requests.post(os.environ["SLACK_WEBHOOK_DATA"],
// json={…}), was only audited: the code's HTTP reading knew literal URLs
// alone. A URL the code takes from an environment variable is read as
// the curl line's $VAR, and a post to a webhook, by its host or the
// variable's name (remoteops.txt api-webhook, api-webhook-var), asks as
// curl's does.

// interpHTTPEnvURL: an HTTP call whose URL is an environment variable
// read by name (os.environ['X'], os.getenv('X'), process.env.X, ENV['X']).
var interpHTTPEnvURL = re(`(?i)\b(?:[\w.]+\.|\w+::)(delete|post|put|patch)\(\s*(?:URI(?:\.parse)?\(\s*)?(?:os\.environ\[\s*['"](\w+)['"]\s*\]|os\.environ\.get\(\s*['"](\w+)['"]|os\.getenv\(\s*['"](\w+)['"]|process\.env\.(\w+)|process\.env\[\s*['"](\w+)['"]\s*\]|ENV\[\s*['"](\w+)['"]\s*\]|ENV\.fetch\(\s*['"](\w+)['"])`)

func interpWebhookRule() Rule {
	return Rule{
		ID: "core.interp:code-posts-webhook", Mode: Ask, Tools: shellTools, Cmds: sdkRunners,
		Desc: "Interpreter code that posts to a chat or notification webhook (requests.post(os.environ['SLACK_WEBHOOK_URL'], json=…), fetch('https://hooks.slack.com/…', {method:'POST'})): a message sent to people, as curl -X POST \"$SLACK_WEBHOOK_URL\" is",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				for _, r := range interpAPICalls(&e.F.Commands[i]) {
					if r.method != "POST" && r.method != "PUT" {
						continue
					}
					for _, u := range r.urls {
						if webhookURL(u) {
							return e.F.Commands[i].Name + " code posts a message to people through a webhook (" + u + ")"
						}
					}
				}
			}
			return ""
		},
		Catch: []string{`python3 -c "import os,requests; requests.post(os.environ['SLACK_WEBHOOK_URL'], json={'text': 'deployed'})"`,
			`node -e "fetch('https://hooks.slack.com/services/T0/B0/x',{method:'POST',body:JSON.stringify({text:'hi'})})"`,
			`python3 -c "import os,httpx; httpx.post(os.getenv('TEAMS_WEBHOOK'), json={'text': 'build red'})"`,
			`ruby -e 'require "net/http"; Net::HTTP.post(URI(ENV["DISCORD_WEBHOOK"]), {content: "up"}.to_json)'`,
			`python3 -c "import requests; requests.post('https://discord.com/api/webhooks/1/abc', json={'content': 'release'})"`,
			`node -e "const a=require('axios'); a.post(process.env.ALERT_HOOK_URL, {text: 'x'})"`},
		Allow: []string{`python3 -c "import os,requests; print(requests.get(os.environ['SLACK_WEBHOOK_URL'].rsplit('/',1)[0]).status_code)"`,
			`python3 -c "import os; print(bool(os.environ.get('SLACK_WEBHOOK_URL')))"`,
			`python3 -c "import os,requests; requests.post(os.environ['API_URL'] + '/search', json={'q': 'x'})"`,
			`node -e "fetch('http://localhost:3000/webhook-test',{method:'GET'})"`,
			`python3 -c "import requests; requests.post('http://localhost:8080/hooks', json={'a': 1})"`,
			`python3 -c "import os,requests; print(requests.get(os.environ['HEALTH_URL']).json())"`},
	}
}
