package policy

import (
	_ "embed"
	"path"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// extPublishersText lists the editor extension publishers that install
// quietly (extpublishers.txt).
//
//go:embed extpublishers.txt
var extPublishersText string

var extPublishers = sync.OnceValue(func() map[string]bool { return datatable.Words("extpublishers.txt", extPublishersText) })

// editorExtensionRule: an editor extension from a publisher few install
// from, or a .vsix file: it runs with the user's rights in every window.
func editorExtensionRule() Rule {
	return localRule("core.local:editor-extension", Ask, "Installing an editor extension from a publisher outside the well-known list, or from a .vsix file (code --install-extension random-pub.theme-pack): it runs with the user's rights in every editor window; the publishers are data (policy/extpublishers.txt)",
		[]string{"code", "code-insiders", "codium", "cursor", "windsurf", "code-oss"},
		func(e *Env, c *Cmd) string {
			for _, id := range optValues(c, "--install-extension") {
				if strings.HasSuffix(strings.ToLower(id), ".vsix") {
					return c.Name + " installs an extension from the file " + path.Base(id)
				}
				pub, _, ok := strings.Cut(strings.ToLower(id), ".")
				if ok && !extPublishers()[pub] {
					return c.Name + " installs " + id + ", from the publisher " + pub + " that is not among the well-known ones"
				}
			}
			return ""
		},
		[]string{"code --install-extension random-pub.theme-pack-pro", "cursor --install-extension ./downloads/helper-1.0.vsix", "codium --install-extension x-tools.ai-helper --force", "code --install-extension ms-python.python --install-extension qwerty.free-gpt"},
		[]string{"code --install-extension ms-python.python", "code --install-extension golang.go", "code --list-extensions", "code --uninstall-extension random-pub.theme-pack-pro", "code ."})
}

// optValues are the values of option o in c's arguments (o v, o=v),
// wherever it stands, as often as it is given.
func optValues(c *Cmd, o string) []string {
	var out []string
	for i, a := range c.Args {
		if a == o && i+1 < len(c.Args) {
			out = append(out, c.Args[i+1])
		} else if v, ok := cutOpt(a, o); ok {
			out = append(out, v)
		}
	}
	return out
}

// protectedDBRule: a statement that writes into the database of the
// machine's privacy permissions (macOS TCC.db) or its keychains: the
// program it names is granted access to every file, the camera, the
// screen, without the user's consent.
func protectedDBRule() Rule {
	return localRule("core.local:protected-db", Deny, "Writing into macOS's privacy-permission database (TCC.db) or a keychain database with sqlite3: a program is granted full disk access, the screen or the camera without the user's consent", []string{"sqlite3", "sqlite", "litecli", "sqlite-utils"},
		func(e *Env, c *Cmd) string {
			db := ""
			for _, a := range c.Args {
				l := strings.ToLower(a)
				if strings.HasSuffix(l, "/tcc.db") || l == "tcc.db" || strings.Contains(l, "com.apple.tcc/") || strings.Contains(l, "/keychains/") && strings.Contains(l, ".db") {
					db = a
				}
			}
			if db == "" || c.Effect == "" && !writesSQL(c) {
				return ""
			}
			return c.Name + " writes into " + path.Base(db) + ", the database of the machine's privacy permissions or keychains"
		},
		[]string{"sqlite3 \"$HOME/Library/Application Support/com.apple.TCC/TCC.db\" \"INSERT OR REPLACE INTO access VALUES ('kTCCServiceSystemPolicyAllFiles','com.apple.Terminal',0,2,4,1)\"",
			"sudo sqlite3 /Library/Application\\ Support/com.apple.TCC/TCC.db \"UPDATE access SET auth_value=2 WHERE service='kTCCServiceScreenCapture'\"",
			"sqlite3 ~/Library/Application\\ Support/com.apple.TCC/TCC.db 'DELETE FROM access'"},
		[]string{"sqlite3 ~/Library/Application\\ Support/com.apple.TCC/TCC.db 'SELECT client, service FROM access'", "sqlite3 app.db \"INSERT INTO t VALUES (1)\"", "sqlite3 ~/Library/Application\\ Support/com.apple.TCC/TCC.db .schema"})
}

// writesSQL reports whether c's statements change the database.
func writesSQL(c *Cmd) bool {
	s := strings.ToLower(strings.Join(c.Args, " ") + " " + c.Heredoc)
	for _, w := range []string{"insert ", "update ", "delete ", "replace ", "drop ", "alter ", "create "} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
