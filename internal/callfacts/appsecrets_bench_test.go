package callfacts

import (
	"strings"
	"testing"
)

// everydayReads are paths an everyday line reads: none is a secret, and
// each is tried against every glob its name cannot rule out.
var everydayReads = []string{"src/main.go", "/home/dev/project/README.md", "internal/policy/engine.go", "package.json", "docs/Setup.md", "/var/log/app/server.log", "build/out/index.js", "config/settings.yaml"}

// BenchmarkAppSecretFile: secretFile runs this for every path a call reads.
func BenchmarkAppSecretFile(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p := everydayReads[i%len(everydayReads)]
		AppSecretFile(p)
	}
}

// TestAppSecretAnyUnder: the folder index of the anyName globs keeps
// every one of them for a path in its own folder (any case, at any
// depth) and none for a path in another.
func TestAppSecretAnyUnder(t *testing.T) {
	tab := appSecrets()
	n := 0
	for _, e := range tab.globs {
		if !e.anyName || len(e.segs) < 2 || strings.ContainsAny(e.segs[len(e.segs)-2], "*?[") {
			continue
		}
		n++
		segs := append([]string{}, e.segs...)
		for i, s := range segs {
			if strings.ContainsAny(s, "*?[") {
				segs[i] = "x1"
			}
		}
		p := "/home/u/" + strings.Join(segs, "/")
		if AppSecretFile(p) == "" {
			t.Errorf("%s (%v): no longer found", p, e.segs)
		}
		// folders in capitals (the name kept: a name in capitals is a variable's)
		if up := strings.ToUpper(p[:strings.LastIndexByte(p, '/')]) + "/x1"; AppSecretFile(up) == "" {
			t.Errorf("%s (%v): no longer found", up, e.segs)
		}
	}
	if n < 20 {
		t.Errorf("only %d anyName globs under a literal folder: the index indexes too few", n)
	}
	for _, p := range []string{"/home/u/project/x1", "notes/x1", "x1", "/x1"} {
		if k := AppSecretFile(p); k != "" {
			t.Errorf("%s: %s", p, k)
		}
	}
}

func TestLastFolder(t *testing.T) {
	for p, want := range map[string]string{"run/secrets/db": "secrets", "/a/B/c": "b", "c": "", "/c": "", "x/c": "x"} {
		if got := lastFolder(p); got != want {
			t.Errorf("lastFolder(%q) = %q, want %q", p, got, want)
		}
	}
}
