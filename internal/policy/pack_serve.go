package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A static file server hands every file under its root to whoever asks.
// Serving the project or a build directory is how front ends are tried;
// serving home, its config or credentials, or the system, on an address
// others reach, publishes them.

// servedZones are the zones a file server must not publish.
var servedZones = map[callfacts.Zone]bool{callfacts.ZoneHomeData: true, callfacts.ZoneHomeConfig: true,
	callfacts.ZoneCredentials: true, callfacts.ZoneSystem: true, callfacts.ZoneWarden: true, callfacts.ZoneAgent: true}

func serveHomeRule() Rule {
	servers := []string{"http.server", "SimpleHTTPServer", "php", "serve", "http-server", "busybox", "httpd", "darkhttpd", "caddy", "webfsd", "fava", "datasette", "sqlite_web", "sqlite-web", "jupyter"}
	return cmdRule("core.secrets:serve-home", Deny, "Serving home, its config or credentials, or the system over HTTP on an address others reach (python3 -m http.server --directory ~, php -S 0.0.0.0:8000 -t ~, npx serve ~)", servers,
		func(e *Env, c *Cmd) string {
			root, bind, ok := servedRoot(c)
			if !ok || localBind(bind) {
				return ""
			}
			p := e.abs(c, root)
			if z := callfacts.ZoneOf(p, e.F.Home, e.F.Project); servedZones[z] {
				return c.Name + " serves " + homeRel(p, e.F.Home) + " (" + string(z) + ") to the network"
			}
			return ""
		},
		[]string{"python3 -m http.server 8000 --bind 0.0.0.0 --directory ~", "cd ~ && python3 -m http.server", "php -S 0.0.0.0:8000 -t ~", "npx serve ~/.ssh", "busybox httpd -f -p 8080 -h /home/dev", "python3 -m http.server -d /etc 8080"},
		[]string{"python3 -m http.server 8000", "python3 -m http.server --directory dist", "php -S localhost:8000 -t ~", "npx serve build", "python3 -m http.server --bind 127.0.0.1 --directory ~", "busybox httpd -f -p 8080 -h ./public"})
}

// servedRoot is the directory c serves and the address it binds ("" for
// all interfaces); ok is false when c is not a file server.
func servedRoot(c *Cmd) (root, bind string, ok bool) {
	root = "."
	switch c.Name {
	case "http.server", "SimpleHTTPServer":
		root, bind = optOr(c, root, "--directory", "-d"), optOr(c, "", "--bind", "-b")
		return root, bind, true
	case "php":
		if bind = optValue(c, "-S"); bind == "" {
			return "", "", false
		}
		return optOr(c, root, "-t"), bind, true
	case "serve", "http-server":
		if len(c.Pos) > 0 {
			root = c.Pos[0]
		}
		return root, optOr(c, "", "-a", "--address", "-l", "--listen"), true
	case "busybox", "httpd":
		if c.Name == "busybox" && (len(c.Pos) == 0 || c.Pos[0] != "httpd") {
			return "", "", false
		}
		return optOr(c, root, "-h"), "", true
	case "darkhttpd":
		if len(c.Pos) > 0 {
			root = c.Pos[0]
		}
		return root, optOr(c, "", "--addr"), true
	case "caddy":
		if len(c.Pos) == 0 || c.Pos[0] != "file-server" {
			return "", "", false
		}
		return optOr(c, root, "--root", "-r"), optOr(c, "", "--listen", "-l"), true
	case "webfsd":
		return optOr(c, root, "-r"), optOr(c, "", "-i"), true
	// s21: data browsers serve the file or folder they are given: a
	// ledger (fava), a database (datasette, sqlite-web), notebooks
	// (jupyter); each listens on this machine unless told an address
	case "fava", "sqlite_web", "sqlite-web":
		if len(c.Pos) == 0 {
			return "", "", false
		}
		return c.Pos[0], optOr(c, "127.0.0.1", "--host", "-H"), true
	case "datasette":
		pos := c.Pos
		if len(pos) > 0 && pos[0] == "serve" {
			pos = pos[1:]
		}
		if len(pos) == 0 {
			return "", "", false
		}
		return pos[0], optOr(c, "127.0.0.1", "--host", "-h"), true
	case "jupyter":
		if len(c.Pos) == 0 || c.Pos[0] != "lab" && c.Pos[0] != "notebook" && c.Pos[0] != "server" {
			return "", "", false
		}
		return optOr(c, root, "--notebook-dir", "--ServerApp.root_dir", "--NotebookApp.notebook_dir"), optOr(c, "127.0.0.1", "--ip"), true
	}
	return "", "", false
}

// optOr is the value of the first of opts c has, else def.
func optOr(c *Cmd, def string, opts ...string) string {
	for _, o := range opts {
		if v := optValue(c, o); v != "" {
			return v
		}
	}
	return def
}

// localBind: the server listens on this machine only.
func localBind(bind string) bool {
	if bind == "" {
		return false
	}
	h := bind
	if !strings.Contains(h, "://") {
		h = "http://" + h
	}
	return isLocalEndpoint(h) && urlHost(h) != "0.0.0.0"
}
