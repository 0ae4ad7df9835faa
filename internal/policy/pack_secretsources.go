package policy

import (
	"fmt"
	"path"
	"strings"
)

// Secrets as sources, and publishing (issue #30, b26):
//
//   - the whole environment printed into the conversation (printenv,
//     env | sort, env | grep -i zowe): every token of every tool is in
//     it; a filter that keeps only variables that cannot hold a secret
//     (PATH, HOME, LANG, *_VERSION, a full non-secret name), a count,
//     names only or a file as the output stay allowed;
//   - a file whose name says it holds a password or token (~/.dm_pw,
//     oauth2service.json, client_secret*.json) or a tool's rc file in
//     home (~/.dogrc, ~/.transifexrc) read into the conversation; the
//     shell's, editor's and terminal's rc files stay allowed;
//   - interpreter code that prints what a secret store returns
//     (keyring.get_password, get_secret_value, access_secret_version);
//   - a canned public ACL on an upload or copy (gsutil cp -a
//     public-read, --predefined-acl=publicRead, --s3-acl public-read);
//   - a CLI's upload subcommand (datadog-ci sourcemaps upload, zowe
//     zos-files upload): the project's files go to a service. Uploading
//     firmware to a board on a serial or USB port is not.
func secretSourceRules() []Rule {
	return []Rule{
		{ID: "core.secrets:env-dump-print", Mode: Ask, Reads: true, Tools: shellTools, Cmds: []string{"env", "printenv", "set", "export", "declare", "typeset"},
			Desc:  "The whole environment, or every variable whose name holds some word, printed into the conversation (printenv, env | sort, env | grep -i zowe): the tokens and passwords of every tool are in it; a filter that keeps only variables that cannot hold a secret (PATH, HOME, LANG, *_VERSION, proxies, a full non-secret name), a count, names only, or a file as the output stay allowed",
			Match: envDumpPrint,
			Catch: []string{"printenv", "printenv | sort", "env | grep -i efile", "env | grep ^TWILIO_", "printenv | grep -i bamboo", "env | sort | head -50", "set | grep -i artifactory"},
			Allow: []string{"env | grep PATH", "env | wc -l", "env | cut -d= -f1", "env FOO=1 make", "printenv HOME", "env | grep -i proxy", "env > /tmp/env.txt", "env | grep -E 'LANG|LC_'", "env | grep NODE_ENV", "printenv | grep -c AWS"}},
		{ID: "core.secrets:print-named-secret-file", Mode: Ask, Reads: true, Tools: credentialReaders,
			Desc:  "Reading a file whose name says it holds a password or a token (~/.dm_pw, db_passwd, oauth2service.json, client_secret*.json, service-account*.json), a tool's rc file in home (~/.dogrc, ~/.transifexrc, ~/.muttrc: API keys and passwords) or an admin CLI's token cache (~/.keycloak/kcadm.config) into the conversation; shell, editor and terminal rc files (~/.bashrc, ~/.vimrc, ~/.inputrc) and the project's own files stay allowed",
			Match: namedSecretFileRead,
			Catch: []string{"cat ~/.dm_pw", "cat ~/.dogrc", "cat ~/bin/gam7/oauth2service.json", "cat ~/.keycloak/kcadm.config", "less ~/.transifexrc", "head ~/secrets/smtp_passwd", "cat ~/.pause", "cat ~/.trello_uploader", "cat ~/.pywikibot/user-password.py"},
			Allow: []string{"cat ~/.bashrc", "cat ~/.vimrc", "cat ~/.inputrc", "cat src/password_reset.py", "ls ~/.keycloak", "wc -l ~/.dm_pw", "cat ~/.gitconfig", "cat ~/.profile", "cat ~/.tmux.conf", "cat ~/.python-version", "cat ~/.perltidyrc", "cat ~/.local/lib/python3.12/site-packages/passlib/pwd.py"}},
		cmdRule("core.secrets:sdk-secret-print", Ask, "Interpreter code that prints what a secret store returns (keyring.get_password, boto3 get_secret_value, Secret Manager access_secret_version, hvac read_secret_version, Azure SecretClient.get_secret, keytar.getPassword): the stored secret in the conversation, as the CLIs' token printers", sdkRunners,
			func(e *Env, c *Cmd) string {
				code := c.Payload
				if code == "" {
					code = c.Heredoc
				}
				if code == "" || !sdkSecretCall.MatchString(code) || !sdkPrints.MatchString(code) {
					return ""
				}
				if namesOfSaved(code) {
					return "" // list(S.saved_accounts().keys()): the accounts' names only
				}
				return c.Name + " prints a secret a store returns: " + sdkSecretCall.FindString(code)
			},
			[]string{`python3 -c "import keyring; print(keyring.get_password('arcgis','x'))"`, `python -c "import boto3; print(boto3.client('secretsmanager').get_secret_value(SecretId='db')['SecretString'])"`,
				`node -e "require('keytar').getPassword('svc','me').then(console.log)"`, `python3 -c "import hvac; c=hvac.Client(); print(c.secrets.kv.v2.read_secret_version(path='app'))"`,
				`python -c "from prefect.blocks.system import Secret; print(Secret.load('db-password').get())"`, `python3 -c "from airflow.hooks.base import BaseHook; print(BaseHook.get_connection('pg_prod').password)"`},
			[]string{`python3 -c "import keyring; print(keyring.get_keyring())"`, `python3 -c "import boto3; print(boto3.client('secretsmanager').list_secrets()['SecretList'][0]['Name'])"`, `python3 -c "import keyring; keyring.set_password('svc','me','x')"`, `python3 -c "print('get_password')"`, `python -c "from prefect.blocks.system import Secret; Secret(value='x').save('db-password')"`, `python3 -c "from airflow.hooks.base import BaseHook; print(BaseHook.get_connection('pg_prod').host)"`}),
	}
}

