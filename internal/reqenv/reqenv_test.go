package reqenv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGetenvIsTheCallersFirstEntry(t *testing.T) {
	e := &Env{Environ: []string{"A=1", "B=", "A=2", "NOEQUALS"}}
	if e.Getenv("A") != "1" || e.Getenv("B") != "" || e.Getenv("NOEQUALS") != "" {
		t.Fatal("Getenv does not follow os.Getenv's rules")
	}
	if _, ok := e.LookupEnv("B"); !ok {
		t.Error("B is set (empty)")
	}
	if _, ok := e.LookupEnv("C"); ok {
		t.Error("C is not set")
	}
}

// TestCommandRunsForTheCaller: the program is found on the caller's PATH,
// runs in the caller's directory with the caller's environment (plus the
// extras), whatever this process's are.
func TestCommandRunsForTheCaller(t *testing.T) {
	bin, dir := t.TempDir(), t.TempDir()
	script := "#!/bin/sh\necho \"$MARK $EXTRA $(pwd)\"\n"
	if err := os.WriteFile(filepath.Join(bin, "callers-tool"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	e := &Env{Environ: []string{"PATH=" + bin + ":/usr/bin:/bin", "MARK=caller"}, Cwd: dir}
	out, err := e.Command(context.Background(), "callers-tool", nil, "EXTRA=x").Output()
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if got := strings.TrimSpace(string(out)); got != "caller x "+real && got != "caller x "+dir {
		t.Fatalf("got %q", got)
	}
	if _, err := (&Env{Environ: []string{"PATH=" + t.TempDir()}, Cwd: dir}).LookPath("callers-tool"); err == nil {
		t.Error("found on a PATH that does not have it")
	}
	if err := (&Env{Environ: []string{"PATH=/nonexistent"}, Cwd: dir}).Command(context.Background(), "callers-tool", nil).Run(); err == nil {
		t.Error("a program not on the caller's PATH ran")
	}
}

func TestFromContext(t *testing.T) {
	e := &Env{Environ: []string{"X=1"}, Cwd: "/c"}
	ctx := Into(context.Background(), e)
	if From(ctx) != e || Getenv(ctx, "X") != "1" {
		t.Fatal("the caller does not travel in the context")
	}
	if From(context.Background()).Cwd == "" {
		t.Error("without a caller, From is this process")
	}
	if e.Abs("rel") != "/c/rel" || e.Abs("/abs") != "/abs" {
		t.Error("Abs")
	}
}
