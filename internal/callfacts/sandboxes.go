package callfacts

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

//go:embed sandboxes.txt
var sandboxesText string

// sandbox is one line of sandboxes.txt.
type sandbox struct {
	prog   string
	shared []string
}

var sandboxes = sync.OnceValue(func() map[string]sandbox {
	m := map[string]sandbox{}
	datatable.Must("sandboxes.txt", sandboxesText, 3, func(l datatable.Line) error {
		s := sandbox{prog: l.Fields[1]}
		for _, p := range l.Fields[2:] {
			if p != "-" {
				s.shared = append(s.shared, p)
			}
		}
		m[strings.ReplaceAll(l.Fields[0], "_", " ")] = s
		return nil
	})
	return m
})

// sandboxOwnRoots are where a sandbox keeps what is its own: its users'
// homes, its temp directories, an app or build folder it was given.
var sandboxOwnRoots = []string{"/home/", "/root/", "/tmp/", "/var/tmp/", "/opt/", "/srv/", "/var/www/", "/workspace/", "/app/", "/build/", "/src/", "/code/", "/usr/src/"}

// sandboxKeptHome are folders under ~ whose loss is the user's data
// wherever ~ is.
var sandboxKeptHome = map[string]bool{"Documents": true, "Desktop": true, "Pictures": true, "Downloads": true, "Music": true, "Videos": true,
	"Library": true, "Dropbox": true, "OneDrive": true, "Mail": true, "notes": true, "Notes": true}

// sandboxCacheDots are dot folders under ~ that hold rebuildable caches.
var sandboxCacheDots = map[string]bool{".cache": true, ".npm": true, ".m2": true, ".gradle": true, ".cargo": true, ".rustup": true, ".pub-cache": true,
	".yarn": true, ".pnpm-store": true, ".nuget": true, ".ivy2": true, ".sbt": true, ".local": false, ".kube": false}

// prodWords in a sandbox's name say it is no dev sandbox.
var prodWords = []string{"prod", "prd", "live", "production"}

// SandboxOwn reports whether p, a target of c, is a file of the local
// sandbox c runs in (sandboxes.txt) rather than this machine's: below one
// of sandboxOwnRoots there and not a folder the sandbox shares with this
// machine (Vagrant's /vagrant, WSL's /mnt/c, the home distrobox shares).
func (f *Facts) SandboxOwn(c *Cmd, p string) bool {
	if len(c.Wrappers) == 0 || p == "" || strings.ContainsAny(p, "$`*?") || strings.Contains(p, "..") {
		return false
	}
	var s sandbox
	ok := false
	for _, w := range c.Wrappers {
		if t, is := sandboxes()[w]; is {
			s, ok = t, true
			continue
		}
		if w == "ssh" || strings.HasPrefix(w, "ssh ") || remoteRunners[w] || strings.HasSuffix(w, " exec") {
			// a sandbox entered on another host (ssh build01 "vagrant ssh
			// -c …"), a container or host entered from the sandbox
			return false
		}
	}
	if !ok {
		return false
	}
	for i := range f.Commands {
		o := &f.Commands[i]
		if o.Name != s.prog || o.Depth >= c.Depth && c.Depth > 0 {
			continue
		}
		for _, a := range o.Args {
			la := strings.ToLower(a)
			for _, w := range prodWords {
				if strings.Contains(la, w) && !strings.HasPrefix(la, "-") {
					return false // vagrant ssh prod-web: no dev sandbox
				}
			}
		}
	}
	for _, sh := range s.shared {
		if sh == "~" {
			sh = f.Home
			if sh == "" {
				continue
			}
		}
		if p == strings.TrimSuffix(sh, "/") || strings.HasPrefix(p, strings.TrimSuffix(sh, "/")+"/") {
			return false
		}
	}
	p = strings.TrimSuffix(p, "/")
	if f.Home != "" && (p == f.Home || strings.HasPrefix(p, f.Home+"/")) {
		// ~ there: the sandbox's home, but what the line would call the
		// user's documents or settings here (~/Documents, ~/.ssh) keeps
		// that reading: the same words typed here would lose them
		first, _, _ := strings.Cut(strings.TrimPrefix(p, f.Home+"/"), "/")
		return p != f.Home && !sandboxKeptHome[first] && (!strings.HasPrefix(first, ".") || UserScratch(p, f.Home) || sandboxCacheDots[first])
	}
	for _, r := range sandboxOwnRoots {
		if rest, ok := strings.CutPrefix(p, r); ok && rest != "" {
			return true
		}
	}
	return false
}

// SandboxRootDelete reports whether c, a sudo in a local dev sandbox
// (vagrant ssh -c 'sudo rm -rf /opt/app'), deletes only the sandbox's
// own files: root there is the developer's own.
func (f *Facts) SandboxRootDelete(c *Cmd) bool {
	if !f.SandboxOwn(c, "/tmp/sandbox") {
		return false
	}
	i := 0
	for i < len(c.Args) && strings.HasPrefix(c.Args[i], "-") {
		i++
	}
	if i >= len(c.Args) || c.Args[i] != "rm" {
		return false
	}
	n := 0
	for _, a := range c.Args[i+1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if !f.SandboxOwn(c, a) {
			return false
		}
		n++
	}
	return n > 0
}
