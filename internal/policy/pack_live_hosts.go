package policy

import (
	"strings"
)

// live servers operated from a shell. Keys typed into another
// terminal session (tmux send-keys, screen -X stuff, zellij action
// write-chars) run there, in a directory the line does not show: a
// recursive delete typed into a service's session is denied. Ending a
// service's session asks. A framework console (artisan, manage.py,
// bin/console, wp, drush, occ, rails, rake, mix) run in a deployed tree
// (/var/www, /srv, /opt, /home/*/apps) changes production; a game
// server's updater (steamcmd +app_update) writing into /srv or /opt
// replaces a live install. A secret-named pulumi config value printed
// asks.

// sessionTools are the terminal multiplexers whose sessions are named.
var sessionTools = []string{"tmux", "screen", "byobu", "zellij"}

// sessionName: the session c addresses (-t, -S, -s, --session), "" when
// none is named.
func sessionName(c *Cmd) string {
	for i, a := range c.Args {
		switch a {
		case "-t", "-S", "-s", "--session", "--target":
			if i+1 < len(c.Args) {
				n := c.Args[i+1]
				if j := strings.IndexAny(n, ":."); j > 0 {
					n = n[:j]
				}
				return n
			}
		}
	}
	return ""
}

// devSession: the session is named for development or tests (dev,
// mc-test, scratch).
func devSession(c *Cmd) bool {
	switch c.Name {
	case "tmux", "screen", "byobu", "zellij":
		n := sessionName(c)
		return n != "" && devName(n)
	}
	return false
}

// typedPayload: the text c types into another session and whether it
// types any.
func typedPayload(c *Cmd) (string, bool) {
	for i, a := range c.Args {
		switch {
		case (c.Name == "tmux" || c.Name == "byobu") && (a == "send-keys" || a == "send"):
			var keys []string
			rest := c.Args[i+1:]
			for j := 0; j < len(rest); j++ {
				p := rest[j]
				if p == "-t" || p == "-N" {
					j++
					continue
				}
				if strings.HasPrefix(p, "-") || p == "Enter" || p == "C-m" || p == "KPEnter" {
					continue
				}
				keys = append(keys, p)
			}
			return strings.Join(keys, " "), true
		case c.Name == "screen" && a == "stuff" && i+1 < len(c.Args):
			return c.Args[i+1], true
		case c.Name == "zellij" && a == "write-chars" && i+1 < len(c.Args):
			return c.Args[i+1], true
		}
	}
	return "", false
}

// junkTargets are what a build makes again: deleting them anywhere loses
// nothing.
var junkTargets = map[string]bool{"node_modules": true, "dist": true, "build": true, "target": true, ".cache": true, "__pycache__": true, "tmp": true, "cache": true, ".next": true, "vendor": true}

// typedEnds: the line ends typed text carries (\n, \r, ^M).
var typedEnds = strings.NewReplacer("\\n", " ", "\\r", " ", "^M", " ", "\n", " ", "\r", " ")

// typedDestroy: the typed text deletes recursively or wipes, and says
// what.
func typedDestroy(p string) string {
	p = typedEnds.Replace(p)
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == ';' || r == '&' || r == '|' }) {
		f := strings.Fields(part)
		for len(f) > 0 && (f[0] == "sudo" || f[0] == "exec" || f[0] == "nohup") {
			f = f[1:]
		}
		if len(f) == 0 {
			continue
		}
		switch {
		case f[0] == "rm":
			rec := false
			var targets []string
			for _, a := range f[1:] {
				if a == "--recursive" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "rR") {
					rec = true
				} else if !strings.HasPrefix(a, "-") {
					targets = append(targets, a)
				}
			}
			if !rec || len(targets) == 0 {
				continue
			}
			for _, t := range targets {
				t = strings.Trim(t, "'\"")
				b := t
				if i := strings.LastIndexByte(strings.TrimSuffix(t, "/"), '/'); i >= 0 {
					b = strings.TrimSuffix(t, "/")[i+1:]
				}
				if !junkTargets[strings.TrimSuffix(b, "/")] && !strings.HasPrefix(t, "/tmp/") {
					return "rm -r " + t
				}
			}
		case strings.HasPrefix(f[0], "mkfs") || f[0] == "wipefs" || f[0] == "shred" || f[0] == "dropdb":
			return f[0]
		}
	}
	return ""
}

