package policy

import (
	"path"
	"strings"
)

// An application's own console run with code as text — rails runner
// 'User.delete_all', python manage.py shell -c '…', php artisan tinker
// --execute '…', odoo-bin shell -d DB <<EOF … EOF — runs that code
// against the database the app is configured for. Code that deletes,
// destroys, rewrites records or commits its changes is judged by the
// environment the line names: production (-d acme_prod, RAILS_ENV=
// production, --settings=…prod) → deny; a dev or test one → allowed;
// nothing named → ask. A script fed on the input the line does not
// show asks when it runs on another host.

// appShellCode: code that removes or rewrites records, or persists what
// it did; a Ruby bang method (block!, archive!, ban!) is the record's
// state changed and saved, by Rails' convention.
var appShellCode = re(`\.(delete|destroy|destroy_all|delete_all|unlink|truncate|drop|purge|really_destroy!?|update_all|update|write|bulk_update|bulk_create|save|create)\b|&:(delete|destroy|purge|save|update)\b|button_\w+\(|\.cr\.commit\(|\bcommit\(\)|delete_many|drop_table|Repo\.(delete|update|insert)|DB::(table|statement|delete|update)|->(delete\w*|forceDelete|update|truncate|destroy|save|flush|purge)\(|::(destroy|truncate)\(|\.[a-z_]\w*!(?:[^=]|$)|\.(delay|apply_async|perform_later|perform_async)\(`)

// appShellClear: a queue, set or cache emptied (Sidekiq::RetrySet.new.clear,
// Rails.cache.clear): what it held is work or copies the app makes again,
// so it asks wherever it runs; every one of a kind emptied at once
// (Sidekiq::Queue.all.each(&:clear)) is judged as a delete.
var (
	appShellClear    = re(`\.clear\b|&:clear\b`)
	appShellClearAll = re(`\.all\.each\s*(\(\s*&:clear\b|\{[^}]*\.clear\b)`)
)

// appShellDestroy: code that deletes records (not one that updates them).
var appShellDestroy = re(`\.(delete|destroy|destroy_all|delete_all|unlink|truncate|drop|purge)\b|&:(delete|destroy|purge)\b|delete_many|drop_table|->(delete\w*|forceDelete|truncate|destroy|purge)\(|::(destroy|truncate)\(`)

// appShellText is the code c runs in its app's console and whether c is
// one ("" with true: a console fed what the line does not show).
func appShellText(c *Cmd) (string, bool) {
	pos := c.Pos
	first := ""
	if len(pos) > 0 {
		first = path.Base(pos[0])
	}
	switch {
	case (c.Name == "python" || c.Name == "python3") && first == "manage.py" && len(pos) > 1 && (pos[1] == "shell" || pos[1] == "shell_plus"),
		c.Name == "manage.py" && first == "shell":
		return optValue(c, "-c") + optValue(c, "--command") + c.Heredoc, true
	case c.Name == "php" && first == "artisan" && len(pos) > 1 && pos[1] == "tinker":
		return optValue(c, "--execute") + c.Heredoc, true
	case (c.Name == "rails" || packagedRails(c.Name)) && (first == "runner" || first == "r"):
		code := pos[1:]
		// -e ENV / --environment ENV: the parser may keep ENV as a positional
		if env := optValue(c, "-e") + optValue(c, "--environment"); env != "" && len(code) > 0 && code[0] == env {
			code = code[1:]
		}
		if len(code) > 0 && !strings.HasSuffix(code[0], ".rb") {
			return code[0], true
		}
		return "", false
	case c.Name == "knife" && first == "exec":
		return optValue(c, "-E") + optValue(c, "--exec") + c.Heredoc, true
	case c.Name == "rails" && (first == "console" || first == "c"), (c.Name == "odoo-bin" || c.Name == "odoo") && first == "shell", c.Name == "flask" && first == "shell":
		return c.Heredoc, true
	}
	return "", false
}

// railsSandbox: rails console --sandbox (-s) runs in a transaction that
// is rolled back on exit: the records its code changes are put back.
func railsSandbox(c *Cmd) bool {
	first := ""
	if len(c.Pos) > 0 {
		first = c.Pos[0]
	}
	return (c.Name == "rails" || packagedRails(c.Name)) && (first == "console" || first == "c") && c.Has("--sandbox", "-s")
}

// packagedRails: a packaged application's own rails (GitLab's
// omnibus gitlab-rails): it runs the installed instance's production
// environment, the only one it has.
func packagedRails(name string) bool { return name == "gitlab-rails" }

