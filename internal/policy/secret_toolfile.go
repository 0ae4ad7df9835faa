package policy

import (
	"fmt"
	"path"
	"strings"
)

// Files that hold a credential by what they are, not by a secret word in
// their name (s26). The name tables (secret_named_anywhere.go,
// secret_dotfile.go, callfacts' credentials list) are strict on purpose;
// these are the other places a careful engineer expects a login:
//
//   - a vendor tool's settings file in home: a data file right under
//     home (~/.planet.json, ~/.wakatime.cfg) or directly in a tool's own
//     dot-folder (~/.abi/filer.cfg, ~/.node-red/.config.runtime.json,
//     ~/.bitcoin/bitcoin.conf). Tools that keep such a file mostly keep
//     their login in it. Shells', editors' and the everyday folders'
//     files (homeDotDirs, safeHomeDotfiles) and a tool's package,
//     state, log and history files are not settings of that kind.
//   - a name whose last part says key, licence key or auth code after
//     another word (site_key.bin, stream_key.txt, license_key.dat,
//     out/authcodes.csv): a key of something, not a list of keys'
//     names (sort_keys, hotkeys, translation keys).
//   - frameworks' known local secrets files (Azure Functions'
//     local.settings.json holds its connection strings).
//   - a credential-named source file that is a settings file (an
//     Arduino sketch's arduino_secrets.h or config/mqtt_credentials.h,
//     config/credentials.py): C headers beside a sketch and code in a
//     config or secrets folder are the project's secrets written in its
//     language.
//   - a Java service's .properties file in a deployed application's
//     conf folder (/opt/mirthconnect/conf/mirth.properties): its
//     database and interface passwords sit there in clear.
//
// Printed whole into the conversation (cat, less, bat, head, tail, xxd,
// jq .) it asks; a field picked by jq, a search for one setting,
// counts, listings and checksums stay allowed, as do examples,
// templates and test fixtures.

// toolSettingsExts: data formats a tool writes its settings in.
var toolSettingsExts = map[string]bool{".json": true, ".cfg": true, ".conf": true, ".ini": true, ".properties": true, ".yaml": true, ".yml": true, ".toml": true}

// toolSettingsNot: parts of a name that make a tool's file state,
// history, a package list, a cache or a log, not its settings.
var toolSettingsNot = map[string]bool{"package": true, "lock": true, "state": true, "history": true, "cache": true, "log": true, "logs": true, "version": true,
	"versions": true, "recent": true, "recently": true, "session": false, "layout": true, "layouts": true, "theme": true, "themes": true, "colors": true, "keymap": true,
	"keybindings": true, "keybinds": true, "shortcuts": true, "hotkeys": true, "bookmarks": true, "window": true, "windows": true, "ui": true, "gui": true, "fonts": true,
	"extensions": true, "plugins": true, "manifest": true, "index": true, "metadata": true, "stats": true, "telemetry": false, "argv": true, "storage": true, "workspace": true}

// toolDotDirsNot: dot-folders of shells, editors, language toolchains
// and desktops (beyond homeDotDirs): their files are settings without a
// login, or read by their own rules.
var toolDotDirsNot = map[string]bool{".emacs.d": true, ".doom.d": true, ".spacemacs.d": true, ".vim": true, ".nvim": true, ".zsh": true, ".bash": true,
	".oh-my-zsh": true, ".tmux": true, ".fzf": true, ".vscode-server": true, ".vscode-oss": true, ".cursor": true, ".eclipse": true, ".idea": true, ".atom": true,
	".sublime-text": true, ".thunderbird": true, ".matplotlib": true, ".streamlit": true, ".nuget": false, ".yarn": true, ".pnpm-store": true, ".deno": true,
	".bun": true, ".gnome": true, ".kde": true, ".wine": true, ".dbus": true, ".swt": true, ".openjfx": true, ".npm-global": true, ".node-gyp": true, ".cmake": true,
	".conan": false, ".ccache": true, ".stack": true, ".ghcup": true, ".opam": true, ".elan": true, ".rye": true, ".poetry": true, ".pixi": true, ".mamba": true,
	".miniconda3": true, ".anaconda3": true, ".miniforge3": true, ".lein": true, ".sbt": true, ".ivy2": true, ".coursier": true, ".krew": true, ".minikube": true,
	".pip": true, ".ansible": true, ".mitmproxy": true, ".ddev": true, ".lando": true, ".freecad": true, ".kodi": true,
	".subversion": true, ".w3m": true, ".newsboat": true, ".ncmpcpp": true, ".mplayer": true, ".mpv": true, ".elinks": true, ".lynx": true}

