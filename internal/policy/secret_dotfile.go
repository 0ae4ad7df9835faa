package policy

import (
	"os"
	"path"
	"strings"
)

// A bare dot-file right under home named after a tool (~/.pause,
// ~/.dropbox_uploader, ~/.boto, ~/.octoprint_key) is that tool's own
// settings, and the tools that keep one there are mostly uploaders and
// service clients keeping their login in it: the same reading as a
// tool's ~/.XXXrc. The shell's, git's, X's and editors' dot-files, the
// version pins and the history files (judged by core.local:history-read)
// hold no key and stay readable. A dot-file with an extension
// (~/.tmux.conf, ~/.gtkrc-2.0) is read by its extension's rules.

// safeHomeDotfiles are bare home dot-files that hold settings, no keys.
var safeHomeDotfiles = map[string]bool{".profile": true, ".bash_profile": true, ".bash_login": true, ".bash_logout": true, ".bash_aliases": true, ".bash_functions": true,
	".zprofile": true, ".zshenv": true, ".zlogout": true, ".zlogin": true, ".gitconfig": true, ".gitignore": true, ".gitignore_global": true, ".gitattributes": true,
	".gitmessage": true, ".gitk": true, ".hgignore": true, ".editorconfig": true, ".xprofile": true, ".xsession": true, ".xresources": true, ".xdefaults": true,
	".xmodmap": true, ".xclients": true, ".dmrc": true, ".face": true, ".hushlogin": true, ".selected_editor": true, ".viminfo": true, ".lesshst": true, ".lesskey": true,
	".mailcap": true, ".plan": true, ".project": true, ".forward": true, ".signature": true, ".tool-versions": true, ".python-version": true, ".ruby-version": true,
	".node-version": true, ".java-version": true, ".terraform-version": true, ".go-version": true, ".clang-format": true, ".clang-tidy": true,
	".sudo_as_admin_successful": true, ".wget-hsts": true, ".emacs": true, ".gnuplot": true, ".rprofile": true, ".guile": true, ".ghci": true, ".haskeline": true,
	".dircolors": true, ".ds_store": true, ".localized": true, ".cfusertextencoding": true, ".fehbg": true, ".xinputrc": true, ".gdbinit": true, ".lldbinit": true,
	".pam_environment": false, ".npmignore": true, ".dockerignore": true, ".prettierignore": true, ".eslintignore": true, ".flake8": true, ".pylintrc": true,
	".perltidyrc": true, ".perlcriticrc": true, ".proverc": true, ".ackrc": true, ".cvsignore": true, ".bazelrc": true, ".xsessionrc": true}

// bareHomeDotfile: p is a dot-file right under home without an
// extension, not a known settings, pin or history file.
func bareHomeDotfile(p, home string) bool {
	if path.Dir(p) != home {
		return false
	}
	b := strings.ToLower(path.Base(p))
	if len(b) < 3 || b[0] != '.' || strings.Contains(b[1:], ".") || safeHomeDotfiles[b] || safeHomeRC[b] {
		return false
	}
	if homeDotDirs[b] || strings.Contains(b, "history") || strings.HasSuffix(b, "hst") || strings.HasPrefix(b, ".zcompdump") || strings.HasSuffix(b, "ignore") {
		return false
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return false // grep -r TODO ~/.config: a folder, judged by what is in it
	}
	return true
}

// homeDotDirs are dot-folders every home has: a read of one is a search
// through it, judged by the files' own names.
var homeDotDirs = map[string]bool{".config": true, ".local": true, ".cache": true, ".ssh": true, ".gnupg": true, ".npm": true, ".cargo": true, ".rustup": true,
	".vscode": true, ".mozilla": true, ".docker": true, ".kube": true, ".aws": true, ".m2": true, ".gradle": true, ".pyenv": true, ".nvm": true, ".vim": true,
	".oh-my-zsh": true, ".tmux": true, ".fonts": true, ".themes": true, ".icons": true, ".java": true, ".android": true, ".steam": true, ".var": true, ".pki": true,
	".gem": true, ".bundle": true, ".conda": true, ".ipython": true, ".jupyter": true, ".keras": true, ".julia": true, ".cpan": true, ".cpanm": true, ".dotnet": true,
	".terraform": true, ".rbenv": true, ".sdkman": true, ".arduino15": true, ".platformio": true, ".claude": true, ".warden": true, ".git": true, ".venv": true}

// dotDirCodeSecret: a file of code named for a password inside a tool's
// own dot-folder under home (~/.pywikibot/user-password.py) is that
// tool's password file written in its language, not code about
// passwords; libraries, virtualenvs and extension folders are code.
func dotDirCodeSecret(p, home string) bool {
	rel := strings.TrimPrefix(p, home+"/")
	if rel == p || !strings.HasPrefix(rel, ".") || strings.Count(rel, "/") != 1 {
		return false
	}
	d := strings.ToLower(rel[:strings.IndexByte(rel, '/')])
	switch d {
	case ".local", ".cache", ".npm", ".cargo", ".rustup", ".vscode", ".vscode-server", ".nvm", ".pyenv", ".rbenv", ".git", ".venv", ".config":
		return false
	}
	b := strings.ToLower(path.Base(p))
	stem := strings.TrimSuffix(b, path.Ext(b))
	for _, w := range strings.FieldsFunc(stem, func(r rune) bool { return r == '.' || r == '_' || r == '-' }) {
		if secretNameParts[w] || w == "passwords" || w == "credentials" {
			return true
		}
	}
	return false
}
