package policy

import (
	_ "embed"
	"path"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// A service's login kept by its own command-line tool (s27). Every
// vendor CLI one logs into writes the token it got somewhere under home,
// and mostly in its own folder: ~/.config/pagerduty/config,
// ~/.config/openai/key, ~/.teleport/config,
// ~/.config/salesforce/sfdx.json, ~/.config/influxdb2/configs. The
// names of such files say nothing (config, configs, hosts, auth), so the
// folder is what is read: credvendors.txt lists, as data, the services
// whose folder holds a login. A file in it printed whole asks
// (core.secrets:print-credential-holder, secret_toolfile.go); its
// preferences, themes, caches, logs, history and code stay allowed, and
// a tool that holds no login has no line.
//
// Beside the table, two shapes say credential in any tool's folder in
// home, listed or not: a file named only for what it holds (key, token,
// auth, apikey, secret, passcode: ~/.config/openai/key,
// ~/.config/tailscale/auth) and a service's API settings
// (~/.config/securus/api.json).

//go:embed credvendors.txt
var credVendorsText string

var credVendors = sync.OnceValue(func() map[string]bool { return datatable.Words("credvendors.txt", credVendorsText) })

// vendorFileNot: words of a file's name in a vendor's folder that make
// it preferences, state or a record, not the login.
var vendorFileNot = map[string]bool{"settings": true, "preferences": true, "prefs": true, "pref": true, "readme": true, "license": true,
	"completion": true, "completions": true, "changelog": true, "update": true, "updates": true, "updater": true, "usage": true, "crash": true,
	"crashes": true, "debug": true, "trace": true, "tmp": true, "temp": true, "bin": true, "templates": true, "template": true, "schema": true}

// vendorDirNot: folders inside a vendor's folder that hold no login.
var vendorDirNot = map[string]bool{"cache": true, "caches": true, "logs": true, "log": true, "history": true, "plugins": true, "extensions": true,
	"bin": true, "lib": true, "node_modules": true, "themes": true, "completions": true, "tmp": true, "templates": true, "downloads": true,
	"updates": true, "crashes": true, "crash": true, "telemetry": true, "versions": true, "share": true, "docs": true, "examples": true}

// vendorFileExtNot: formats that hold code, prose, pictures, archives,
// databases of records or public key halves.
var vendorFileExtNot = map[string]bool{".log": true, ".lock": true, ".pid": true, ".sock": true, ".md": true, ".txt": false, ".html": true,
	".css": true, ".png": true, ".jpg": true, ".svg": true, ".ico": true, ".gif": true, ".pdf": true, ".zip": true, ".gz": true, ".tar": true,
	".tgz": true, ".js": true, ".ts": true, ".py": true, ".rb": true, ".sh": true, ".lua": true, ".go": true, ".pub": true, ".crt": true,
	".asc": true, ".csv": true, ".tsv": true, ".parquet": true, ".bak": false, ".pref": true, ".prefs": true, ".theme": true}

// homeToolDir splits p under home into a tool's folder name and the
// path inside it: ~/.config/NAME/REST, ~/.NAME/REST (the name without
// its dot). ok is false for anything else.
func homeToolDir(p, home string) (name, rest string, ok bool) {
	if home == "" || !strings.HasPrefix(p, home+"/") {
		return "", "", false
	}
	rel := p[len(home)+1:]
	if r, found := strings.CutPrefix(rel, ".config/"); found {
		rel = r
	} else if !strings.HasPrefix(rel, ".") || strings.HasPrefix(rel, ".local/") || strings.HasPrefix(rel, ".cache/") {
		return "", "", false
	} else {
		rel = rel[1:]
	}
	name, rest, found := strings.Cut(rel, "/")
	if !found || name == "" || rest == "" {
		return "", "", false
	}
	return name, rest, true
}

// vendorLoginFile: p is a file in the folder of a service credvendors.txt
// lists, that is not its preferences, state or a record.
func vendorLoginFile(p, home string) bool {
	name, rest, ok := homeToolDir(p, home)
	if !ok || !credVendors()[name] {
		return false // Slack, Zoom: a desktop app's capitalised folder keeps its state, not a CLI's login
	}
	if strings.ContainsAny(rest, "*?[") {
		return false
	}
	dirs := strings.Split(strings.ToLower(rest), "/")
	b := dirs[len(dirs)-1]
	for _, d := range dirs[:len(dirs)-1] {
		if vendorDirNot[d] || strings.Contains(d, "cache") || strings.Contains(d, "log") {
			return false
		}
	}
	if vendorFileExtNot[path.Ext(b)] {
		return false
	}
	for _, w := range strings.FieldsFunc(b, func(r rune) bool { return r == '.' || r == '_' || r == '-' }) {
		if vendorFileNot[w] || toolSettingsNot[w] || credNameNot[w] || strings.HasPrefix(w, "example") || strings.HasPrefix(w, "sample") {
			return false
		}
	}
	return true
}

// bareSecretNames: a file named only for the secret it holds.
var bareSecretNames = map[string]bool{"key": true, "apikey": true, "api_key": true, "api-key": true, "token": true, "access_token": true,
	"auth": true, "auth_token": true, "authtoken": true, "secret": true, "secrets": true, "passcode": true, "password": true, "passwd": true,
	"credentials": true, "creds": true, "session": false, "pat": true, "bearer": true}

// homeToolCredentialFile: in any tool's folder in home, a file named
// only for its secret (~/.config/openai/key, ~/.config/tailscale/auth,
// ~/.myapp/token.txt) or for a service's API (~/.config/securus/api.json).
func homeToolCredentialFile(p, home string) bool {
	name, rest, ok := homeToolDir(p, home)
	name = strings.ToLower(name)
	if !ok || homeDotDirs["."+name] || toolDotDirsNot["."+name] || strings.Count(rest, "/") > 1 {
		return false
	}
	b := strings.ToLower(path.Base(rest))
	ext := path.Ext(b)
	stem := strings.TrimSuffix(b, ext)
	switch ext {
	case "", ".txt", ".json", ".key", ".conf", ".cfg", ".toml", ".yaml", ".yml", ".ini":
	default:
		return false
	}
	if bareSecretNames[stem] && (ext == "" || ext == ".txt" || ext == ".json" || ext == ".key") {
		return true
	}
	return (stem == "api" || stem == "apis") && toolSettingsExts[ext]
}

// xdgToolsNot: folders under ~/.config of editors, terminals, shells,
// desktops, media players and developer tools that hold no login: their
// settings files are what a user reads to fix a key binding.
var xdgToolsNot = map[string]bool{"nvim": true, "vim": true, "emacs": true, "doom": true, "helix": true, "kak": true, "micro": true, "nano": true,
	"zed": true, "code": true, "vscodium": true, "cursor": true, "sublime-text": true, "sublime-text-3": true, "jetbrains": true, "kitty": true,
	"alacritty": true, "wezterm": true, "foot": true, "ghostty": true, "terminator": true, "tilix": true, "konsole": true, "gnome-terminal": true,
	"xfce4": true, "fish": true, "zsh": true, "bash": true, "starship": true, "tmux": true, "zellij": true, "htop": true, "btop": true, "bottom": true,
	"neofetch": true, "fastfetch": true, "ranger": true, "lf": true, "nnn": true, "yazi": true, "mc": true, "i3": true, "i3status": true, "sway": true,
	"hypr": true, "waybar": true, "polybar": true, "rofi": true, "wofi": true, "dunst": true, "mako": true, "picom": true, "gtk-2.0": true,
	"gtk-3.0": true, "gtk-4.0": true, "qt5ct": true, "qt6ct": true, "fontconfig": true, "dconf": true, "pulse": true, "pipewire": true,
	"wireplumber": true, "autostart": true, "systemd": true, "environment.d": true, "menus": true, "xdg-desktop-portal": true, "git": true,
	"lazygit": true, "gitui": true, "tig": true, "delta": true, "bat": true, "ripgrep": true, "fd": true, "k9s": true, "kicad": true,
	"kicost": true, "yamllint": true, "pycodestyle": true, "flake8": true, "pylint": true, "mypy": true, "ruff": true, "black": true,
	"pip": true, "pypoetry": true, "uv": true, "matplotlib": true, "jupyter": true, "ipython": true, "procps": true, "obs-studio": true,
	"mpv": true, "vlc": true, "zathura": true, "mpd": true, "ncmpcpp": true, "cava": true, "beets": true, "yt-dlp": true, "youtube-dl": true,
	"gallery-dl": true, "newsboat": true, "calcurse": true, "pgcli": true, "gh-dash": true, "powershell": true, "direnv": true, "atuin": true,
	"zoxide": true, "mise": true, "rtx": true, "asdf": true, "nix": true, "home-manager": true, "containers": true, "libvirt": true, "qemu": true,
	"virtualbox": true, "vagrant": true, "black-formatter": true, "prettier": true, "eslint": true, "stylua": true, "clangd": true,
	"lsd": true, "eza": true, "exa": true, "glow": true, "lsp": true, "nushell": true, "xonsh": true, "elvish": true, "tealdeer": true,
	"neomutt": false, "chromium": true, "google-chrome": true, "mozilla": true, "firefox": true, "gimp": true, "inkscape": true,
	"blender": true, "libreoffice": true, "dolphinrc": true, "kdeglobals": true, "plasma": true, "gnome": true, "nautilus": true, "thunar": true,
	"flameshot": true, "redshift": true, "gammastep": true, "keepassxc": true, "syncthing": false, "cargo": true, "rustfmt": true, "go": true,
	"gh": true, "helm": false, "kubectl": false, "docker": false, "configstore": false, "tmuxinator": true, "alsa": true, "openbox": true, "awesome": true,
	"bspwm": true, "sxhkd": true, "qtile": true, "xmonad": true, "river": true, "niri": true, "swaylock": true, "swayidle": true, "kanshi": true,
	"fuzzel": true, "tofi": true, "eww": true, "ags": true, "quickshell": true, "nwg-look": true, "wal": true, "pywal": true, "hyprpanel": true,
	"i3blocks": true, "labwc": true, "wlogout": true, "swaync": true, "cmus": true}

// xdgToolSettings: ~/.config/NAME/F, a settings data file of a tool
// that is not an editor's, terminal's, shell's or desktop's
// (~/.config/fortellis/config.json, ~/.config/acme-cli/settings.yaml is
// not: settings are preferences): the same reading homeToolSettings
// gives ~/.NAME/F, one folder down.
func xdgToolSettings(p, home string) bool {
	if home == "" || !strings.HasPrefix(p, home+"/.config/") {
		return false
	}
	rel := p[len(home)+len("/.config/"):]
	if strings.Count(rel, "/") != 1 {
		return false
	}
	d, b := rel[:strings.IndexByte(rel, '/')], strings.ToLower(path.Base(rel))
	ld := strings.ToLower(d)
	if xdgToolsNot[ld] || d != ld || strings.HasPrefix(d, ".") || strings.Contains(ld, "history") || strings.Contains(ld, "cache") || strings.Contains(ld, "theme") {
		return false // Code, Slack, Electron: desktop apps' folders (capitalised) keep state, not a CLI's login
	}
	ext := path.Ext(b)
	// s29: a CLI's bare config file (~/.config/streamlink/config) is its
	// settings as much as config.toml; window managers' and desktop
	// tools' are xdgToolsNot
	if !toolSettingsExts[ext] && !(ext == "" && b == "config") || strings.ContainsAny(b, "*?[") {
		return false
	}
	for _, w := range strings.FieldsFunc(b, func(r rune) bool { return r == '.' || r == '_' || r == '-' }) {
		if credNameNot[w] || toolSettingsNot[w] || vendorFileNot[w] || strings.HasPrefix(w, "example") || strings.HasPrefix(w, "sample") {
			return false
		}
	}
	return true
}