// safeHomeDataDotfiles: data dot-files right under home that are
// linters', formatters' and editors' settings.
var safeHomeDataDotfiles = map[string]bool{".tmux.conf": true, ".prettierrc.json": true, ".eslintrc.json": true, ".eslintrc.yml": true, ".eslintrc.yaml": true,
	".stylelintrc.json": true, ".markdownlint.json": true, ".markdownlint.yaml": true, ".yamllint.yml": true, ".yamllint.yaml": true, ".clang-format.yaml": true,
	".golangci.yml": true, ".golangci.yaml": true, ".rubocop.yml": true, ".pre-commit-config.yaml": true, ".mdlrc.yml": true, ".editorconfig.ini": true,
	".i3status.conf": true, ".fonts.conf": true, ".asoundrc.conf": true, ".xbindkeys.conf": true, ".screen.conf": true, ".alacritty.yml": true, ".alacritty.toml": true,
	".kitty.conf": true, ".starship.toml": true, ".hyper.json": true, ".gitlint.ini": true, ".isort.cfg": true, ".pylintrc.toml": true, ".mypy.ini": true,
	".ansible.cfg": true, ".pip.conf": true, ".condarc.yml": true, ".jupyter.json": true, ".vimrc.json": true, ".gdbinit.conf": true}

// homeToolSettings: p is a vendor tool's settings file in home.
func homeToolSettings(p, home string) bool {
	if home == "" || !strings.HasPrefix(p, home+"/") {
		return false
	}
	rel := p[len(home)+1:]
	b := strings.ToLower(path.Base(rel))
	ext := path.Ext(b)
	// s29: a bare config or rc file in a tool's own dot-folder
	// (~/.qiskit/qiskitrc, ~/.snowsql/config): its settings with its login
	bare := ext == "" && strings.Count(rel, "/") == 1 && (b == "config" || len(b) > 4 && strings.HasSuffix(b, "rc") && b[0] != '.')
	if !toolSettingsExts[ext] && !bare || strings.ContainsAny(b, "*?[") {
		return false
	}
	switch strings.Count(rel, "/") {
	case 0: // ~/.planet.json, ~/.wakatime.cfg
		if !strings.HasPrefix(b, ".") || safeHomeDataDotfiles[b] || safeHomeRC[strings.TrimSuffix(b, ext)] || safeHomeDotfiles[strings.TrimSuffix(b, ext)] {
			return false
		}
	case 1: // ~/.abi/filer.cfg
		d := strings.ToLower(rel[:strings.IndexByte(rel, '/')])
		if !strings.HasPrefix(d, ".") || homeDotDirs[d] || toolDotDirsNot[d] || strings.Contains(d, "history") || strings.Contains(d, "cache") {
			return false
		}
	default:
		return false
	}
	for _, w := range strings.FieldsFunc(b, func(r rune) bool { return r == '.' || r == '_' || r == '-' }) {
		if credNameNot[w] || toolSettingsNot[w] || strings.HasPrefix(w, "example") || strings.HasPrefix(w, "sample") {
			return false
		}
	}
	return true
}

// keyNameLast: the last part of a name that, after another word, makes
// the file a key of something (site_key, stream_key, license_key).
var keyNameLast = map[string]bool{"key": true, "keys": true, "licensekey": true, "licencekey": true, "authcode": true, "authcodes": true, "authkey": true}

