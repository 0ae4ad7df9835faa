package config

import (
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

// settle dates path back an hour: old enough for Load to keep its outcome.
func settle(t *testing.T, path string) time.Time {
	t.Helper()
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	return old
}

func retention(t *testing.T, userFile, projectDir string) int {
	t.Helper()
	c, _ := Load(userFile, projectDir)
	return c.RetentionDays
}

// TestLoadSeesEveryChange: a kept outcome is never handed out for files
// that changed — edited, replaced, removed, created — including an edit
// that leaves size and modification time as they were, made right after
// the file was read (the racy case).
func TestLoadSeesEveryChange(t *testing.T) {
	userFile, projectDir := files(t, "retention_days = 30\n", "")
	if got := retention(t, userFile, projectDir); got != 30 {
		t.Fatalf("first load: %d", got)
	}

	// Racy: written just now, so not kept; the same size and time again.
	fi, _ := os.Stat(userFile)
	write(t, userFile, "retention_days = 31\n")
	os.Chtimes(userFile, fi.ModTime(), fi.ModTime())
	if got := retention(t, userFile, projectDir); got != 31 {
		t.Fatalf("an edit within the racy window was missed: %d", got)
	}

	settle(t, userFile)
	if got := retention(t, userFile, projectDir); got != 31 {
		t.Fatalf("settled: %d", got)
	}
	if got := retention(t, userFile, projectDir); got != 31 { // from the cache
		t.Fatalf("kept: %d", got)
	}

	t.Run("edited, another size", func(t *testing.T) {
		write(t, userFile, "retention_days = 7\n")
		settle(t, userFile)
		if got := retention(t, userFile, projectDir); got != 7 {
			t.Fatalf("got %d", got)
		}
	})
	t.Run("edited, same size, new time", func(t *testing.T) {
		write(t, userFile, "retention_days = 8\n")
		old := settle(t, userFile)
		os.Chtimes(userFile, old.Add(time.Minute), old.Add(time.Minute))
		if got := retention(t, userFile, projectDir); got != 8 {
			t.Fatalf("got %d", got)
		}
	})
	t.Run("replaced by rename, same size and time", func(t *testing.T) {
		fi, _ := os.Stat(userFile)
		tmp := userFile + ".new"
		write(t, tmp, "retention_days = 9\n")
		os.Chtimes(tmp, fi.ModTime(), fi.ModTime())
		if err := os.Rename(tmp, userFile); err != nil {
			t.Fatal(err)
		}
		if got := retention(t, userFile, projectDir); got != 9 {
			t.Fatalf("got %d", got)
		}
	})
	t.Run("project file created, then removed", func(t *testing.T) {
		p := filepath.Join(projectDir, ".warden", "config.toml")
		write(t, p, "retention_days = 5\n") // a project may tighten (shorter)
		settle(t, p)
		c, problems := Load(userFile, projectDir)
		if c.RetentionDays != 9 && c.RetentionDays != 5 {
			t.Fatalf("got %d", c.RetentionDays)
		}
		want, wantProblems := c.RetentionDays, len(problems)
		if got, ps := Load(userFile, projectDir); got.RetentionDays != want || len(ps) != wantProblems {
			t.Fatalf("kept outcome differs: %d %v", got.RetentionDays, ps)
		}
		os.Remove(p)
		if got := retention(t, userFile, projectDir); got != 9 {
			t.Fatalf("after removing the project file: %d", got)
		}
	})
	t.Run("user file removed", func(t *testing.T) {
		os.Remove(userFile)
		if got := retention(t, userFile, projectDir); got != 60 {
			t.Fatalf("defaults expected, got %d", got)
		}
	})
}

// TestKeptOutcomeIsACopy: what one caller does to its config or problems
// does not reach the next caller's.
func TestKeptOutcomeIsACopy(t *testing.T) {
	userFile, projectDir := files(t, "disabled_handlers = [\"pacing\"]\nretention_days = \"x\"\n", "")
	settle(t, userFile)
	Load(userFile, projectDir) // kept
	a, pa := Load(userFile, projectDir)
	if len(a.DisabledHandlers) != 1 || len(pa) != 1 {
		t.Fatalf("got %v %v", a.DisabledHandlers, pa)
	}
	a.DisabledHandlers[0] = "changed"
	a.RetentionDays = 1
	pa[0].Message = "changed"
	b, pb := Load(userFile, projectDir)
	if b.DisabledHandlers[0] != "pacing" || b.RetentionDays != 60 || pb[0].Message == "changed" {
		t.Fatalf("a caller's change reached the next: %v %d %q", b.DisabledHandlers, b.RetentionDays, pb[0].Message)
	}
}

// TestCloneSharesNoList: every list field of Config is copied by clone
// (clone copies the registry's Strings keys; a list field that is not one
// would be shared between callers).
func TestCloneSharesNoList(t *testing.T) {
	c := defaultsFrom(keys)
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			switch f.Kind() {
			case reflect.Struct:
				fill(f)
			case reflect.Slice:
				f.Set(reflect.ValueOf([]string{"x"}))
			}
		}
	}
	fill(reflect.ValueOf(c).Elem())
	d := c.clone()
	var check func(path string, a, b reflect.Value)
	check = func(path string, a, b reflect.Value) {
		for i := 0; i < a.NumField(); i++ {
			name := path + a.Type().Field(i).Name
			switch a.Field(i).Kind() {
			case reflect.Struct:
				check(name+".", a.Field(i), b.Field(i))
			case reflect.Slice:
				if a.Field(i).Pointer() == b.Field(i).Pointer() {
					t.Errorf("%s is shared by a clone: make it a registry key of kind Strings", name)
				}
			case reflect.Map, reflect.Pointer:
				t.Errorf("%s is a %s: clone does not copy it", name, a.Field(i).Kind())
			}
		}
	}
	check("", reflect.ValueOf(c).Elem(), reflect.ValueOf(d).Elem())
}