// publishRules join external.systems: data made public by a canned ACL,
// and a CLI's upload.
func publishRules() []Rule {
	return []Rule{
		anyCmdRule("external.systems:public-acl", Ask, "A canned public ACL or public-access setting on an upload, a copy or a bucket (gsutil cp -a public-read, aws s3 cp --acl public-read, gcloud storage cp --predefined-acl=publicRead, rclone --s3-acl public-read, az … --public-access blob, b2 … allPublic, gsutil acl ch -u AllUsers:R): the data is published to anyone",
			func(e *Env, c *Cmd) string {
				if textTools[c.Name] || c.Captured {
					return ""
				}
				if v := publicACL(c); v != "" {
					return c.Name + " makes what it writes public (" + v + "): " + c.String()
				}
				return ""
			},
			[]string{"gsutil -m cp -a public-read out/x.tif gs://bucket/x", "gcloud storage cp f gs://b/ --predefined-acl=publicRead", "rclone copy dist s3:site --s3-acl public-read", "az storage container create -n web --public-access blob", "b2 update-bucket media allPublic", "s3cmd put -P img.png s3://b/"},
			[]string{"gsutil cp -a private f gs://b/", "aws s3 cp f s3://b/ --acl bucket-owner-full-control", "grep -rn public-read infra/", "echo public-read", "az storage container create -n web --public-access off", "b2 update-bucket media allPrivate"}),
		anyCmdRule("external.systems:cli-upload", Ask, "A CLI's upload subcommand (datadog-ci sourcemaps upload, zowe zos-files upload, az storage blob upload, twine upload): the project's files are sent to a service; firmware uploaded to a board on a serial or USB port (arduino-cli upload -p /dev/ttyACM0, pio run -t upload) and a test report's upload (junit, coverage, sarif) stay allowed",
			func(e *Env, c *Cmd) string {
				if w := cliUpload(e, c); w != "" {
					return c.Name + " " + w + " sends files to a service: " + c.String()
				}
				return ""
			},
			[]string{"datadog-ci sourcemaps upload ./dist", `zowe zos-files upload file-to-data-set src/x.cbl "TEST.X(Y)"`, "az storage blob upload -f x.zip -c c -n x.zip", "bugsnag-cli upload js --base-url x", "appcenter crashes upload-symbols -s x.dSYM", "ascli storage upload f.bin"},
			[]string{"arduino-cli upload -p /dev/ttyACM0 -b arduino:avr:uno sketch", "pio run -t upload", "just flash", "mkdir upload", "datadog-ci junit upload report.xml", "mytool upload --help"}),
	}
}