// keyNameNot: words before "key" that make it a name of keys, not one
// (sort_keys.json, translation_keys.csv, primary_key.txt).
var keyNameNot = map[string]bool{"sort": true, "sorted": true, "partition": true, "primary": true, "foreign": true, "hot": true, "short": true, "shortcut": true,
	"cache": true, "lookup": true, "index": true, "i18n": true, "l10n": true, "translation": true, "translations": true, "locale": true, "locales": true, "missing": true,
	"unused": true, "label": true, "labels": true, "dedup": true, "join": true, "shard": true, "routing": true, "row": true, "hash": true, "map": true, "dict": true,
	"public": true, "pub": true, "music": true, "piano": true, "keyboard": true, "group": true, "composite": true, "unique": true, "natural": true, "surrogate": true,
	"idempotency": true, "column": true, "field": true, "fields": true, "json": true, "message": true, "messages": true, "string": true, "strings": true, "config": true,
	"setting": true, "settings": true, "registry": true, "reg": true, "known": true, "trusted": true, "gpg": true, "pgp": true, "signing_pub": true, "allowed": true, "authorized": true}

// keyNameExtNot: formats that hold code, prose, pictures or archives.
var keyNameExtNot = map[string]bool{".md": true, ".rst": true, ".html": true, ".png": true, ".jpg": true, ".svg": true, ".pdf": true, ".zip": true, ".gz": true,
	".tar": true, ".go": true, ".py": true, ".js": true, ".ts": true, ".rb": true, ".java": true, ".rs": true, ".c": true, ".cc": true, ".cpp": true, ".sql": true,
	".pub": true, ".asc": true, ".crt": true, ".log": true, ".ipynb": true, ".tf": true, ".proto": true, ".sh": true}

// keyNamedFile: p's name says it is a key of something.
func keyNamedFile(p string) bool {
	b := strings.ToLower(path.Base(p))
	ext := path.Ext(b)
	if keyNameExtNot[ext] || strings.ContainsAny(b, "*?[") || ext == "" && !strings.Contains(p, "/") {
		return false
	}
	lp := strings.ToLower(p)
	for _, d := range credDirsNot {
		if strings.Contains(lp, d) {
			return false
		}
	}
	stem := strings.TrimSuffix(b, ext)
	parts := strings.FieldsFunc(stem, func(r rune) bool { return r == '.' || r == '_' || r == '-' })
	for _, w := range parts {
		if credNameNot[w] || strings.HasPrefix(w, "example") || strings.HasPrefix(w, "sample") {
			return false
		}
	}
	n := len(parts)
	if n == 0 {
		return false
	}
	last := parts[n-1]
	if last == "authcodes" || last == "authcode" || last == "licensekey" || last == "licencekey" {
		return true
	}
	if n >= 2 && (parts[n-2] == "license" || parts[n-2] == "licence") && (last == "id" || last == "code" || last == "key") {
		return true
	}
	return n >= 2 && keyNameLast[last] && !keyNameNot[parts[n-2]]
}

// frameworkSecretFiles: files frameworks keep their local secrets in.
var frameworkSecretFiles = map[string]bool{"local.settings.json": true}

// secretSourceDirs: folders whose code files are the project's settings.
var secretSourceDirs = map[string]bool{"config": true, "configs": true, "conf": true, "secrets": true, "secret": true, "credentials": true, "creds": true, "settings": true}

// credentialSource: a credential-named C header beside a sketch or code
// file in a config or secrets folder (arduino_secrets.h,
// config/mqtt_credentials.h, secrets/db_password.py).
func credentialSource(p, project string) bool {
	b := strings.ToLower(path.Base(p))
	ext := path.Ext(b)
	if !codeExts[ext] && ext != ".hpp" {
		return false
	}
	dir := path.Dir(p)
	inConfig := secretSourceDirs[strings.ToLower(path.Base(dir))]
	header := (ext == ".h" || ext == ".hpp") && (dir == "." || dir == project || !strings.Contains(p, "/"))
	if !inConfig && !header {
		return false
	}
	lp := strings.ToLower(p)
	for _, d := range credDirsNot {
		if strings.Contains(lp, d) {
			return false
		}
	}
	hit := false
	for _, w := range strings.FieldsFunc(strings.TrimSuffix(b, ext), func(r rune) bool { return r == '.' || r == '_' || r == '-' }) {
		if credNameNot[w] || strings.HasPrefix(w, "example") || strings.HasPrefix(w, "sample") {
			return false
		}
		hit = hit || credNameWords[w]
	}
	return hit
}