func liveHostRules() []Rule {
	return []Rule{
		cmdRule("external.systems:session-keys-destroy", Deny, "Keys typed into another terminal session (tmux send-keys, screen -X stuff, zellij action write-chars) that delete recursively or wipe there: the payload runs in that session's directory, which the line does not show, in a service's session (not one named dev or test)", sessionTools,
			func(e *Env, c *Cmd) string {
				p, ok := typedPayload(c)
				if !ok || devSession(c) {
					return ""
				}
				if d := typedDestroy(p); d != "" {
					return c.Name + " types " + d + " into the session " + orUnknown(sessionName(c)) + ", which runs it there: " + c.String()
				}
				return ""
			},
			[]string{"tmux send-keys -t mc-survival 'rm -rf world world_nether world_the_end' Enter", "screen -S valheim -X stuff 'rm -rf worlds_local\\n'", "tmux send-keys -t rust:0 'sudo rm -r server/rust_main/storage' C-m"},
			[]string{"tmux send-keys -t mc-survival 'save-all' Enter", "tmux send-keys -t mc 'ls -la' Enter", "screen -S mc -X stuff 'say hello\\n'", "tmux send-keys -t mc 'rm old.log' Enter"}),
		cmdRule("external.systems:session-kill", Ask, "Ending another terminal session by name (tmux kill-session -t rust-main, zellij kill-session game): whatever service runs in it stops; sessions named dev or test stay allowed", sessionTools,
			func(e *Env, c *Cmd) string {
				kill := false
				for _, a := range c.Args {
					if a == "kill-session" || a == "kill-sessions" || a == "delete-session" || a == "kill-all-sessions" || a == "kill-window" || a == "killw" {
						kill = true
					}
				}
				if !kill || devSession(c) {
					return ""
				}
				return c.Name + " ends the session " + orUnknown(sessionName(c)) + " and what runs in it: " + c.String()
			},
			[]string{"tmux kill-session -t rust-main", "zellij kill-session --session game", "byobu kill-session -t mc-survival"},
			[]string{"tmux kill-session -t dev", "tmux ls", "tmux list-sessions", "zellij list-sessions"}),
		cmdRule("external.systems:deployed-console", Ask, "A framework's console (artisan, manage.py, bin/console, bin/magento, wp, drush, occ, rails, rake, mix) run in a deployed tree (/var/www, /srv, /opt, /home/*/apps) with a command that changes it (a user made, the site taken down, migrations run): production changes; reads (list, status, route:list) stay allowed", []string{"php", "artisan", "python", "python3", "wp", "drush", "occ", "rails", "rake", "mix", "magento", "console"},
			func(e *Env, c *Cmd) string {
				sub, where := consoleSub(e, c)
				if where == "" || !deployedTree(where) || sub == "" || consoleRead(sub, c) || appConsoleRead(sub) || evalReads(c) {
					return ""
				}
				if v, _ := appConsoleJudge(e, c); v == 'd' {
					return "" // external.systems:app-console-destroy denies
				}
				return c.Name + " " + sub + " changes the deployed application in " + where + ": " + c.String()
			},
			[]string{"cd /var/www/pterodactyl && php artisan p:user:make --email=mod@gamehost.net --admin=1", "cd /var/www/pterodactyl && php artisan down", "php /var/www/shop/bin/magento setup:upgrade", "cd /srv/app && python3 manage.py migrate", "wp --path=/var/www/blog user create eve eve@x.org --role=administrator"},
			[]string{"cd /var/www/pterodactyl && php artisan route:list", "php artisan migrate", "cd /srv/app && python3 manage.py showmigrations", "wp --path=/var/www/blog plugin list", "cd /var/www/app && php artisan --version"}),
		cmdRule("external.systems:live-install-update", Ask, "A game or application server's updater writing into a service's tree (steamcmd +force_install_dir /srv/gameservers/x +app_update): the live install is replaced under its players", []string{"steamcmd", "steamcmd.sh"},
			func(e *Env, c *Cmd) string {
				dir, upd := "", false
				for i, a := range c.Args {
					if strings.EqualFold(a, "+force_install_dir") && i+1 < len(c.Args) {
						dir = e.abs(c, c.Args[i+1])
					}
					if strings.EqualFold(a, "+app_update") || strings.EqualFold(a, "+workshop_download_item") {
						upd = true
					}
				}
				if !upd || !deployedTree(dir) {
					return ""
				}
				return c.Name + " updates the live install in " + dir + ": " + c.String()
			},
			[]string{"./steamcmd.sh +force_install_dir /srv/gameservers/valheim +login anonymous +app_update 896660 validate +quit", "steamcmd +force_install_dir /opt/cs2 +login anonymous +app_update 730 -beta prerelease +quit", "steamcmd.sh +force_install_dir /srv/ark +login anonymous +app_update 376030 +quit"},
			[]string{"steamcmd +login anonymous +app_info_print 730 +quit", "steamcmd +force_install_dir ./cs2 +login anonymous +app_update 730 +quit", "steamcmd +force_install_dir /srv/ark +login anonymous +app_status 376030 +quit"}),
		cmdRule("external.systems:iac-secret-config", Ask, "An IaC stack's secret-named config value printed (pulumi config get dbPassword, pulumi config --show-secrets): the secret lands in the conversation", []string{"pulumi"},
			func(e *Env, c *Cmd) string {
				if sub(c) != "config" {
					return ""
				}
				if c.Has("--show-secrets") {
					return "pulumi config --show-secrets prints the stack's secrets: " + c.String()
				}
				if c.Sub(1) == "get" && len(c.Pos) > 2 {
					k := c.Pos[2]
					if i := strings.LastIndexByte(k, ':'); i >= 0 {
						k = k[i+1:]
					}
					if camelSecret(k) {
						return "pulumi config get prints the secret " + c.Pos[2] + ": " + c.String()
					}
				}
				return ""
			},
			[]string{"pulumi config get dbPassword --stack prod", "pulumi config get app:apiToken", "pulumi config --show-secrets --stack prod"},
			[]string{"pulumi config get region --stack prod", "pulumi config", "pulumi config get aws:region"}),
	}
}