// anyCmdRule is cmdRule for every program: the mark is in the
// arguments, not the name. It runs on every line, and the mark is rare:
// match is read first and the skips (quiet, externalSkip: the first ask
// of a command's costs more than match) only for a command that shows
// the mark. match must read the command and the call's memos only, so
// the order changes no answer.
func anyCmdRule(id string, mode Mode, desc string, match func(e *Env, c *Cmd) string, catch, allow []string) Rule {
	return Rule{ID: id, Mode: mode, Desc: desc, Tools: shellTools, Catch: catch, Allow: allow,
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				if r := match(e, &e.F.Commands[i]); r != "" && !e.quiet(i) && !e.externalSkip(i) {
					return r
				}
			}
			return ""
		}}
}

// --- the environment printed ---

// printsWholeEnv reports whether c prints every variable: env or printenv with
// nothing to run or name, set alone, export -p, declare -x|-p.
func printsWholeEnv(c *Cmd) bool {
	switch c.Name {
	case "env", "printenv":
		return len(c.Pos) == 0 && !c.Has("--help", "--version")
	case "set":
		return len(c.Args) == 0
	case "export", "declare", "typeset":
		return len(c.Pos) == 0 && (len(c.Args) == 0 && c.Name == "export" || c.Has("-p", "-x"))
	}
	return false
}

var envFilters = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "findstr": true, "select-string": true, "sls": true}

func envDumpPrint(e *Env) string {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		if !printsWholeEnv(c) || c.Captured || freshContainer(c) {
			continue
		}
		last, filtered, spared := c, "", false
		n := len(c.Upstream)
		for j := i + 1; j < len(e.F.Commands); j++ {
			d := &e.F.Commands[j]
			if len(d.Upstream) <= n || d.Upstream[n] != c.Name && d.Upstream[n] != c.Raw && !(len(d.Upstream) > n+1 && d.Upstream[n+1] == c.Name) || len(d.Wrappers) != len(c.Wrappers) {
				continue // (P=printenv; $P | grep: the stage is named $P, then printenv)
			}
			last = d
			if reducer(d) || d.Name == "wc" || d.Name == "diff" || d.Name == "cmp" || d.Name == "comm" || namesOnlyMatch(d) {
				spared = true // a count, names, a hash; a comparison with an earlier dump shows what a step changed
				break
			}
			if envFilters[d.Name] {
				if d.Has("-c", "--count", "-q", "--quiet", "-l") || hasShortFlag(d, 'c') || hasShortFlag(d, 'q') {
					spared = true
					break
				}
				if d.Has("-v", "--invert-match") || hasShortFlag(d, 'v') {
					continue // every other variable still prints
				}
				pat := optJoined(d, "-e", "--regexp", "-Pattern", "-pattern")
				if pat == "" && len(d.Pos) > 0 {
					pat = d.Pos[0]
				}
				if safeEnvPattern(pat) || pat == strings.ToLower(pat) && !d.Has("-i", "--ignore-case") && !hasShortFlag(d, 'i') && d.Name != "findstr" && d.Name != "select-string" && d.Name != "sls" {
					// a lowercase pattern matched as typed picks values
					// (env | grep deploy: /home/deploy), not the names
					spared = true
					break
				}
				filtered = pat
			}
		}
		if spared || toFile(e, last) {
			continue
		}
		if filtered != "" {
			return fmt.Sprintf("%s prints every variable that matches %q, with its value: a tool's variables hold its tokens", c.Name, filtered)
		}
		return c.Name + " prints the whole environment, its tokens and passwords, into the conversation"
	}
	return ""
}

// freshContainer: c runs in a container started from an image on this
// line (docker run --rm -e FOO=1 alpine env): the image's variables and
// the line's own, no secret of this machine or a running service.
func freshContainer(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if strings.HasPrefix(w, "docker run") || strings.HasPrefix(w, "podman run") || strings.HasPrefix(w, "nerdctl run") {
			return true
		}
	}
	return false
}

// toFile: c's output goes to a file (or nowhere), not the conversation.
func toFile(e *Env, c *Cmd) bool {
	for _, r := range e.F.Redirects {
		if r.Cmd != c.Name {
			continue
		}
		switch r.Op {
		case ">", ">>", ">|", "&>", "&>>":
			switch r.Target {
			case "&1", "/dev/stdout", "/dev/stderr", "/dev/tty", "&2":
				continue
			}
			return true
		}
	}
	return false
}

