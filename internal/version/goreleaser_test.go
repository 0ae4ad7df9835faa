package version

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// goreleaserConfig is the part of .goreleaser.yaml a release depends on.
type goreleaserConfig struct {
	Version int `yaml:"version"`
	Builds  []struct {
		ID      string   `yaml:"id"`
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		IDs     []string `yaml:"ids"`
		Formats []string `yaml:"formats"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
		Algorithm    string `yaml:"algorithm"`
		Disable      bool   `yaml:"disable"`
	} `yaml:"checksum"`
}

// mainPackages lists the directories under cmd/ whose non-test Go files
// are package main: every binary the release must ship.
func mainPackages(t *testing.T, root string) []string {
	t.Helper()
	dirs, err := os.ReadDir(filepath.Join(root, "cmd"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(root, "cmd", d.Name(), "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			pf, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly)
			if err != nil {
				t.Fatal(err)
			}
			if pf.Name.Name == "main" {
				out = append(out, d.Name())
				break
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no main packages under cmd/")
	}
	return out
}

// The release configuration builds every command under cmd/ (a new one
// that is not listed fails here), for linux and darwin on amd64 and arm64,
// without cgo, stamped with the version this package reports, packs them
// all into the archives and writes checksums.
func TestGoreleaserBuildsEveryCommand(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c goreleaserConfig
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if c.Version != 2 {
		t.Errorf(".goreleaser.yaml: version %d, want 2 (goreleaser v2's schema)", c.Version)
	}
	built := map[string]bool{}
	var ids []string
	for _, bd := range c.Builds {
		name := strings.TrimPrefix(filepath.ToSlash(filepath.Clean(bd.Main)), "cmd/")
		if bd.Binary != name {
			t.Errorf("build %q: binary %q from main %q, want the directory's name", bd.ID, bd.Binary, bd.Main)
		}
		built[name] = true
		ids = append(ids, bd.ID)
		for _, want := range []string{"linux", "darwin"} {
			if !slices.Contains(bd.Goos, want) {
				t.Errorf("build %q: goos %v lacks %s", bd.ID, bd.Goos, want)
			}
		}
		for _, want := range []string{"amd64", "arm64"} {
			if !slices.Contains(bd.Goarch, want) {
				t.Errorf("build %q: goarch %v lacks %s", bd.ID, bd.Goarch, want)
			}
		}
		if !slices.Contains(bd.Env, "CGO_ENABLED=0") {
			t.Errorf("build %q: env %v, want CGO_ENABLED=0 (the store is pure Go; archives must run anywhere)", bd.ID, bd.Env)
		}
		flags := strings.Join(bd.Ldflags, " ")
		if strings.Contains(flags, "-E ") {
			t.Errorf("build %q: ldflags %q set an entry point: every binary starts as a plain Go program", bd.ID, flags)
		}
		for _, v := range []string{"Version", "Commit", "Date"} {
			if !strings.Contains(flags, "-X github.com/warden-dev/warden/internal/version."+v+"=") {
				t.Errorf("build %q: ldflags do not set version.%s (`warden version` would say unknown)", bd.ID, v)
			}
		}
	}
	for _, cmd := range mainPackages(t, root) {
		if !built[cmd] {
			t.Errorf(".goreleaser.yaml builds no %s: add a build with main ./cmd/%s (every binary ships; warden finds its siblings beside it)", cmd, cmd)
		}
	}
	if len(c.Archives) == 0 {
		t.Fatal(".goreleaser.yaml: no archives")
	}
	for _, a := range c.Archives {
		for _, id := range ids {
			if !slices.Contains(a.IDs, id) {
				t.Errorf("archive %v lacks build %q", a.IDs, id)
			}
		}
	}
	if c.Checksum.Disable || c.Checksum.NameTemplate == "" || c.Checksum.Algorithm != "sha256" {
		t.Errorf("checksum %+v, want checksums.txt in sha256", c.Checksum)
	}
}
