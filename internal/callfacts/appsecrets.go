package callfacts

import (
	_ "embed"
	"path"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/datatable"
)

// appSecretsText lists, as data, the files of applications, frameworks
// and tools that hold credentials wherever they sit (appsecrets.txt):
// wp-config.php, app/etc/env.php, terraform.tfstate, a kubeconfig, a
// Unity license, ~/.p4tickets.
//
//go:embed appsecrets.txt
var appSecretsText string

// appSecretPattern is one pattern of appsecrets.txt: its segments, lower
// case, the last one a file name glob.
type appSecretPattern struct {
	kind string
	segs []string
}

// appSecretTable indexes the patterns by their file name when it is
// exact, so a path is compared with the few patterns of its own name; the
// rest (*.tfstate) are tried by glob.
type appSecretTable struct {
	byName map[string][]appSecretPattern
	globs  []appSecretPattern
}

var appSecrets = sync.OnceValue(func() *appSecretTable {
	t := &appSecretTable{byName: map[string][]appSecretPattern{}}
	datatable.Must("appsecrets.txt", appSecretsText, 2, func(l datatable.Line) error {
		for _, p := range l.Fields[1:] {
			segs := strings.Split(strings.ToLower(p), "/")
			for _, s := range segs {
				if _, err := path.Match(s, ""); err != nil || s == "" {
					return l.Errorf("bad pattern %q: want names and globs joined by /", p)
				}
			}
			e := appSecretPattern{kind: l.Fields[0], segs: segs}
			if last := segs[len(segs)-1]; strings.ContainsAny(last, "*?[") {
				t.globs = append(t.globs, e)
			} else {
				t.byName[last] = append(t.byName[last], e)
			}
		}
		return nil
	})
	return t
})

// AppSecretFile says which application's credentials file p (a cleaned
// path, absolute or relative) is by appsecrets.txt ("wordpress",
// "terraform"…), "" when it is none.
func AppSecretFile(p string) string {
	if p == "" || strings.HasSuffix(p, "/") {
		return ""
	}
	t := appSecrets()
	lp := strings.ToLower(p)
	name := path.Base(lp)
	for _, e := range t.byName[name] {
		if segsMatch(e.segs, lp) {
			return e.kind
		}
	}
	for _, e := range t.globs {
		if ok, _ := path.Match(e.segs[len(e.segs)-1], name); ok && segsMatch(e.segs, lp) {
			return e.kind
		}
	}
	return ""
}

// segsMatch: p's last len(segs) segments match segs one by one.
func segsMatch(segs []string, p string) bool {
	parts := strings.Split(p, "/")
	if len(parts) < len(segs) {
		return false
	}
	parts = parts[len(parts)-len(segs):]
	for i, s := range segs {
		if ok, _ := path.Match(s, parts[i]); !ok {
			return false
		}
	}
	return true
}