// safeEnvWords are variables (or families of them) that hold no secret.
var safeEnvWords = map[string]bool{"path": true, "home": true, "lang": true, "language": true, "lc_": true, "lc_all": true, "locale": true, "shell": true, "term": true, "colorterm": true,
	"user": true, "username": true, "logname": true, "hostname": true, "shlvl": true, "oldpwd": true, "display": true, "wayland_display": true, "editor": true, "visual": true, "pager": true,
	"tz": true, "xdg": true, "xdg_": true, "go": true, "gopath": true, "goroot": true, "java_home": true, "java": true, "conda": true, "virtual_env": true, "pyenv": true, "nvm": true, "sdkman": true,
	"proxy": true, "http_proxy": true, "https_proxy": true, "no_proxy": true, "all_proxy": true, "version": true, "_version": true, "keyboard": true, "tmux": true, "debian_frontend": true, "manpath": true, "infopath": true, "ld_library_path": true, "pythonpath": true}

// safeEnvPattern: every alternative of a filter's pattern names a
// variable that holds no secret: a word of safeEnvWords, a name ending
// in PATH, HOME, _VERSION or _PROXY, or a full NAME_WITH_PARTS that is not
// a secret's name (NODE_ENV, AWS_REGION). A single word (zowe, efile) or
// a prefix (^TWILIO_) is a tool's family of variables: not safe.
func safeEnvPattern(pat string) bool {
	if pat == "" {
		return false
	}
	pat = strings.NewReplacer(`\|`, "|", "(", "|", ")", "|", "^", "", "$", "", `\b`, "", `\<`, "", `\>`, "", "=", "", "?:", "", "'", "", `"`, "", ".*", "").Replace(pat)
	n := 0
	for _, alt := range strings.Split(pat, "|") {
		a := strings.ToLower(strings.TrimSpace(alt))
		if a == "" {
			continue
		}
		n++
		if safeEnvWords[a] || strings.HasPrefix(a, "lc_") || strings.HasPrefix(a, "xdg_") {
			continue
		}
		for _, s := range []string{"path", "home", "_version", "_proxy"} {
			if strings.HasSuffix(a, s) && !secretName(a) {
				a = ""
				break
			}
		}
		if a == "" {
			continue
		}
		if fullVarName.MatchString(a) && !secretName(a) {
			continue
		}
		return false
	}
	return n > 0
}

var fullVarName = re(`^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$`)

// --- files named for a secret ---

var secretNameParts = map[string]bool{"pw": true, "pwd": true, "pass": true, "passwd": true, "password": true, "passwords": true, "passphrase": true, "secret": true, "secrets": true, "token": true, "tokens": true, "apikey": true, "creds": true}

// codeExts: a file of code or prose named for passwords is about them
// (password_reset.py, secrets.md), not one.
var codeExts = map[string]bool{".py": true, ".go": true, ".js": true, ".ts": true, ".tsx": true, ".jsx": true, ".rb": true, ".java": true, ".kt": true, ".php": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".rs": true,
	".md": true, ".rst": true, ".html": true, ".css": true, ".vue": true, ".svelte": true, ".sh": true, ".ps1": true, ".swift": true, ".cs": true, ".scala": true, ".ex": true, ".erl": true, ".lua": true, ".pl": true, ".adoc": true, ".tex": true, ".sql": true}

// safeHomeRC are home rc files of shells, editors, terminals, pagers and
// REPLs: settings, no keys.
var safeHomeRC = map[string]bool{".bashrc": true, ".zshrc": true, ".kshrc": true, ".cshrc": true, ".tcshrc": true, ".mkshrc": true, ".vimrc": true, ".gvimrc": true, ".exrc": true, ".nanorc": true,
	".inputrc": true, ".screenrc": true, ".xinitrc": true, ".xsessionrc": true, ".editrc": true, ".psqlrc": true, ".sqliterc": true, ".irbrc": true, ".pryrc": true, ".lynxrc": true,
	".tigrc": true, ".ripgreprc": true, ".nvmrc": true, ".condarc": true, ".gemrc": true, ".latexmkrc": true, ".octaverc": true, ".mongoshrc": true, ".wgetrc_example": true, ".zlogin": true,
	".eslintrc": true, ".prettierrc": true, ".babelrc": true, ".mocharc": true, ".nycrc": true, ".swcrc": true, ".fishrc": true, ".xonshrc": true, ".emacsrc": true, ".mailcaprc": true, ".lesskeyrc": true,
	".pythonrc": true, ".sbclrc": true, ".xbindkeysrc": true, ".conkyrc": true, ".gtkrc": true, ".ideavimrc": true, ".w3mrc": true, ".asdfrc": true, ".jshintrc": true, ".stylelintrc": true,
	".tridactylrc": true, ".vimperatorrc": true, ".mplayerrc": true, ".xscreensaverrc": true, ".dialogrc": true, ".shellcheckrc": true, ".mdlrc": true, ".yamllintrc": true, ".bcrc": true}