// TestLoadConcurrently: callers side by side (a resident server) all get
// the file's outcome; run under -race.
func TestLoadConcurrently(t *testing.T) {
	userFile, projectDir := files(t, "retention_days = 30\ndisabled_handlers = [\"a\", \"b\"]\n", "")
	settle(t, userFile)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				c, _ := Load(userFile, projectDir)
				if c.RetentionDays != 30 || len(c.DisabledHandlers) != 2 {
					t.Errorf("got %d %v", c.RetentionDays, c.DisabledHandlers)
					return
				}
				c.DisabledHandlers[0] = "mine"
			}
		}()
	}
	wg.Wait()
}

// BenchmarkLoad: a hook's config load with a small user config, kept
// (the files unchanged since the last load: what a resident server does
// for every hook but the first) and read (parsed and applied again, as
// every hook did before the cache, and as one does right after an edit).
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	userFile, projectDir := filepath.Join(dir, "config.toml"), filepath.Join(dir, "project")
	text := "retention_days = 90\n[context]\nthreshold = 75\n[pacing]\nsafety_buffer_pct = 10\n[policy]\nprotected_branches = [\"main\", \"release\"]\n[gates]\ntest_commands = [\"go test ./...\"]\n"
	if err := os.WriteFile(userFile, []byte(text), 0o600); err != nil {
		b.Fatal(err)
	}
	projectFile := filepath.Join(projectDir, ".warden", "config.toml")
	if err := os.MkdirAll(filepath.Dir(projectFile), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(projectFile, []byte("[context]\nthreshold = 60\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(userFile, old, old)
	os.Chtimes(projectFile, old, old)
	b.Run("kept", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if c, p := Load(userFile, projectDir); c.RetentionDays != 90 || len(p) != 0 {
				b.Fatal(c.RetentionDays, p)
			}
		}
	})
	b.Run("read", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if r := resolve(keys, userFile, projectDir); r.cfg.RetentionDays != 90 || len(r.problems) != 0 {
				b.Fatal(r.cfg.RetentionDays, r.problems)
			}
		}
	})
}