// camelSecret: a config key (dbPassword, api_key, clientSecret) named for a
// secret.
func camelSecret(k string) bool {
	l := strings.ToLower(k)
	for _, w := range []string{"password", "passwd", "secret", "token", "apikey", "api_key", "api-key", "privatekey", "private_key", "credential", "connectionstring"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return strings.HasSuffix(l, "pass") || strings.HasSuffix(l, "pwd")
}

// deployedTree: dir is where a server's deployed application lives.
func deployedTree(dir string) bool {
	if dir == "" {
		return false
	}
	d := dir + "/"
	for _, p := range []string{"/var/www/", "/srv/", "/opt/", "/usr/share/nginx/", "/var/lib/pterodactyl/"} {
		if strings.HasPrefix(d, p) {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(d, "/home/"); ok {
		if _, r, ok := strings.Cut(rest, "/"); ok && (strings.HasPrefix(r, "apps/") || strings.HasPrefix(r, "www/") || strings.HasPrefix(r, "public_html/") || strings.HasPrefix(r, "htdocs/")) {
			return true
		}
	}
	return false
}

// consoleScripts name the framework consoles a php or python runs.
var consoleScripts = map[string]bool{"artisan": true, "console": true, "magento": true, "occ": true, "manage.py": true}

// consoleSub: the console command c gives and the directory the
// application is in ("" when c runs no framework console).
func consoleSub(e *Env, c *Cmd) (string, string) {
	dir := c.Dir
	if dir == "" {
		dir = e.F.Cwd
	}
	switch c.Name {
	case "php", "python", "python3":
		if len(c.Pos) < 2 {
			return "", ""
		}
		s := c.Pos[0]
		b := s[strings.LastIndexByte(s, '/')+1:]
		if !consoleScripts[b] {
			return "", ""
		}
		where := e.abs(c, s)
		where = strings.TrimSuffix(where[:strings.LastIndexByte(where, '/')+1], "/")
		where = strings.TrimSuffix(where, "/bin")
		return c.Pos[1], where
	case "wp":
		if v := optValue(c, "--path"); v != "" {
			dir = e.abs(c, v)
		}
	}
	if len(c.Pos) == 0 {
		return "", ""
	}
	return c.Pos[0], dir
}

// consoleReadWords are console commands that only look.
var consoleReadWords = map[string]bool{"list": true, "help": true, "about": true, "status": true, "version": true, "env": true, "check": true, "showmigrations": true,
	"routes": true, "inspect": true, "info": true, "doctor": true, "get": true, "search": true, "stats": true, "stat": true, "ls": true, "show": true, "cli": true, "diffsettings": true}

func consoleRead(sub string, c *Cmd) bool {
	if strings.HasPrefix(sub, "-") || consoleReadWords[sub] {
		return true
	}
	for _, s := range []string{":list", ":status", ":show", ":info", ":check", ":about", ":version", ":get"} {
		if strings.HasSuffix(sub, s) {
			return true
		}
	}
	if strings.HasPrefix(sub, "debug:") || strings.HasPrefix(sub, "lint:") {
		return true
	}
	if nestedConsoleRead(c) {
		return true // wp wc product list (pack_cloud_devenv.go)
	}
	// wp plugin list, drush pm:list, occ user:list
	return len(c.Pos) > 1 && consoleReadWords[c.Pos[1]] && c.Pos[1] != "get" || len(c.Pos) > 1 && c.Pos[1] == "get" && !strings.Contains(sub, "config")
}