// adminTokenCaches are admin CLIs' login caches in home.
var adminTokenCaches = map[string]bool{"kcadm.config": true, "kcreg.config": true}

func secretNamedFile(p, home string) bool {
	b := strings.ToLower(path.Base(p))
	ext := path.Ext(b)
	if codeExts[ext] {
		return dotDirCodeSecret(p, home)
	}
	if bareHomeDotfile(p, home) {
		return true // ~/.pause, ~/.dropbox_uploader: a tool's own settings, with its login (secret_dotfile.go)
	}
	if adminTokenCaches[b] {
		return true
	}
	if strings.HasPrefix(b, "oauth") && ext != ".html" || ext == ".json" && (strings.Contains(b, "oauth2service") || strings.HasPrefix(b, "service-account") || strings.HasPrefix(b, "service_account") || strings.HasPrefix(b, "client_secret")) {
		return true
	}
	if path.Dir(p) == home && strings.HasPrefix(b, ".") && strings.HasSuffix(b, "rc") && len(b) > 3 && !safeHomeRC[b] && !safeHomeDotfiles[b] {
		return true // ~/.dogrc, ~/.transifexrc, ~/.muttrc: a tool's settings with its key
	}
	stem := strings.TrimSuffix(b, ext)
	if stem == "" || len(ext) > 6 {
		stem = b
	}
	app := appDataExts[ext] && appDataDir(p, home)
	for _, w := range strings.FieldsFunc(stem, func(r rune) bool { return r == '.' || r == '_' || r == '-' }) {
		if secretNameParts[w] || app && appAccountParts[w] {
			return true
		}
	}
	return false
}

// appAccountParts name an application's store of its logins: the
// accounts a launcher or chat client signed in with (their OAuth tokens),
// its session, its license key. Only in an application's own folder of
// home (appDataDir) with a data file's extension: ~/Documents/accounts.csv
// is the user's bookkeeping.
var appAccountParts = map[string]bool{"accounts": true, "account": true, "auth": true, "session": true, "sessions": true, "login": true, "logins": true, "license": true, "licence": true, "oauth": true, "identity": true}

// appDataExts: the extensions of an application's data and settings files.
var appDataExts = map[string]bool{".json": true, ".yaml": true, ".yml": true, ".toml": true, ".ini": true, ".dat": true, ".cfg": true, ".conf": true, ".xml": true, ".db": true, ".sqlite": true, ".plist": true}

// appDataDir: p is inside an application's folder of home (~/.config/APP/,
// ~/.local/share/APP/, ~/Library/Application Support/APP/, AppData).
func appDataDir(p, home string) bool {
	rel, ok := strings.CutPrefix(p, home+"/")
	if !ok {
		return false
	}
	for _, d := range []string{".config/", ".local/share/", "Library/Application Support/", "AppData/Roaming/", "AppData/Local/", ".var/app/"} {
		if r, ok := strings.CutPrefix(rel, d); ok && strings.Contains(r, "/") {
			return true
		}
	}
	return false
}

func namedSecretFileRead(e *Env) string {
	for _, p := range e.F.Paths {
		if p.Op != OpRead || listing[p.Via] || p.Via == "source" || p.Via == "." || p.Via == "<" || e.F.Home == "" {
			continue
		}
		if strings.HasPrefix(p.Path, e.F.Project+"/") || !strings.HasPrefix(p.Path, e.F.Home+"/") || credentialNotSecret(p.Path) {
			continue
		}
		if !secretNamedFile(p.Path, e.F.Home) {
			continue
		}
		if generatesKeys(e, p.Via) || usesSecretQuietly(e, p.Via) || reducedOutput(e, p.Via) || nonSecretColumns(e, p.Via, p.Path) || namesOnlyRead(e, p.Via) || columnsDownstream(e, p.Via, p.Path) || plainFieldSearch(e, p.Via, p.Path) || tokenFileFedToAuth(e, p.Via) {
			continue
		}
		return fmt.Sprintf("%s reads %s, whose name says it holds a password or token, into the conversation", p.Via, homeRel(p.Path, e.F.Home))
	}
	return ""
}

