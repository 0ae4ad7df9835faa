package policy

import (
	_ "embed"
	"path"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/datatable"
)

// Self-hosted apps' admin consoles (appconsoles.txt): an interpreter
// running the app's console script (php bin/console kimai:user:delete,
// php maintenance/deleteBatch.php, npm run prune-storage, rake
// redmine:…) is read by the verb words of its command or of the script's
// name; where it runs (the deployed tree, the app's service account, a
// remote host, a production environment, a container) decides how far a
// destroy or a change goes.

//go:embed appconsoles.txt
var appConsolesText string

type appConsoleTable struct {
	scripts, tasks, runners, dirs, appdirs map[string]bool
	class                                  map[string]byte // r read, o routine, d destroy, c change
	disposable, credential, dryrun         map[string]bool
}

var appConsoles = sync.OnceValue(func() *appConsoleTable {
	t := &appConsoleTable{scripts: map[string]bool{}, tasks: map[string]bool{}, runners: map[string]bool{}, dirs: map[string]bool{}, appdirs: map[string]bool{},
		class: map[string]byte{}, disposable: map[string]bool{}, credential: map[string]bool{}, dryrun: map[string]bool{}}
	sets := map[string]map[string]bool{"scripts": t.scripts, "tasks": t.tasks, "runners": t.runners, "dirs": t.dirs, "appdirs": t.appdirs,
		"disposable": t.disposable, "credential": t.credential, "dryrun": t.dryrun}
	classes := map[string]byte{"reads": 'r', "routine": 'o', "destroys": 'd', "changes": 'c'}
	datatable.Must("appconsoles.txt", appConsolesText, 2, func(l datatable.Line) error {
		set, cl := sets[l.Fields[0]], classes[l.Fields[0]]
		if set == nil && cl == 0 {
			return l.Errorf("unknown kind %q", l.Fields[0])
		}
		for _, w := range l.Fields[1:] {
			if set != nil {
				set[w] = true
			} else if _, dup := t.class[w]; !dup {
				t.class[w] = cl
			}
		}
		return nil
	})
	return t
})

// appConsoleNames are the programs appConsoleCmd looks at (the rule's
// cheap name check).
var appConsoleNames = []string{"php", "php5.6", "php7.0", "php7.1", "php7.2", "php7.3", "php7.4", "php8.0", "php8.1", "php8.2", "php8.3", "php8.4", "php8.5",
	"python", "python3", "python3.8", "python3.9", "python3.10", "python3.11", "python3.12", "python3.13", "python3.14", "node", "nodejs", "ruby", "rake", "rails", "artisan", "console", "manage.py", "npm", "yarn", "pnpm", "bun"}

// appConsoleCmd: the console command c gives an app ("kimai:user:delete",
// "deleteBatch") and the script or directory it runs from; "" when c
// runs no app console. appdir is set when the script lies in a
// directory only installed apps have (maintenance/, admin/cli/).
func appConsoleCmd(e *Env, c *Cmd) (cmd, where string, appdir bool) {
	t := appConsoles()
	name := c.Name
	dir := c.Dir
	if dir == "" {
		dir = e.F.Cwd
	}
	if callfacts.IsInterpreter(name) {
		if c.Payload != "" {
			return "", "", false
		}
		for i, p := range c.Pos {
			if strings.Contains(p, "=") && !strings.Contains(p, "/") {
				continue // php -d memory_limit=1G …
			}
			b := path.Base(p)
			full := e.abs(c, p)
			if t.scripts[b] {
				if i+1 < len(c.Pos) {
					return c.Pos[i+1], path.Dir(full), false
				}
				return "-", path.Dir(full), false // artisan --version, bin/console: its options only
			}
			ext := path.Ext(b)
			if ext != ".php" && ext != ".py" && ext != ".js" && ext != ".rb" && ext != ".mjs" {
				return "", "", false
			}
			if b == "run.php" && i+1 < len(c.Pos) { // MediaWiki's maintenance/run.php deleteBatch
				return c.Pos[i+1], path.Dir(full), true
			}
			d := path.Dir(full)
			name := strings.TrimSuffix(b, ext)
			if i+1 < len(c.Pos) && appConsoleClass(c.Pos[i+1]) == 'r' && !strings.Contains(c.Pos[i+1], "/") {
				// tools/upgrade.php check, bin/migrate.php status: the script's
				// subcommand is a read, the script's name only its topic
				name += ":" + c.Pos[i+1]
			}
			for sub := range t.appdirs {
				if strings.HasSuffix(d, "/"+sub) {
					return name, d, true
				}
			}
			for sub := range t.dirs {
				if strings.HasSuffix(d, "/"+sub) {
					return name, d, false
				}
			}
			return "", "", false
		}
		return "", "", false
	}
	if t.tasks[name] && len(c.Pos) > 0 {
		return c.Pos[0], dir, false
	}
	if len(c.Pos) > 1 && t.runners[name+":"+c.Pos[0]] {
		return c.Pos[1], dir, false
	}
	return "", "", false
}

