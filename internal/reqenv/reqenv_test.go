package reqenv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // zones without the system's zoneinfo
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

func TestLocationFollowsTheCallersTZ(t *testing.T) {
	at := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	hour := func(environ ...string) int {
		return at.In((&Env{Environ: environ}).Location()).Hour()
	}
	if h := hour("TZ=Pacific/Chatham"); h != 1 { // UTC+13:45 in January
		t.Errorf("TZ=Pacific/Chatham: hour %d, want 1", h)
	}
	if h := hour("TZ=:Asia/Tokyo"); h != 21 {
		t.Errorf("TZ=:Asia/Tokyo: hour %d, want 21", h)
	}
	if h := hour("TZ="); h != 12 {
		t.Errorf("TZ empty (UTC): hour %d, want 12", h)
	}
	if h := hour("TZ=No/Such_Zone"); h != 12 {
		t.Errorf("a zone that does not load falls back to UTC: hour %d, want 12", h)
	}
	if tzdata, err := os.ReadFile("/usr/share/zoneinfo/America/New_York"); err == nil && len(tzdata) > 0 {
		if h := hour("TZ=/usr/share/zoneinfo/America/New_York"); h != 7 {
			t.Errorf("TZ as a file path: hour %d, want 7", h)
		}
	}
	// Two callers side by side keep their own zones (nothing process-wide).
	a, b := &Env{Environ: []string{"TZ=Asia/Tokyo"}}, &Env{Environ: []string{"TZ=Europe/Paris"}}
	if ha, hb := at.In(a.Location()).Hour(), at.In(b.Location()).Hour(); ha != 21 || hb != 13 {
		t.Errorf("Tokyo %d, Paris %d; want 21 and 13", ha, hb)
	}
	if loc := Location(Into(context.Background(), a)); at.In(loc).Hour() != 21 {
		t.Errorf("Location(ctx) = %v, want the caller's Asia/Tokyo", loc)
	}
	if loc := Location(context.Background()); loc != time.Local {
		t.Errorf("Location without a caller = %v, want time.Local", loc)
	}
}
