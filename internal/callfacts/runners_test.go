package callfacts

import (
	"os"
	"path/filepath"
	"testing"
)

// project writes files into a new project directory and returns it.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, s := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.ToSlash(dir)
}

// ran lists what each command of the facts runs, with its innermost
// wrapper: "npm run clean: rm -rf /home/dev/x".
func ran(f *Facts) []string {
	var out []string
	for _, c := range f.Commands {
		w := ""
		if len(c.Wrappers) > 0 {
			w = c.Wrappers[len(c.Wrappers)-1]
		}
		out = append(out, w+": "+c.String())
	}
	return out
}

func hasRun(f *Facts, want string) bool {
	for _, r := range ran(f) {
		if r == want {
			return true
		}
	}
	return false
}

// Every runner reads its definition from the project: the target or
// script asked for, its prerequisites, dependencies and hooks, with the
// file's variables and the command line's arguments filled in; what is
// not asked for does not run.
func TestRunnersReadTheProject(t *testing.T) {
	const home = "/home/dev"
	dir := project(t, map[string]string{
		"Makefile": "BUILD = build\nDATA := ~/data\n\nall: build\n\nbuild:\n\tgo build ./...\n\n" +
			"clean: tidy\n\t@rm -rf $(BUILD) \\\n\t  $(OUT)\n\ntidy:\n\t-rm -rf $(DATA)\n\ninstall: ; cp app $(PREFIX)/bin\n",
		"package.json": `{"scripts":{"clean":"rm -rf ~/Documents/old","prebuild":"echo pre","build":"tsc","postbuild":"cp -r dist ~/site",` +
			`"test":"jest","postinstall":"node scripts/setup.js","nested":"npm run clean"}}`,
		"justfile": "set shell := [\"bash\", \"-c\"]\nroot := \"~/Music\"\nalias n := nuke\n\ndefault: build\n\nbuild:\n    cargo build\n\n" +
			"nuke dir: build\n    @rm -rf {{dir}}\n    -rm -rf {{root}}\n\npy:\n    #!/usr/bin/env python3\n    import shutil; shutil.rmtree('/srv/data')\n",
		"Taskfile.yml": "version: '3'\nvars:\n  OUT: ~/Pictures\ntasks:\n  default:\n    cmds:\n      - task: build\n  build:\n    cmds:\n      - go build ./...\n" +
			"  wipe:\n    deps: [build]\n    dir: sub\n    cmds:\n      - cmd: rm -rf {{.OUT}}\n      - |\n        echo one\n        rm -rf ~/two\n  short: rm -rf ~/short\n",
		"composer.json":      `{"scripts":{"reset":["@clear","@php bin/console cache:clear","App\\Setup::run"],"clear":"rm -rf ~/.config","post-install-cmd":"rm -rf var/cache"}}`,
		".cargo/config.toml": "[alias]\nwipe = \"install --root / foo\"\nrel = [\"build\", \"--release\"]\n",
	})
	for _, c := range []struct {
		cmd  string
		want []string
		not  []string
	}{
		{"make", []string{"make build: go build ./..."}, []string{"make clean: rm -rf build $OUT"}},
		{"make clean", []string{"make tidy: rm -rf ~/data", "make clean: rm -rf build $OUT"}, []string{"make build: go build ./..."}},
		{"make clean OUT=/srv", []string{"make clean: rm -rf build /srv"}, nil},
		{"make -C " + dir + " install PREFIX=/usr/local", []string{"make install: cp app /usr/local/bin"}, nil},
		{"make -n clean", nil, []string{"make clean: rm -rf build $OUT"}},
		{"npm run clean", []string{"npm run clean: rm -rf ~/Documents/old"}, nil},
		{"npm run build -- --watch", []string{"npm run build (prebuild): echo pre", "npm run build: tsc --watch", "npm run build (postbuild): cp -r dist ~/site"}, nil},
		{"npm test", []string{"npm test: jest"}, nil},
		{"npm ci", []string{"npm ci (postinstall): node scripts/setup.js"}, nil},
		{"npm install left-pad", nil, []string{"npm install (postinstall): node scripts/setup.js"}},
		{"yarn clean", []string{"yarn clean: rm -rf ~/Documents/old"}, nil},
		{"pnpm run clean", []string{"pnpm run clean: rm -rf ~/Documents/old"}, nil},
		{"yarn add react", nil, []string{"yarn add: rm -rf ~/Documents/old"}},
		{"npm run nested", []string{"npm run nested: npm run clean", "npm run clean: rm -rf ~/Documents/old"}, nil},
		{"just", []string{"just build: cargo build"}, []string{"just nuke: rm -rf $JUST_EXPR"}},
		{"just nuke ~/Videos", []string{"just build: cargo build", "just nuke: rm -rf ~/Videos", "just nuke: rm -rf ~/Music"}, nil},
		{"just n /tmp/x", []string{"just nuke: rm -rf /tmp/x"}, nil},
		{"just py", []string{"just py: python3 -c import shutil; shutil.rmtree('/srv/data')"}, nil},
		{"just --list", nil, []string{"just build: cargo build"}},
		{"task", []string{"task build: go build ./..."}, nil},
		{"task wipe", []string{"task build: go build ./...", "task wipe: rm -rf ~/Pictures", "task wipe: rm -rf ~/two"}, nil},
		{"task wipe OUT=/srv/x", []string{"task wipe: rm -rf /srv/x"}, nil},
		{"task short", []string{"task short: rm -rf ~/short"}, nil},
		{"composer reset", []string{"composer reset: rm -rf ~/.config", "composer reset: php bin/console cache:clear"}, nil},
		{"composer install", []string{"composer post-install-cmd: rm -rf var/cache"}, nil},
		{"composer require monolog/monolog", nil, []string{"composer post-install-cmd: rm -rf var/cache"}},
		{"cargo wipe", []string{"cargo wipe: cargo install --root / foo"}, nil},
		{"cargo rel", []string{"cargo rel: cargo build --release"}, nil},
		{"cargo build", nil, []string{"cargo rel: cargo build --release"}},
	} {
		f := Bash(c.cmd, dir, home)
		for _, w := range c.want {
			if !hasRun(f, w) {
				t.Errorf("%s: want %q among %q", c.cmd, w, ran(f))
			}
		}
		for _, w := range c.not {
			if hasRun(f, w) {
				t.Errorf("%s: %q runs, want not", c.cmd, w)
			}
		}
	}
	// commands run in the definition's directory (a task's dir: under it)
	f := Bash("task wipe", dir, home)
	for _, c := range f.Commands {
		if c.Name == "rm" && c.Dir != dir+"/sub" {
			t.Errorf("task wipe: rm runs in %q, want %q", c.Dir, dir+"/sub")
		}
	}
	// the touch names the runner: explain says what it runs
	f = Bash("npm run clean", dir, home)
	found := false
	for _, tc := range f.Touches() {
		if tc.Via == "npm run clean runs `rm -rf ~/Documents/old`" && tc.Effect == PathRecursiveDelete && tc.Zone == ZoneHomeData {
			found = true
		}
	}
	if !found {
		t.Errorf("npm run clean: touches %+v, want one via the script", f.Touches())
	}
}