// appWords splits a console command into lower-case words: ns:verb:noun,
// verb-noun, verb_noun, camelCase.
func appWords(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		var r byte
		if i < len(s) {
			r = s[i]
		}
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		upper := r >= 'A' && r <= 'Z'
		if start >= 0 && (!alnum || upper && i > start && s[i-1] >= 'a' && s[i-1] <= 'z') {
			out = append(out, strings.ToLower(s[start:i]))
			start = -1
		}
		if alnum && start < 0 {
			start = i
		}
	}
	return out
}

// appConsoleClass: what the command's first verb word does — 'r' read,
// 'o' routine job, 'd' destroy of the app's data, 'p' a purge of what
// the app makes again (caches, sessions), 'k' a credential reset, 'c'
// change, 0 none known.
func appConsoleClass(cmd string) byte {
	t := appConsoles()
	ws := appWords(cmd)
	cred, disp := false, false
	for _, w := range ws {
		cred = cred || t.credential[w]
		disp = disp || t.disposable[w]
	}
	if i := strings.LastIndexByte(cmd, ':'); i > 0 && t.class[strings.ToLower(cmd[i+1:])] == 'r' {
		return 'r' // migrate:status, user:list: a noun, then the read (not regenerate-search)
	}
	for _, w := range ws {
		switch t.class[w] {
		case 'r', 'o':
			return t.class[w]
		case 'd':
			if cred {
				return 'k'
			}
			if disp {
				return 'p'
			}
			return 'd'
		case 'c':
			if cred {
				return 'k'
			}
			return 'c'
		}
	}
	if cred {
		return 'k'
	}
	return 0
}

// appLive: how the line says the console acts on the live app: 2 the
// deployed tree, the service account, another host or a production
// environment; 1 a container; 0 nothing (a project, a dev environment).
func appLive(e *Env, c *Cmd, where string) (int, string) {
	if appDevEnv.MatchString(e.F.Command) {
		return 0, ""
	}
	if deployedTree(where) {
		return 2, "the deployed app in " + where
	}
	container := ""
	for _, w := range c.Wrappers {
		n, _, _ := strings.Cut(w, " ")
		switch n {
		case "sudo", "doas", "runuser", "su", "run0", "setpriv", "chpst", "s6-setuidgid":
			return 2, "the live app, as its service account (" + n + ")"
		case "ssh", "mosh", "autossh", "pssh", "pdsh", "clush":
			return 2, "the app on another host (" + n + ")"
		}
		if strings.HasSuffix(w, " exec") || strings.HasSuffix(w, " run") {
			container = w
		}
	}
	if appProdEnv.MatchString(e.F.Command) || strings.Contains(e.F.Command, "NODE_ENV=production") {
		return 2, "the production environment"
	}
	if container != "" {
		return 1, "the app's container (" + container + ")"
	}
	return 0, ""
}