var (
	appProdEnv = re(`(?i)\b(RAILS_ENV|RACK_ENV|APP_ENV|DJANGO_SETTINGS_MODULE|FLASK_ENV|MIX_ENV)=\S*(prod|production)|--settings[= ]\S*prod|(^|\s)(-d|--database|--env|-e)[= ]?\S*(^|[^a-z])(prod|production)([^a-z]|$)|--env(ironment)?[= ]prod`)
	appDevEnv  = re(`(?i)\b(RAILS_ENV|RACK_ENV|APP_ENV|FLASK_ENV|MIX_ENV)=(dev|development|test)\b|(^|\s)(-d|--database)[= ]?\S*[_-](dev|test|local)\b|(^|\s)(-d|--database)[= ]?(dev|test)_|(^|\s)(-e|--environment)[= ]?(dev|development|test)(\s|$)`)
)

func appShellRules() []Rule {
	judge := func(e *Env, c *Cmd) (string, string) {
		text, ok := appShellText(c)
		if !ok || onlyHelp(c) || railsSandbox(c) {
			return "", ""
		}
		line := e.F.Command
		if text == "" {
			if c.RunsElsewhere() {
				for i := range e.F.Commands {
					if r := &e.F.Commands[i]; r.Stdin != "" && r.Depth == 0 && r.Name == "ssh" {
						return "ask", c.Name + " runs " + r.Stdin + " in the app's console on another host; the line does not show it"
					}
				}
			}
			return "", ""
		}
		hard := appShellCode.MatchString(text) || appShellClearAll.MatchString(text)
		if !hard && !appShellClear.MatchString(text) {
			return "", ""
		}
		st := strings.TrimSpace(strings.ReplaceAll(text, "\n", "; "))
		if len(st) > 80 {
			st = st[:80] + "…"
		}
		switch {
		case !hard && appDevEnv.MatchString(line):
			return "", ""
		case !hard:
			return "ask", c.Name + " empties a queue, set or cache of the app: " + st
		case appProdEnv.MatchString(line) || prodMarker.MatchString(line) && (c.RunsElsewhere() || c.Name == "knife") || packagedRails(c.Name):
			return "deny", c.Name + " runs code that changes records in the production app: " + st
		case c.RunsElsewhere() && (appShellDestroy.MatchString(text) || appShellClearAll.MatchString(text)) && !nonProdPlace.MatchString(line):
			return "deny", c.Name + " runs code that deletes records in the app deployed on another host: " + st
		case appDevEnv.MatchString(line):
			return "", ""
		}
		return "ask", c.Name + " runs code that changes records in the app's configured database: " + st
	}
	fire := func(want string) func(e *Env, c *Cmd) string { return atLevel(judge, want) }
	names := []string{"python", "python3", "manage.py", "php", "rails", "gitlab-rails", "odoo-bin", "odoo", "flask", "knife"}
	return []Rule{
		cmdRule("external.systems:app-console-prod", Deny, "An application's console (rails runner, manage.py shell -c, artisan tinker --execute, odoo-bin shell) run with code that deletes, destroys or rewrites records, or commits, against production (-d acme_prod, RAILS_ENV=production)", names,
			fire("deny"),
			[]string{"odoo-bin shell -d acme_prod -c /etc/odoo/odoo.conf <<'EOF'\nenv['account.move'].search([('state','=','posted')]).button_draft()\nenv.cr.commit()\nEOF",
				`RAILS_ENV=production bin/rails runner 'User.where(active: false).delete_all'`, `gitlab-rails runner 'Project.find_by_full_path("platform/api").destroy!'`, `DJANGO_SETTINGS_MODULE=shop.settings.prod python manage.py shell -c "from shop.models import Order; Order.objects.all().delete()"`},
			[]string{"odoo-bin shell -d acme_prod <<'EOF'\nprint(env['res.partner'].search_count([]))\nEOF", `RAILS_ENV=production bin/rails runner 'puts User.count'`, `gitlab-rails runner "puts User.admins.pluck(:username)"`, `RAILS_ENV=test bin/rails runner 'User.delete_all'`}),
		cmdRule("external.systems:app-console-change", Ask, "An application's console run with code that deletes, destroys or rewrites records on the database the app is configured for (no environment named), or fed a script the line does not show on another host", names,
			fire("ask"),
			[]string{`bin/rails runner 'Order.where("created_at < ?", 1.year.ago).destroy_all'`, `python manage.py shell -c "from a.models import U; U.objects.filter(is_staff=False).delete()"`, `php artisan tinker --execute "App\\Models\\User::query()->delete()"`,
				"ssh 1234567@acme.odoo.sh 'odoo-bin shell -d acme-main-1234567' < scripts/fix_partner_vat.py"},
			[]string{`python manage.py shell -c "from a.models import U; print(U.objects.count())"`, `bin/rails runner scripts/report.rb`, `php artisan tinker --execute "dump(App\\Models\\User::count())"`,
				"odoo-bin shell -d dev_acme <<'EOF'\nenv['res.partner'].search([]).unlink()\nEOF", `python manage.py migrate`}),
	}
}