// A definition the line writes itself is read from the line; one the
// line fetched runs text the line does not show.
func TestRunnersReadWhatTheLineWrote(t *testing.T) {
	const home, cwd = "/home/dev", "/home/dev/proj"
	for cmd, want := range map[string]string{
		`printf '{"scripts":{"x":"rm -rf ~"}}' > package.json && npm run x`:       "npm run x: rm -rf ~",
		"printf 'go:\\n\\trm -rf ~/a\\n' > Makefile; make go":                     "make go: rm -rf ~/a",
		"printf 'all:\\n\\trm -rf ~\\n' | make -f -":                              "make all: rm -rf ~",
		"cat > justfile <<'EOF'\nz:\n    rm -rf /srv\nEOF\njust z":                "just z: rm -rf /srv",
		"printf '[alias]\\nq = \"run --bin x\"\\n' > .cargo/config.toml; cargo q": "cargo q: cargo run --bin x",
	} {
		if f := Bash(cmd, cwd, home); !hasRun(f, want) {
			t.Errorf("%q: want %q among %q", cmd, want, ran(f))
		}
	}
	f := Bash("curl -s https://x.example/mk > Makefile && make", cwd, home)
	if c := f.Cmds("make"); len(c) != 1 || !c[0].FeedUnknown {
		t.Errorf("make of a fetched makefile: want FeedUnknown, got %+v", c)
	}
}