// --- a store's secret printed by code ---

// namesOfSaved: every store call the code makes is reduced to its keys
// at once (S.saved_accounts().keys()): the accounts' names, no secret.
func namesOfSaved(code string) bool {
	locs := sdkSecretCall.FindAllStringIndex(code, 8)
	for _, l := range locs {
		if !strings.HasSuffix(code[l[0]:l[1]], "(") {
			return false // a quoted function name ('pillar.items'): its result is used elsewhere
		}
		rest, d, j := code[l[1]:], 1, 0
		for ; j < len(rest) && d > 0; j++ {
			switch rest[j] {
			case '(':
				d++
			case ')':
				d--
			}
		}
		if !strings.HasPrefix(rest[j:], ".keys()") {
			return false
		}
	}
	return len(locs) > 0
}

var (
	sdkSecretCall = re(`\bget_password\(|keyring\.get_credential|get_secret_value|GetSecretValue|getSecretValue|access_secret_version|accessSecretVersion|read_secret_version|secrets\.kv\.(?:v1\.)?read_secret|\.get_secret\(|getSecret\(|keytar\.getPassword|getPassword\(|WithDecryption\s*=\s*True|get_parameter\([^)]*WithDecryption|\bsaved_accounts\(|\bstored_accounts?\(|['"](?:pillar\.(?:items|raw|data|get)|sdb\.get)['"]|\bSecret\.load\(|get_connection\([^)]*\)\.(?:password|get_uri\(|get_password\()`)
	sdkPrints     = re(`\bprint\b|console\.log|console\.dir|\bputs\b|\bpp\b|println|stdout|\becho\b|\.then\(console`)
)

// --- a canned public ACL ---

var textTools = map[string]bool{"grep": true, "egrep": true, "rg": true, "ag": true, "ack": true, "sed": true, "awk": true, "echo": true, "printf": true, "jq": true, "yq": true, "cat": true, "git": true, "find": true, "less": true, "head": true, "tail": true, "terraform": true, "tofu": true, "pulumi": true}

var publicACLValues = map[string]bool{"public-read": true, "public-read-write": true, "publicread": true, "publicreadwrite": true, "allusers": true, "allauthenticatedusers": true, "authenticated-read": true, "allpublic": true}

var publicAccessOpts = map[string]bool{"--public-access": true, "--access-level": true, "--visibility": true}

func publicACL(c *Cmd) string {
	args := c.Args
	for k, a := range args {
		l := strings.ToLower(a)
		opt, val := "", l
		if strings.HasPrefix(l, "-") {
			if o, v, ok := strings.Cut(l, "="); ok {
				opt, val = o, v
			} else {
				if l == "--acl-public" || c.Name == "s3cmd" && l == "-p" {
					return a
				}
				continue
			}
		} else if k > 0 && strings.HasPrefix(args[k-1], "-") && !strings.Contains(args[k-1], "=") {
			opt = strings.ToLower(args[k-1])
		}
		who, _, _ := strings.Cut(val, ":")
		if who == "allusers" || who == "allauthenticatedusers" || strings.HasPrefix(val, "member=allusers") {
			return a
		}
		if publicACLValues[val] && (opt != "" || val == "allpublic") {
			return a
		}
		if publicAccessOpts[opt] && (val == "blob" || val == "container" || val == "public") {
			return a
		}
	}
	return ""
}

// --- a CLI's upload ---

// uploadSpared are programs whose "upload" is a task of the project's
// own or a file's name (make upload, mkdir upload); boards are boardUpload.
var uploadSpared = map[string]bool{"make": true, "just": true, "task": true, "rake": true, "invoke": true, "npm": true, "yarn": true, "pnpm": true, "bun": true, "gradle": true, "gradlew": true, "mvn": true, "nox": true, "tox": true,
	"cd": true, "ls": true, "mkdir": true, "rm": true, "rmdir": true, "cp": true, "mv": true, "touch": true, "cat": true, "find": true, "du": true, "chmod": true, "chown": true, "git": true, "docker": true, "kubectl": true,
	"grep": true, "rg": true, "sed": true, "echo": true, "printf": true, "tree": true, "systemctl": true, "service": true, "journalctl": true, "supervisorctl": true, "pm2": true, "code": true, "vim": true, "nano": true, "python": true, "python3": true, "node": true, "ruby": true, "perl": true, "php": true, "go": true, "cargo": true}