// deployedJavaProps: a .properties file in a deployed application's
// conf folder (/opt/mirthconnect/conf/mirth.properties), not its
// logging or launcher settings.
func deployedJavaProps(p string) bool {
	if path.Ext(p) != ".properties" || !(strings.HasPrefix(p, "/opt/") || strings.HasPrefix(p, "/srv/") || strings.HasPrefix(p, "/var/lib/") || strings.HasPrefix(p, "/usr/local/")) {
		return false
	}
	d := strings.ToLower(path.Base(path.Dir(p)))
	if d != "conf" && d != "config" && d != "etc" && d != "cfg" && d != "properties" {
		return false
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(path.Base(p)), func(r rune) bool { return r == '.' || r == '_' || r == '-' }) {
		if credNameNot[w] || prodNameNot[w] || w == "log4j" || w == "logging" || w == "jvm" || w == "wrapper" || w == "version" || w == "messages" || w == "i18n" {
			return false
		}
	}
	return true
}

// wholePrinters print a whole file, or its start or end, as it is.
var wholePrinters = map[string]bool{"cat": true, "less": true, "more": true, "most": true, "head": true, "tail": true, "bat": true, "batcat": true, "tac": true,
	"nl": true, "view": true, "xxd": true, "od": true, "hexdump": true, "hd": true, "base64": true, "strings": true, "type": true, "get-content": true, "Read": true,
	"jq": true, "yq": true}

// wholeQuery: jq or yq prints the whole document (jq ., yq e . f, no
// filter), not fields the line picks.
func wholeQuery(e *Env, via string) bool {
	if via != "jq" && via != "yq" {
		return true
	}
	for _, c := range e.F.Cmds(via) {
		f := ""
		for _, a := range c.Pos {
			if a == "e" || a == "eval" {
				continue
			}
			f = a
			break
		}
		if len(c.Pos) <= 1 || f == "." || f == "'.'" {
			return true
		}
	}
	return false
}

// toolSecretFile: p is a file of the kinds above; the words say which.
func toolSecretFile(p, home, project string) string {
	b := path.Base(p)
	if templateName(b) {
		return "" // secrets/pii-encryption.key.example, config.sample.json: a template kept beside the secret, placeholders in it
	}
	switch {
	case homeToolSettings(p, home):
		return "a tool's settings file in home, where it keeps its login"
	case vendorLoginFile(p, home):
		return "a service's CLI's own settings, where it keeps its login (credvendors.txt)"
	case xdgToolSettings(p, home):
		return "a tool's settings file in home, where it keeps its login"
	case homeToolCredentialFile(p, home):
		return "a file in a tool's folder named for the secret it holds"
	case keyNamedFile(p):
		return "whose name says it holds a key"
	case frameworkSecretFiles[b]:
		return "a framework's local secrets file"
	case credentialSource(p, project):
		return "a settings file of credentials written as code"
	case deployedJavaProps(p):
		return "a deployed service's settings with its passwords"
	case serviceAPISettings(p):
		return "a service API's settings, with its key"
	}
	if why := integrationConfigFile(p); why != "" {
		return why
	}
	if homeToolPEM(p, home) {
		return "a key file in a tool's folder in home, which it logs in with"
	}
	return ""
}

