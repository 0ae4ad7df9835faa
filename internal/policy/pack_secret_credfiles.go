package policy

import (
	"fmt"
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// Secrets printed into the conversation: a tool's credentials file read
// to the screen (cat ~/.cache/huggingface/token, grep token
// ~/.config/rclone/rclone.conf). An environment dump filtered for a
// provider's variables (env | grep -i 'hf_|wandb') is
// core.local:env-secret-grep, its provider words data here
// (policy/remoteops.txt env-provider-words). Sending them anywhere is denied by
// the exfil rules; here the user is asked, since the transcript keeps them.

// credentialNotSecret: files in credential directories that hold no
// secret (ssh's config, known hosts, public keys).
func credentialNotSecret(p string) bool {
	b := path.Base(p)
	return strings.HasSuffix(b, ".pub") || b == "config" && strings.HasSuffix(path.Dir(p), "/.ssh") || b == "known_hosts" || b == "known_hosts.old" || b == "authorized_keys" ||
		b == "config.yml" && strings.HasSuffix(path.Dir(p), "/.config/gh") // gh's settings; its tokens are in hosts.yml
}

func credentialFileRules() []Rule {
	return []Rule{
		{
			ID: "core.secrets:print-credential-file", Mode: Ask, Reads: true, Tools: credentialReaders,
			Desc: "Reading a tool's credentials file into the conversation, by a command or the Read tool (cat ~/.cache/huggingface/token, grep token ~/.config/rclone/rclone.conf, cat ~/.kaggle/kaggle.json, cat ~/.databrickscfg, less ~/.dbt/profiles.yml): the transcript keeps the token; listing, counts, public keys and ssh's config stay allowed; the files are callfacts' credentials list",
			Match: func(e *Env) string {
				for _, p := range e.F.Paths {
					if p.Op != OpRead || !strings.HasPrefix(p.Path, e.F.Home+"/") || strings.HasPrefix(p.Path, e.F.Project+"/") || listing[p.Via] || p.Via == "source" || p.Via == "." || credentialNotSecret(p.Path) || publicKeyPick(e, p) {
						continue
					}
					if !callfacts.IsCredential(p.Path, e.F.Home) {
						continue
					}
					if generatesKeys(e, p.Via) || usesSecretQuietly(e, p.Via) || reducedOutput(e, p.Via) || nonSecretColumns(e, p.Via, p.Path) || namesOnlyRead(e, p.Via) || columnsDownstream(e, p.Via, p.Path) || plainFieldSearch(e, p.Via, p.Path) || tokenFileFedToAuth(e, p.Via) {
						continue
					}
					return fmt.Sprintf("%s reads %s, a credentials file, into the conversation", p.Via, homeRel(p.Path, e.F.Home))
				}
				return ""
			},
			Catch: []string{"cat ~/.cache/huggingface/token", "grep -r 'token' ~/.config/rclone/rclone.conf", "cat ~/.kaggle/kaggle.json", "head -3 ~/.config/gh/hosts.yml", "less ~/.s3cfg",
				"cat ~/.databrickscfg", "grep password ~/.dbt/profiles.yml", "type \"%APPDATA%\\NuGet\\NuGet.Config\"", "less $HOME/.config/snowflake/connections.toml", "cat ~/.config/configstore/firebase-tools.json",
				`{"tool_name":"Read","tool_input":{"file_path":"/home/dev/.kaggle/kaggle.json"}}`, `{"tool_name":"Read","tool_input":{"file_path":"~/.snowsql/config"}}`},
			Allow: []string{"ls ~/.cache/huggingface", "cat ~/.ssh/config", "cat ~/.config/gh/config.yml", "cat ~/.ssh/id_ed25519.pub", "cat ~/.cache/huggingface/hub/version.txt", "grep -c token ~/.config/rclone/rclone.conf", "cat ~/.config/rclone/README.md",
				"ls ~/.snowsql", "cat profiles.yml", "cat nuget.config", "dbt debug", "databricks auth profiles", `{"tool_name":"Read","tool_input":{"file_path":"/home/dev/.ssh/config"}}`},
		},
	}
}

// credentialReaders are the tools that put a file's text in the
// conversation: a shell's commands, and the file tools that read.
var credentialReaders = []string{"Bash", "PowerShell", "Read", "Grep", "NotebookRead"}

// envProviderWord: a filter's pattern names an API provider's variables
// (HF_TOKEN, WANDB_API_KEY, OPENAI_API_KEY; policy/remoteops.txt
// env-provider-words): what it prints are those credentials.
func envProviderWord(a string) bool {
	l := strings.ToLower(a)
	for _, w := range opsWords("env-provider-words") {
		if strings.Contains(l, w) {
			return true
		}
	}
	table := secretHosts()
	for _, w := range strings.FieldsFunc(l, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if _, ok := table[w]; ok && len(w) >= 4 {
			return true // env | grep -i splunk, printenv | grep -i sentry: a service's variables are its credentials
		}
	}
	return false
}

// secretPattern: a search pattern that looks for credentials (a key's
// prefix or a credential's name).
var secretPattern = re(`(?i)(password|passwd|passphrase|secret|token|api[_-]?key|apikey|private[_-]?key|aws_access|credential|\bpass(=|:|\b)|_pass\b|\bpwd\b|_pwd\b|dbpass|bindpw|requirepass|masterauth|auth_?pass|psk\b|\bsk-|sk_live|AKIA|ghp_|gho_|glpat-|github_pat|xox[bp]-|BEGIN [A-Z .*]*PRIVATE)`)

// secretHuntRule: a recursive search of home, its config or the
// whole disk for credentials (grep -r "sk-" ~/.config, rg -i 'api_key'
// ~): every match prints a secret of some tool into the conversation.
func secretHuntRule() Rule {
	return readsOnly(cmdRule("core.secrets:secret-hunt", Ask, "A search for credentials that prints the matching lines of the home directory, its configuration, the whole disk, a server's deployed applications and configuration (/etc, /srv, /opt, /var/www) or a deployed or secrets file (grep -r \"sk-\" ~/.config, rg -i api_key ~, grep -rE 'AKIA|ghp_' /, grep -r DB_PASSWORD /srv, grep -i secret config.php): each match prints some tool's secret into the conversation; searches of the project's code, -l/-c/-q/-v forms stay allowed", []string{"grep", "egrep", "rg", "ag", "ack", "git-grep", "jq", "yq", "gojq", "jaq"},
		func(e *Env, c *Cmd) string {
			if c.Captured || len(c.Upstream) > 0 && c.Name != "rg" || len(c.Pos) < 2 {
				return ""
			}
			recursive := false
			if query := c.Name == "jq" || c.Name == "yq" || c.Name == "gojq" || c.Name == "jaq"; !query {
				if c.Has("-l", "--files-with-matches", "-c", "--count", "-q", "--quiet", "-v", "--invert-match", "-L", "--files-without-match") || hasShortFlag(c, 'v') || hasShortFlag(c, 'l') || hasShortFlag(c, 'c') || hasShortFlag(c, 'q') || hasShortFlag(c, 'L') {
					return ""
				}
				recursive = c.Name != "grep" && c.Name != "egrep" || c.Has("-r", "-R", "--recursive") || hasShortFlag(c, 'r') || hasShortFlag(c, 'R')
			}
			where := ""
			for _, t := range c.Pos[1:] {
				p := e.abs(c, t)
				if strings.HasPrefix(p, e.F.Project+"/") || p == e.F.Project {
					if !recursive && projectSecretFile(p) {
						where = t // the project's .env, config.php, secrets.yml
					}
					continue // the project's own files
				}
				if !recursive {
					if (configFileOutside(p) || deployedSettingsScript(p)) && !c.Has("-o", "--only-matching") && !hasShortFlag(c, 'o') {
						where = t
					}
					continue
				}
				switch z := callfacts.ZoneOf(p, e.F.Home, e.F.Project); {
				case p == "/" || p == e.F.Home || z == callfacts.ZoneHomeConfig || z == callfacts.ZoneCredentials || z == callfacts.ZoneHomeData && strings.Count(strings.TrimPrefix(p, e.F.Home), "/") <= 1 || deployedRoot(p):
					where = t
				}
			}
			if where == "" {
				return ""
			}
			pat := c.Pos[0]
			if c.Name == "jq" || c.Name == "yq" || c.Name == "gojq" || c.Name == "jaq" {
				pat = strings.Join(c.Pos[:len(c.Pos)-1], " ") // yq e '.db.password' f
				if strings.Contains(pat, "keys") || strings.Contains(pat, "length") || strings.Contains(pat, "type") || jqRedacts(pat) {
					return "" // .credentials | keys: names, not values
				}
				if jqRedacts(pat) {
					return "" // map_values(del(.token)): the secrets taken out
				}
			}
			for i, a := range c.Args {
				if (a == "-e" || a == "--regexp") && i+1 < len(c.Args) {
					pat = c.Args[i+1]
				}
			}
			if !secretPattern.MatchString(pat) && !keyNamePattern.MatchString(pat) { // stream_key, LICENSE_ID: secret_toolfile.go
				return ""
			}
			return c.Name + " searches " + where + " for credentials (" + pat + ") and prints what it finds: " + c.String()
		},
		[]string{`grep -r "sk-" ~/.config`, "rg -i 'api_key' ~", "grep -rE 'AKIA|ghp_' / 2>/dev/null", "grep -ri password ~/.local/share", "ag -i token ~/",
			"grep -r DB_PASSWORD /srv/", "rg -i secret /var/www", "grep -i DBPassword /etc/zabbix/zabbix_server.conf", "grep -i secret config.php"},
		[]string{"grep -r token src/", "rg -i api_key .", "grep -rc password ~/.config", "grep -r TODO ~/.config", "grep -ri password docs/",
			"grep -rl DB_PASSWORD /srv/", "grep -v password /etc/myapp.conf", "grep -i listen /etc/nginx/nginx.conf", "grep -r password src/"}))
}

// deployedRoots: the folders where servers keep deployed applications
// and their configuration (a search there for a password prints the
// live one).
var deployedRoots = []string{"/etc", "/srv", "/opt", "/var/www", "/var/lib", "/var/opt", "/usr/local/etc", "/home", "/root", "/mnt", "/data", "/var/backups", "/backup", "/backups", "/app", "/var/snap"}

// deployedRoot: p is one of deployedRoots or lies under one.
func deployedRoot(p string) bool {
	for _, r := range deployedRoots {
		if p == r || strings.HasPrefix(p, r+"/") {
			return true
		}
	}
	return false
}

// configFileExts: the extensions of configuration files that carry
// passwords when a service or an application keeps them.
var configFileExts = map[string]bool{".php": true, ".conf": true, ".cnf": true, ".cf": true, ".ini": true, ".env": true, ".yml": true, ".yaml": true, ".json": true,
	".properties": true, ".toml": true, ".xml": true, ".cfg": true, ".config": true, ".rb": true, ".py": true, ".js": true, ".ext": true, ".local": true, ".production": true, ".inc": true}

// configFileOutside: p, a file outside the project, is a deployed
// configuration file (by its place and extension, or an .env file).
func configFileOutside(p string) bool {
	b := path.Base(p)
	if strings.HasPrefix(b, ".env") {
		return !templateName(b)
	}
	return deployedRoot(p) && configFileExts[path.Ext(b)] && !templateName(b)
}

// projectSecretFile: the project's own file that holds its secrets
// rather than code (.env*, config.php, config/*.php, secrets.*).
func projectSecretFile(p string) bool {
	b := path.Base(p)
	if templateName(b) {
		return false
	}
	switch {
	case strings.HasPrefix(b, ".env"), strings.HasPrefix(b, "secrets."), b == "config.php", b == "config.inc.php", b == "settings.php", b == "wp-config.php", b == "local_settings.py", b == "database.yml":
		return true
	}
	return path.Ext(b) == ".php" && path.Base(path.Dir(p)) == "config"
}

var templateWords = []string{"example", "sample", "dist", "template", "tmpl", ".pub"}

// templateName: a template or sample kept beside a secret file
// (.env.example, config.php.dist, settings.sample.php).
func templateName(b string) bool {
	l := strings.ToLower(b)
	for _, w := range templateWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// hasShortFlag: a bundle of short options holds f (-rn, -Hri).
func hasShortFlag(c *Cmd, f byte) bool {
	for _, a := range c.Args {
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], f) >= 0 {
			return true
		}
	}
	return false
}
