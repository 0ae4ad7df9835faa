package policy

import "path"

// An application's console asked to print a secret of the app's
// configuration: php artisan tinker --execute="echo
// config('services.stripe.secret');", rails runner 'puts
// Rails.application.credentials.…', python manage.py shell -c
// "print(settings.SECRET_KEY)", mix run -e 'IO.puts
// Application.get_env(…)': the transcript keeps the key. Printing a
// non-secret setting (config('app.name'), settings.DEBUG) stays allowed.

// consolePrints: code that writes a value out.
var consolePrints = re(`(?i)\b(echo|print|printf|puts|p|pp|dump|dd|var_dump|var_export|print_r|IO\.puts|IO\.inspect|console\.log|Logger\.info|pprint|inspect)\b\s*\(?`)

// consoleSecretRef: the app's configuration or environment read for a
// secret (a key, token, password, credentials, a database URL).
var consoleSecretRef = re(`(?i)(config|env|getenv|get_env|fetch_env!?|settings|credentials|ENV|environ|secrets)\b[^;\n]{0,80}?(secret|passw|token|api_?key|private_?key|credential|app\.key|\bkey\b|_key\b|database_url|dsn)|Rails\.application\.(credentials|secrets|secret_key_base)|settings\.SECRET_KEY|\bSECRET_KEY_BASE\b`)

func appConsoleSecretText(c *Cmd) string {
	if text, ok := appShellText(c); ok {
		return text
	}
	if c.Name == "mix" && len(c.Pos) > 0 && path.Base(c.Pos[0]) == "run" {
		return optValue(c, "-e") + optValue(c, "--eval")
	}
	return ""
}

func appConsoleSecretRule() Rule {
	return cmdRule("external.systems:app-console-secret", Ask, "An application's console told to print a secret of its configuration (php artisan tinker --execute=\"echo config('services.stripe.secret');\", rails runner 'puts Rails.application.credentials.secret_key_base', python manage.py shell -c 'print(settings.SECRET_KEY)', mix run -e 'IO.puts Application.get_env(:app, :stripe_secret)'): the transcript keeps it",
		[]string{"php", "rails", "gitlab-rails", "python", "python3", "manage.py", "mix", "odoo", "odoo-bin", "flask"},
		func(e *Env, c *Cmd) string {
			text := appConsoleSecretText(c)
			if text == "" || onlyHelp(c) || !consolePrints.MatchString(text) || !consoleSecretRef.MatchString(text) {
				return ""
			}
			return c.Name + " prints a secret of the app's configuration into the conversation: " + short(text)
		},
		[]string{`php artisan tinker --execute="echo config('services.stripe.secret');"`, `rails runner 'puts Rails.application.credentials.secret_key_base'`,
			`python manage.py shell -c "from django.conf import settings; print(settings.SECRET_KEY)"`, `mix run -e 'IO.puts Application.get_env(:my_app, :stripe_secret)'`},
		[]string{`php artisan tinker --execute="echo config('app.name');"`, `rails runner 'puts User.count'`, `python manage.py shell -c "from django.conf import settings; print(settings.DEBUG)"`, `mix run -e 'IO.puts Application.get_env(:my_app, :port)'`})
}