func toolSecretFileRule() Rule {
	return Rule{ID: "core.secrets:print-credential-holder", Mode: Ask, Reads: true, Tools: credentialReaders,
		On:   On(FactPath),
		Desc: "Printing a file that holds a credential by what it is into the conversation: a vendor tool's settings in home (~/.planet.json, ~/.abi/filer.cfg, ~/.config/acmepay/config.yaml), any file in the folder of a service's CLI one logs into (credvendors.txt: ~/.config/pagerduty/config, ~/.teleport/config), a file in a tool's folder named for its secret (~/.config/openai/key, ~/.config/securus/api.json), a file named a key of something (site_key.bin, stream_key.txt, authcodes.csv), a framework's local secrets (local.settings.json), credentials written as a C header or config code (arduino_secrets.h, config/mqtt_credentials.h), a deployed service's .properties (/opt/app/conf/app.properties), the project's config of a service it talks to (an env file config/robot_gateway.env, a link's settings config/hl7_listener.properties), a key in a tool's folder in home (~/.config/cad/mdt_gateway.pem); a picked field, a search for one setting, counts, listings, editors' and shells' settings, examples and test fixtures stay allowed",
		Match: func(e *Env) string {
			for _, p := range e.F.Paths {
				if p.Op != OpRead || !wholePrinters[p.Via] {
					continue
				}
				why := toolSecretFile(p.Path, e.F.Home, e.F.Project)
				if why == "" || !printedRead(e, p.Via) || !wholeQuery(e, p.Via) {
					continue
				}
				if generatesKeys(e, p.Via) || usesSecretQuietly(e, p.Via) || reducedOutput(e, p.Via) || nonSecretColumns(e, p.Via, p.Path) || namesOnlyRead(e, p.Via) || columnsDownstream(e, p.Via, p.Path) || tokenFileFedToAuth(e, p.Via) || catIntoKeyGrepAny(e, p.Via, p.Path) {
					continue
				}
				return fmt.Sprintf("%s prints %s, %s, into the conversation", p.Via, homeRel(p.Path, e.F.Home), why)
			}
			return ""
		},
		Catch: []string{"cat ~/.wakatime.cfg", "cat ~/.config/pagerduty/config", "cat ~/.config/openai/key", "cat ~/.config/acmepay/config.yaml", "less ~/.bitcoin/bitcoin.conf", "xxd keys/door_key.bin", "cat local.settings.json", "cat arduino_secrets.h", "cat /opt/openmrs/conf/runtime.properties", "cat config/robot_gateway.env", "cat config/hl7_listener.properties"},
		Allow: []string{"cat ~/.tmux.conf", "cat ~/.config/kitty/kitty.conf", "cat ~/.config/remmina/remmina.pref", "cat ~/.config/acmepay/settings.yaml", "cat ~/.vscode/argv.json", "jq .theme ~/.hyper/config.json", "cat data/sort_keys.json", "cat src/net/credentials.h", "wc -c keys/door_key.bin", "cat /opt/kafka/config/log4j.properties", "cat local.settings.example.json", "cat config/test.env", "cat config/logging.ini", "cat ~/.config/cad/ca.pem", "cat secrets/README.md secrets/pii-encryption.key.example"}}
}

// keyNamePattern: a search pattern naming a key, licence or auth code
// setting (stream_key, CRYOSPARC_LICENSE_ID, site-key): what it prints
// from a tool's or a server's settings is that credential.
var keyNamePattern = re(`(?i)[a-z0-9][_-]key\b|licen[cs]e[_-]?(id|key|code)\b|auth[_-]?codes?\b`)

// deployedSettingsScript: a shell file that is a deployed application's
// settings (/opt/cryosparc/cryosparc_master/config.sh, setenv.sh).
func deployedSettingsScript(p string) bool {
	if !deployedRoot(p) || path.Ext(p) != ".sh" {
		return false
	}
	stem := strings.ToLower(strings.TrimSuffix(path.Base(p), ".sh"))
	return stem == "config" || stem == "setenv" || stem == "env" || stem == "environment" || stem == "settings" || strings.HasSuffix(stem, "_config") || strings.HasSuffix(stem, "-config") || strings.HasSuffix(stem, "_env")
}

// serviceAPISettings: a settings file in a config folder named for a
// service's API (config/nice_api.properties, conf/sms-api.json): it
// holds the client's key or password for that API.
func serviceAPISettings(p string) bool {
	b := strings.ToLower(path.Base(p))
	ext := path.Ext(b)
	if !toolSettingsExts[ext] || !secretSourceDirs[strings.ToLower(path.Base(path.Dir(p)))] {
		return false
	}
	parts := strings.FieldsFunc(strings.TrimSuffix(b, ext), func(r rune) bool { return r == '.' || r == '_' || r == '-' })
	for _, w := range parts {
		if credNameNot[w] || prodNameNot[w] || strings.HasPrefix(w, "example") || strings.HasPrefix(w, "sample") || w == "spec" || w == "openapi" || w == "swagger" || w == "schema" || w == "docs" {
			return false
		}
	}
	n := len(parts)
	return n >= 2 && (parts[n-1] == "api" || parts[n-1] == "apis")
}