// uploadReportNouns: a test report or a build's artifacts sent to the CI
// that runs it (datadog-ci junit upload, buildkite-agent artifact
// upload); source maps and debug symbols hold the code: not spared.
var uploadReportNouns = map[string]bool{"junit": true, "coverage": true, "sarif": true, "lcov": true, "cobertura": true, "test-results": true, "testresults": true, "results": true, "reports": true, "sbom": true, "test": true, "tests": true, "artifact": true, "artifacts": true}

// uploadNamedAfter: words after which an upload-… word names a service,
// a unit or a release, not the act.
var uploadNamedAfter = map[string]bool{"status": true, "logs": true, "log": true, "describe": true, "show": true, "get": true, "list": true, "ls": true, "inspect": true, "info": true, "top": true,
	"restart": true, "start": true, "stop": true, "reload": true, "enable": true, "disable": true, "exec": true, "attach": true, "upgrade": true, "install": true, "uninstall": true, "delete": true,
	"rm": true, "kill": true, "scale": true, "edit": true, "cat": true, "tail": true, "history": true, "rollback": true, "test": true}

func cliUpload(e *Env, c *Cmd) string {
	if uploadSpared[c.Name] || strings.HasPrefix(c.Raw, ".") || strings.Contains(c.Raw, "/") && !strings.HasPrefix(c.Raw, "/usr") {
		return ""
	}
	word := ""
	for k, p := range c.Pos {
		if k > 3 {
			break
		}
		l := strings.ToLower(p)
		if strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789:_-") != "" {
			break // a path or a value: the subcommand words are over
		}
		joined := strings.HasPrefix(l, "upload-") || strings.HasPrefix(l, "upload_") || strings.HasPrefix(l, "upload:") || strings.HasSuffix(l, ":upload") || strings.HasSuffix(l, "-upload")
		if joined && k > 0 && (uploadNamedAfter[strings.ToLower(c.Pos[k-1])] || strings.HasSuffix(l, "-upload")) {
			break // helm status upload-svc, logs file-upload: a thing named upload-…, not the act
		}
		if l == "upload" || joined { // codecov upload-process, appcenter crashes upload-symbols
			if k > 0 && uploadReportNouns[strings.ToLower(c.Pos[k-1])] {
				return ""
			}
			if c.Args[len(c.Args)-1] == p {
				return "" // `mkdir -p upload`, `id -nG upload`: a last word names a thing
			}
			word = p
			break
		}
	}
	// help and dry runs are asked only of an upload word: the rule runs
	// on every command, and a dry run's reading walks the tool table
	if word == "" || c.Has("--help", "-h", "--dry-run", "--dryrun") || e.dryRun(c) {
		return ""
	}
	if boardUpload(c) || e.localOnly(uploadCmdIndex(e, c)) {
		return ""
	}
	return word
}

// boardUpload: c uploads to a board on this machine's serial or USB
// port (arduino-cli upload -p /dev/ttyACM0, particle flash --usb, an
// embedded toolchain's uploader): everyday embedded work, nothing leaves.
func boardUpload(c *Cmd) bool {
	if embeddedUploaders[c.Name] {
		return true
	}
	for _, a := range c.Args {
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "/dev/tty") || strings.HasPrefix(l, "/dev/cu.") || strings.HasPrefix(l, "/dev/serial") || strings.Contains(l, "=/dev/tty") ||
			len(l) >= 4 && strings.HasPrefix(l, "com") && strings.Trim(l[3:], "0123456789") == "" || l == "--usb" || l == "--serial" {
			return true
		}
	}
	return false
}

var embeddedUploaders = map[string]bool{"arduino-cli": true, "arduino": true, "pio": true, "platformio": true, "esptool": true, "esptool.py": true, "mpremote": true, "ampy": true, "rshell": true,
	"avrdude": true, "dfu-util": true, "st-flash": true, "openocd": true, "picotool": true, "teensy_loader_cli": true, "nrfjprog": true, "west": true, "idf.py": true, "tinygo": true, "stm32flash": true}

func uploadCmdIndex(e *Env, c *Cmd) int {
	for i := range e.F.Commands {
		if &e.F.Commands[i] == c {
			return i
		}
	}
	return 0
}
