package testenv

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The process runs in the home Isolate made (Main, from this package's
// TestMain): a new HOME under the temp directory with a git identity and
// nothing else of the developer's, the XDG directories inside it, no
// warden or agent variables but the runner's, and no warden or claude on
// PATH.
func TestIsolatedProcess(t *testing.T) {
	home := os.Getenv("HOME")
	if !strings.HasPrefix(home, os.TempDir()) || !strings.Contains(home, "warden-test-home-") {
		t.Fatalf("HOME=%q, want a new directory under %s", home, os.TempDir())
	}
	entries, err := os.ReadDir(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); n != ".gitconfig" && n != ".config" && n != ".local" && n != ".cache" {
			t.Errorf("the new home holds %s", n)
		}
	}
	for _, k := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		if v := os.Getenv(k); !strings.HasPrefix(v, home+string(filepath.Separator)) {
			t.Errorf("%s=%q, not inside HOME", k, v)
		}
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if foreign(name) && !strings.HasPrefix(name, "XDG_") {
			t.Errorf("%s is still set", name)
		}
	}
	for _, p := range []string{"warden", "warden-core", "claude"} {
		if path, err := exec.LookPath(p); err == nil {
			t.Errorf("%s is on PATH at %s", p, path)
		}
	}
	if out, err := exec.Command("go", "env", "GOTELEMETRY").Output(); err != nil || strings.TrimSpace(string(out)) != "off" {
		t.Errorf("go telemetry in the test home: %q, %v; want off (its detached child writes into a removed home)", out, err)
	}
	out, err := exec.Command("git", "config", "--global", "user.email").Output()
	if err != nil || strings.TrimSpace(string(out)) != "tests@warden.invalid" {
		t.Errorf("git's global identity: %q, %v", out, err)
	}
}

// A PATH directory holding warden or claude is replaced by one of links to
// everything else in it; the others stay as they are; relative entries go.
func TestShadowPath(t *testing.T) {
	mixed, clean := t.TempDir(), t.TempDir()
	for _, f := range []string{filepath.Join(mixed, "claude"), filepath.Join(mixed, "warden-core"), filepath.Join(mixed, "tool"), filepath.Join(clean, "other")} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	into := t.TempDir()
	got, err := shadowPath(strings.Join([]string{mixed, "", "bin", clean}, string(filepath.ListSeparator)), into)
	if err != nil {
		t.Fatal(err)
	}
	dirs := filepath.SplitList(got)
	if len(dirs) != 2 || dirs[1] != clean || !strings.HasPrefix(dirs[0], into) {
		t.Fatalf("PATH %q, want a copy of %s then %s", got, mixed, clean)
	}
	if _, err := os.Stat(filepath.Join(dirs[0], "tool")); err != nil {
		t.Errorf("tool lost: %v", err)
	}
	for _, n := range []string{"claude", "warden-core"} {
		if _, err := os.Lstat(filepath.Join(dirs[0], n)); err == nil {
			t.Errorf("%s still reachable", n)
		}
	}
}

// Every package with tests runs them in a home of their own: its TestMain
// calls testenv.Main or testenv.Isolate. A package without one would read
// the developer's ~/.warden, ~/.claude and PATH.
func TestEveryPackageIsIsolated(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	dirs := map[string]bool{} // directory with tests → isolated
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (n == "testdata" || strings.HasPrefix(n, ".") || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.Dir(path)
		dirs[dir] = dirs[dir] || isolatingMain(t, path)
		if initSetsEnv(t, path) {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s: an init sets the environment, which Isolate then resets; pass it to testenv.Main(m, \"KEY=VALUE\")", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 40 {
		t.Fatalf("found tests in %d directories; the walk is broken", len(dirs))
	}
	for dir, ok := range dirs {
		if !ok {
			rel, _ := filepath.Rel(root, dir)
			t.Errorf("%s: no TestMain calling testenv.Main (add main_test.go: func TestMain(m *testing.M) { testenv.Main(m) })", rel)
		}
	}
}

// isolatingMain reports whether the file declares a TestMain whose body
// calls testenv.Main or testenv.Isolate (Main or Isolate in this package).
func isolatingMain(t *testing.T, path string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "TestMain" || fn.Recv != nil || fn.Body == nil {
			continue
		}
		found := false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return !found
			}
			switch f := call.Fun.(type) {
			case *ast.SelectorExpr:
				if x, ok := f.X.(*ast.Ident); ok && x.Name == "testenv" && (f.Sel.Name == "Main" || f.Sel.Name == "Isolate") {
					found = true
				}
			case *ast.Ident:
				if f.Name == "Main" || f.Name == "Isolate" {
					found = f.Name != "" && filepath.Base(filepath.Dir(path)) == "testenv"
				}
			}
			return !found
		})
		return found
	}
	return false
}

// initSetsEnv reports whether the file has an init func calling os.Setenv.
func initSetsEnv(t *testing.T, path string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "init" || fn.Body == nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "os" && sel.Sel.Name == "Setenv" {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// A program that isolates itself and leaves by Exit (the benches) takes
// its home with it: os.Exit would skip a deferred clean-up.
func TestExitRemovesTheHome(t *testing.T) {
	if os.Getenv("WARDEN_TEST_EXIT_CHILD") == "1" {
		os.Stdout.WriteString(os.Getenv("HOME"))
		Exit(3)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestExitRemovesTheHome$")
	cmd.Env = append(os.Environ(), "WARDEN_TEST_EXIT_CHILD=1")
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("exit: %v, want status 3", err)
	}
	home := string(out)
	if !strings.Contains(home, "warden-test-home-") {
		t.Fatalf("the child's HOME %q is not a test home", home)
	}
	if _, err := os.Stat(filepath.Dir(home)); !os.IsNotExist(err) {
		t.Errorf("the child's home %s is still there after Exit: %v", filepath.Dir(home), err)
	}
}