// appConsoleJudge: the verdict on an app console command ('d' deny, 'a'
// ask, 0 none) and why, judged once per command per call (Env.appMemo):
// three rules ask it of the same command.
func appConsoleJudge(e *Env, c *Cmd) (byte, string) {
	i := e.cmdIndex(c)
	if i < 0 || i >= len(e.appMemo) {
		return appConsoleJudgeOnce(e, c)
	}
	m := &e.appMemo[i]
	if !m.known {
		m.v, m.why = appConsoleJudgeOnce(e, c)
		m.known = true
	}
	return m.v, m.why
}

func appConsoleJudgeOnce(e *Env, c *Cmd) (byte, string) {
	cmd, where, appdir := appConsoleCmd(e, c)
	if cmd == "" || strings.HasPrefix(cmd, "-") {
		return 0, ""
	}
	t := appConsoles()
	for _, a := range c.Args {
		if t.dryrun[a] {
			return 0, ""
		}
	}
	cl := appConsoleClass(cmd)
	if cl == 0 {
		// maintenance.php --enable, media:gc --delete: the verb is an option
		for _, f := range c.Flags {
			if cl = appConsoleClass(strings.TrimLeft(f, "-")); cl != 0 {
				break
			}
		}
	}
	if cl == 'r' || cl == 'o' || cl == 0 {
		return 0, "" // a read, a routine job, or no verb word (build, runner): other rules judge it
	}
	live, why := appLive(e, c, where)
	if live == 0 && appdir {
		live, why = 1, "an installed app's admin script ("+where+")"
	}
	switch {
	case live == 2 && cl == 'd':
		return 'd', c.Name + " " + cmd + " deletes data of " + why + ": " + c.String()
	case live == 2:
		return 'a', c.Name + " " + cmd + " changes " + why + ": " + c.String()
	case live == 1 && (cl == 'd' || cl == 'k'):
		return 'a', c.Name + " " + cmd + " deletes or resets what " + why + " holds: " + c.String()
	}
	return 0, ""
}

// appConsoleRead: the console command is a read or a routine job by its
// words (kimai:user:list, core:archive).
func appConsoleRead(sub string) bool {
	cl := appConsoleClass(sub)
	return cl == 'r' || cl == 'o'
}

func appConsoleRules() []Rule {
	return []Rule{
		cmdRule("external.systems:app-console-destroy", Deny, "A self-hosted app's own console (bin/console, artisan, manage.py, rake, maintenance/*.php, npm run SCRIPT) told to delete, purge or prune the app's data (users, pages, analytics history, stored media) on the live app: in its deployed tree, as its service account, on another host or in production (appconsoles.txt)", appConsoleNames,
			func(e *Env, c *Cmd) string {
				if v, why := appConsoleJudge(e, c); v == 'd' {
					return why
				}
				return ""
			},
			[]string{"sudo -u www-data php /var/www/kimai/bin/console kimai:user:delete bob", "sudo -u www-data php /var/www/freshrss/cli/delete-user.php --user bob", "sudo -u peertube NODE_ENV=production npm run prune-storage"},
			[]string{"sudo -u www-data php /var/www/kimai/bin/console kimai:user:list", "php bin/console app:user:delete bob", "APP_ENV=test php bin/console app:user:delete bob"}),
		cmdRule("external.systems:app-console-change", Ask, "A self-hosted app's own console changing the live app (users made, migrations, upgrades, caches purged, passwords reset), or deleting or resetting inside the app's container, where nothing says dev (appconsoles.txt)", appConsoleNames,
			func(e *Env, c *Cmd) string {
				if v, why := appConsoleJudge(e, c); v == 'a' {
					return why
				}
				return ""
			},
			[]string{"docker exec -it peertube npm run reset-password -- -u root", "sudo -u www-data php /var/www/moodle/admin/cli/purge_caches.php", "php maintenance/deleteBatch.php --r cleanup pages.txt"},
			[]string{"sudo -u www-data php /var/www/freshrss/cli/list-users.php", "sudo -u www-data php /var/www/matomo/console core:archive", "docker compose exec app php artisan migrate", "npm run reset-db"}),
	}
}
