package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "f.json")
	if err := Write(path, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(b) != "two" || fi.Mode().Perm() != 0o644 {
		t.Errorf("content %q mode %v", b, fi.Mode())
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp-*"))
	if len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
	if err := Write(filepath.Join(path, "under-a-file"), []byte("x"), 0o644); err == nil {
		t.Error("writing under a file must fail")
	}
}
